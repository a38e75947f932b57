/**
 * A capped to-many embed as the related rows grow (docs/member-shape.md, "Declared embeds"): the
 * embeds fixture's `/books` (10 books, each embedding its first 3 loans) and the item of the book
 * whose loans come last (`/books/10`), over databases whose books have 1, 100 and 20,000 loans
 * each, with the fixture's schema and with an index of a book's loans in their key's order (a
 * fresh database each: bench/capped-embedding-databases.ts), on SQLite and on the PostgreSQL and
 * MariaDB servers the environment names, both engines. Each request's loans read are counted at
 * the driver adapter (the rows handed back for statements reading the Loan table) and its time
 * taken; the rounds interleave every request of every database, schema and size, so that the
 * ratio of the largest size to the smallest is taken within one run. bench/embedding.ts runs it
 * and writes its table into its own section of bench/RESULTS.md.
 *
 * Settings: BENCH_CAPPED_ROUNDS (51), BENCH_CAPPED_LOANS (1,100,20000: loans a book).
 */

import {
  BOOKS,
  type Library,
  LOAN_INDEX,
  openLibrary,
  type Target,
} from './capped-embedding-databases.js'
import { integers, median } from './load.js'

const ROUNDS_VARIABLE = 'BENCH_CAPPED_ROUNDS'
const SIZES_VARIABLE = 'BENCH_CAPPED_LOANS'
const [ROUNDS = 51] = integers(ROUNDS_VARIABLE, '51')
const SIZES = integers(SIZES_VARIABLE, '1,100,20000')
const WARMUP = 5
/** The fixture's cap (`first: 3`). */
const FIRST = 3

/** The requests measured, with the books each shows: the last book's loans are the table's last. */
const REQUESTS = [
  ['/books', BOOKS],
  [`/books/${BOOKS}`, 1],
] as const
type Path = (typeof REQUESTS)[number][0]
/** The fixture's schema as written, and with LOAN_INDEX. */
const SCHEMAS = [false, true] as const
type Engine = keyof Library['apps']
const ENGINES: Engine[] = ['prisma', 'compiled']

type Body = Record<string, unknown>
const membersOf = (body: Body) => (body['hydra:member'] ?? []) as Body[]

/**
 * Throws unless `body` shows `books` books, each with its first loans (at most 3) and a view
 * exactly when the book has more: what the loans counted were read for.
 */
function check(body: Body, path: Path, books: number, perBook: number): void {
  const shown = path === '/books' ? membersOf(body) : [body]
  if (shown.length !== books) throw new Error(`${path}: ${shown.length} books, not ${books}`)
  for (const book of shown) {
    const loans = book.loans as Body
    const count = membersOf(loans).length
    if (
      count !== Math.min(perBook, FIRST) ||
      (loans['hydra:view'] !== undefined) !== perBook > FIRST
    )
      throw new Error(`${path}: book ${String(book['@id'])} shows ${count} loans of ${perBook}`)
  }
}

/** One request: its time (ms) and the loans its statements read. */
async function read(library: Library, engine: Engine, path: Path) {
  library.resetCount()
  const start = process.hrtime.bigint()
  const response = await library.apps[engine].request(path)
  const body = (await response.json()) as Body
  const time = Number(process.hrtime.bigint() - start) / 1e6
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
  return { body, time, loans: library.loansRead() }
}

/** What Prisma's nested select with a `take` reads for the same page: the read it replaced. */
async function nestedTake(library: Library): Promise<number> {
  library.resetCount()
  await library.prisma.book.findMany({
    take: BOOKS,
    orderBy: { id: 'asc' },
    select: { id: true, loans: { take: FIRST + 1, orderBy: { id: 'asc' }, select: { id: true } } },
  })
  return library.loansRead()
}

/** The figures of one request on one library: times and loans read over the rounds. */
interface Figures {
  times: number[]
  loans: Set<number>
}

interface Run {
  target: Target
  indexed: boolean
  perBook: number
  engine: Engine
  path: Path
  library: Library
  figures: Figures
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1))
const cell = (times: number[]) =>
  `${ms(median(times))} (${ms(Math.min(...times))}–${ms(Math.max(...times))})`
const count = (value: number) => value.toLocaleString('en')
const loansOf = ({ loans }: Figures) =>
  [...loans]
    .sort((a, b) => a - b)
    .map(count)
    .join('–')

/** The table's rows: one per database, schema, engine and request, a cell per size. */
function tableRows(runs: readonly Run[], used: readonly Target[]): string[] {
  return used.flatMap((target) =>
    SCHEMAS.flatMap((indexed) =>
      ENGINES.flatMap((engine) =>
        REQUESTS.map(([path]) => {
          const figures = SIZES.map((perBook) => {
            const run = runs.find(
              (each) =>
                each.target === target &&
                each.indexed === indexed &&
                each.engine === engine &&
                each.path === path &&
                each.perBook === perBook
            )
            if (!run) throw new Error(`no run of ${target.name} ${path} at ${perBook}`)
            return run.figures
          })
          const medians = figures.map(({ times }) => median(times))
          const ratio = (medians.at(-1) as number) / (medians[0] as number)
          const schema = indexed ? `\`${LOAN_INDEX}\`` : 'as written'
          return `| ${target.name} | ${schema} | ${engine} | \`${path}\` | ${figures.map(loansOf).join(' / ')} | ${figures.map(({ times }) => cell(times)).join(' | ')} | ${ratio.toFixed(2)} |`
        })
      )
    )
  )
}

