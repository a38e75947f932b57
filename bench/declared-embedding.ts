/**
 * Relations embedded by declaration (docs/member-shape.md, "Declared embeds"), measured on the
 * embeds fixture (example-app/test/fixtures/embeds) over a fresh SQLite file: loans that embed
 * their book (to-one, `@property(embed: [title, isbn])`) and books that embed their first three
 * loans (to-many, `first: 3`). Each page is read three ways: as declared (one request); with
 * `properties[]` naming every other property, leaving the relation out (the same page without
 * it); and that page followed by one request per related item it would embed (what a client
 * pays to show the same items without the declaration: each distinct book's item, or each of
 * the first three loans' items of every book), their IRIs taken from the declared page before
 * anything is timed. Both engines; the rounds interleave every read. bench/embedding.ts runs it
 * and writes its table into its own section of bench/RESULTS.md.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import { createAdapter } from '../example-app/src/adapter.js'
import { createHydraApp } from '../example-app/test/.generated/embeds/hydra/index.js'
import { PrismaClient } from '../example-app/test/.generated/embeds/prisma/client.js'
import { median } from './load.js'

const SCHEMA = new URL('../example-app/test/fixtures/embeds/schema.prisma', import.meta.url)
  .pathname
const BOOKS = 300
const LOANS = 3000

const LOAN_PAGE = '/loans?itemsPerPage=30&page=2'
const LOANS_WITHOUT = `${LOAN_PAGE}&properties[]=borrower&properties[]=loanedAt&properties[]=returnedAt`
const BOOK_PAGE = '/books?page=2'
const BOOKS_WITHOUT = `${BOOK_PAGE}&properties[]=id&properties[]=title&properties[]=isbn`

type App = ReturnType<typeof createHydraApp>
type Member = Record<string, unknown>

async function members(app: App, url: string): Promise<Member[]> {
  const response = await app.request(url)
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`)
  return ((await response.json()) as { 'hydra:member': Member[] })['hydra:member']
}

async function item(app: App, iri: string): Promise<void> {
  const response = await app.request(iri)
  if (response.status !== 200) throw new Error(`${iri}: ${response.status}`)
  await response.arrayBuffer()
}

/** The IRIs of the items each declared page embeds, read once before the rounds. */
interface Embedded {
  books: string[]
  loans: string[]
}

/** The reads of one relation: as declared, without it, and without it then item by item. */
function readsOf(page: string, without: string, related: (embedded: Embedded) => string[]) {
  return {
    declared: (app: App, _: Embedded) => members(app, page),
    without: (app: App, _: Embedded) => members(app, without),
    'without, then one request per item': async (app: App, embedded: Embedded) => {
      await members(app, without)
      await Promise.all(related(embedded).map((iri) => item(app, iri)))
    },
  }
}

const RELATIONS = {
  'loans with their book (to-one)': readsOf(LOAN_PAGE, LOANS_WITHOUT, (e) => e.books),
  'books with their first 3 loans (to-many)': readsOf(BOOK_PAGE, BOOKS_WITHOUT, (e) => e.loans),
}
type Relation = keyof typeof RELATIONS
type Way = keyof ReturnType<typeof readsOf>
const WAYS: Way[] = ['declared', 'without', 'without, then one request per item']

async function timeOf(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint()
  await run()
  return Number(process.hrtime.bigint() - start) / 1e6
}

async function seed(prisma: PrismaClient): Promise<void> {
  await prisma.book.createMany({
    data: Array.from({ length: BOOKS }, (_, index) => ({
      id: index + 1,
      title: `Book ${index + 1}`,
      isbn: `978-1-${String(100000 + index)}-0`,
    })),
  })
  await prisma.loan.createMany({
    data: Array.from({ length: LOANS }, (_, index) => ({
      id: index + 1,
      borrower: `Reader ${1 + (index % 17)}`,
      loanedAt: new Date(Date.UTC(2025, 0, 1, 0, index)),
      returnedAt: index % 3 === 0 ? null : new Date(Date.UTC(2025, 1, 1, 0, index)),
      bookId: 1 + ((index * 7) % BOOKS),
    })),
  })
}