/** The databases of the run, what each one's nested `take` read, and how the servers were named. */
function notes(used: readonly Target[], nested: ReadonlyMap<Target, number[]>): string {
  const servers = used.filter((target) => target.server)
  const where = used
    .map((target) =>
      target.server
        ? `${target.name} (${target.version}, a database of its own per size and schema on ${target.shown?.replace(/\/[^/]*$/, '')}, named by \`${target.variable}\`)`
        : `${target.name} (a file per size and schema)`
    )
    .join(', ')
  const missing = [
    ['PostgreSQL', 'BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test'],
    ['MariaDB', 'BENCH_MARIADB_URL=mysql://root@127.0.0.1:3306/test'],
  ].filter(([name]) => !servers.some((target) => target.name === name))
  const nestedLines = used.map(
    (target) => `${target.name}: ${(nested.get(target) ?? []).map(count).join(' / ')}`
  )
  return [
    `- ${where}; each holds ${BOOKS} books with ${SIZES.map(count).join(', ')} loans each, book after book (book 1's loans have the first ids, book ${BOOKS}'s the last: book 1's inserted by \`createMany\` in chunks, each other book's copied from them by one \`INSERT … SELECT\`), then the tables analyzed; the embeds fixture (\`example-app/test/fixtures/embeds\`), no access rules, its schema as written (no index on \`Loan.bookId\`: MariaDB makes one for the foreign key, SQLite and PostgreSQL do not) and with \`${LOAN_INDEX}\` added to Loan, a database each`,
    ...(missing.length > 0
      ? [
          `- left out of this run: ${missing.map(([name, set]) => `${name} (\`${set}\` adds it)`).join(', ')}`,
        ]
      : []),
    `- \`/books\`: ${BOOKS} books, each embedding its first ${FIRST} loans (at most ${BOOKS} x ${FIRST + 1} = ${BOOKS * (FIRST + 1)} loans read: one statement a book, \`WHERE bookId = ? ORDER BY id LIMIT ${FIRST + 1}\`); \`/books/${BOOKS}\`: the book whose loans come last (at most ${FIRST + 1}); every answer checked first (the books, their first loans, a view exactly when a book has more)`,
    `- loans read: the rows statements reading the Loan table handed back to the driver adapter (example-app/test/support/row-count.ts) during the request, at ${SIZES.map(count).join(' / ')} loans a book, not the rows the database walked to find them; Prisma's nested select with \`take: ${FIRST + 1}\` on the same ${BOOKS} books (the read the per-member statements replaced; once, untimed, on the schema as written) read ${nestedLines.join('; ')}`,
    `- in-process (\`app.request\`, no network), ${WARMUP} warm-up rounds, then ${ROUNDS} (\`${ROUNDS_VARIABLE}\`) interleaving every request of every database, schema, size and engine, the order reversed every other round; a cell is the median time from the request to its parsed body and the range over the rounds; the last column is the median at ${count(SIZES.at(-1) as number)} loans a book over the median at ${count(SIZES[0] as number)} (\`${SIZES_VARIABLE}\` sets the sizes)`,
  ].join('\n')
}

/** Seeds the databases, runs the rounds and answers the markdown of the table and its method. */
export async function cappedEmbedding(used: readonly Target[]): Promise<string> {
  const libraries: Library[] = []
  const runs: Run[] = []
  const nested = new Map<Target, number[]>()
  try {
    for (const target of used)
      for (const indexed of SCHEMAS)
        for (const perBook of SIZES) {
          const library = await openLibrary(target, perBook, indexed)
          libraries.push(library)
          if (!indexed)
            nested.set(target, [...(nested.get(target) ?? []), await nestedTake(library)])
          for (const engine of ENGINES)
            for (const [path, books] of REQUESTS) {
              check((await read(library, engine, path)).body, path, books, perBook)
              const figures = { times: [], loans: new Set<number>() }
              runs.push({ target, indexed, perBook, engine, path, library, figures })
            }
        }
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (const run of round % 2 === 1 ? [...runs].reverse() : runs) {
        const { time, loans } = await read(run.library, run.engine, run.path)
        run.figures.loans.add(loans)
        if (round >= WARMUP) run.figures.times.push(time)
      }
    }
  } finally {
    for (const library of libraries) await library.close()
  }
  const sizes = SIZES.map((perBook) => `${count(perBook)} a book (ms)`)
  return `### A capped to-many embed as the related rows grow

${notes(used, nested)}

| database | Loan's schema | engine | request | loans read (${SIZES.map(count).join(' / ')} a book) | ${sizes.join(' | ')} | ${count(SIZES.at(-1) as number)} / ${count(SIZES[0] as number)} |
|---|---|---|---|---:|${sizes.map(() => '---:|').join('')}---:|
${tableRows(runs, used).join('\n')}`
}