/** What the pages embed: the distinct books of the loans' page, the loans of the books' page. */
async function embeddedOf(app: App): Promise<Embedded> {
  const loans = await members(app, LOAN_PAGE)
  const books = await members(app, BOOK_PAGE)
  const iri = (value: unknown) => (value as { '@id': string })['@id']
  return {
    books: [...new Set(loans.map((loan) => iri(loan.book)))],
    loans: books.flatMap((book) =>
      ((book.loans as { 'hydra:member': Member[] })['hydra:member'] ?? []).map(iri)
    ),
  }
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1))
const cell = (times: number[]) =>
  `${ms(median(times))} (${ms(Math.min(...times))}–${ms(Math.max(...times))})`

/** Runs the rounds and answers the markdown of the table and what it measured. */
export async function declaredEmbedding(rounds: number, warmup: number): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'prisma-hydra-declared-'))
  const url = `file:${path.join(folder, 'embeds.db')}`
  await pushSchema({ schemaPath: SCHEMA, url })
  const prisma = new PrismaClient({ adapter: createAdapter(url) })
  try {
    await seed(prisma)
    const apps = {
      prisma: createHydraApp({ prisma }),
      compiled: createHydraApp({ prisma, engine: 'compiled' }),
    }
    const embedded = await embeddedOf(apps.prisma)
    if (JSON.stringify(await embeddedOf(apps.compiled)) !== JSON.stringify(embedded))
      throw new Error('the engines embed different items')
    const times = new Map<string, number[]>()
    const runs = Object.entries(apps).flatMap(([engine, app]) =>
      Object.entries(RELATIONS).flatMap(([relation, reads]) =>
        WAYS.map((way) => {
          const key = `${engine}|${relation}|${way}`
          times.set(key, [])
          return { key, run: () => reads[way](app, embedded) }
        })
      )
    )
    for (let round = 0; round < warmup + rounds; round++) {
      const order = round % 2 === 1 ? [...runs].reverse() : runs
      for (const { key, run } of order) {
        const time = await timeOf(run)
        if (round >= warmup) times.get(key)?.push(time)
      }
    }
    const rows = Object.keys(apps).flatMap((engine) =>
      (Object.keys(RELATIONS) as Relation[]).map((relation) => {
        const of = (way: Way) => times.get(`${engine}|${relation}|${way}`) as number[]
        const [declared, without, perItem] = WAYS.map((way) => median(of(way)))
        return `| ${engine} | ${relation} | ${WAYS.map((way) => cell(of(way))).join(' | ')} | ${((declared ?? 0) / (without ?? 1)).toFixed(2)} | ${((perItem ?? 0) / (declared ?? 1)).toFixed(1)} |`
      })
    )
    return `### Relations embedded by declaration

- the embeds fixture (\`example-app/test/fixtures/embeds\`) over a fresh SQLite file holding ${BOOKS} books and ${LOANS} loans, no access rules
- loans with their book: \`${LOAN_PAGE}\` (each loan embeds its book, title and ISBN: ${embedded.books.length} distinct books); without it: \`${LOANS_WITHOUT}\`; then one request per distinct book (\`/books/{id}\`, which embeds its first 3 loans as declared)
- books with their first 3 loans: \`${BOOK_PAGE}\` (10 books, each embedding its first 3 loans: ${embedded.loans.length} loans); without them: \`${BOOKS_WITHOUT}\`; then one request per embedded loan (\`/loans/{id}\`, which embeds its own book as declared)
- the related items' IRIs are read from the declared pages before the rounds, on both engines alike; the requests per item go all at once (\`Promise.all\`)
- rounds of their own, after the table above's, as many and alike (${warmup} warm-up, then ${rounds}, interleaving every read of both engines, the order reversed every other round); a cell is the median time and the range over the rounds; the ratios are of medians within these rounds

| engine | page | declared (ms) | without the relation (ms) | without, then one request per item (ms) | declared / without | per item / declared |
|---|---|---:|---:|---:|---:|---:|
${rows.join('\n')}`
  } finally {
    await prisma.$disconnect()
    await rm(folder, { recursive: true, force: true })
  }
}
