/**
 * How the cost of a page grows with depth, for the three paging modes of one generated app:
 * full offset paging (`/events`, a count per page), partial offset paging (`/events/partial`)
 * and cursor paging (`/events/feed`), all newest first, 30 a page. Each mode serves page 1,
 * page 2, page 100 and the page after 30% of the rows (page 10,000 at 1,000,000 rows),
 * in-process through `app.request`, on every database of bench/databases.ts. Writes its section
 * of bench/RESULTS.md and prints the tables.
 *
 *   npm run bench:depth                                                              # SQLite
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:depth   # and PostgreSQL
 *   BENCH_MARIADB_URL=mysql://root@127.0.0.1:3306/test npm run bench:depth           # and MariaDB
 *   BENCH_ROWS=100000 npm run bench:depth                                            # a quick run
 */
import os from 'node:os'
import { selectedDatabases, serverCoverage, shown } from './databases.js'
import { machine, writeSection } from './report.js'
import { EVENTS_PER_SECOND } from './setup.js'

const { BENCH_ROWS, BENCH_DATABASES, BENCH_POSTGRES_URL, BENCH_MARIADB_URL } = process.env
const ROWS = Number(BENCH_ROWS ?? 1_000_000)
const PER_PAGE = 30
/** The deepest page timed: the one ending after 30% of the rows (10,000 at 1,000,000 rows). */
const DEEP = Math.floor((ROWS * 0.3) / PER_PAGE)
/** The pages timed in every mode; the first is page 1, the last the deep one. */
const PAGES = [1, 2, 100, DEEP] as const
const WARMUP = 10
const ROUNDS = 101
const CURSOR_TARGET = 1.5

if (!Number.isSafeInteger(ROWS) || DEEP <= 100) {
  throw new Error(`BENCH_ROWS must be an integer of at least 34,000, "${BENCH_ROWS}" given`)
}

type Member = { id: number; createdAt: string }
type Body = { 'hydra:member': Member[]; 'hydra:view'?: Record<string, string> }

/** The `next` link the app emits on the cursor page that ends with `row`. */
const feedAfter = (row: Member) =>
  `/events/feed?createdAt%5Blt%5D=${encodeURIComponent(new Date(row.createdAt).toISOString())}&id%5Blt%5D=${row.id}`

interface Mode {
  mode: string
  /** One request per page of PAGES. */
  paths: string[]
}

interface Result {
  database: string
  modes: Mode[]
  /** Sorted request times (ms) by path. */
  samples: Map<string, number[]>
  warnings: string[]
}

/** The q-quantile (0.5: the median) of a request's timed runs, in ms. */
const quantile = (result: Result, path: string, q: number) => {
  const times = result.samples.get(path) ?? []
  return times[Math.round(q * (times.length - 1))] as number
}

const loadBefore = os.loadavg()[0] as number
const databases = selectedDatabases()
const results: Result[] = []
for (const database of databases) {
  const started = performance.now()
  const app = await database.open(ROWS)
  console.log(
    `${database.name}: ${app.built ? 'built' : 'reused'} ${app.location} (${ROWS.toLocaleString('en')} rows, ${((performance.now() - started) / 1000).toFixed(1)} s)`
  )
  try {
    const get = async (path: string): Promise<Body> => {
      const response = await app.request(path)
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
      return (await response.json()) as Body
    }
    // Cursor pages have no numbers: page k is the `next` link a client holds after following
    // `next` k - 1 times, the link after the last row of page k - 1, which the offset page k - 1
    // serves.
    const cursorPaths = await Promise.all(
      PAGES.map(async (page) => {
        if (page === 1) return '/events/feed'
        const last = (await get(`/events/partial?page=${page - 1}`))['hydra:member'].at(-1)
        if (!last) throw new Error(`/events/partial?page=${page - 1} is empty`)
        return feedAfter(last)
      })
    )
    const modes: Mode[] = [
      { mode: 'full (offset + count)', paths: PAGES.map((page) => `/events?page=${page}`) },
      {
        mode: 'partial (offset)',
        paths: PAGES.map((page) => `/events/partial?page=${page}`),
      },
      { mode: 'cursor (keyset)', paths: cursorPaths },
    ]

    // Sanity, not timings: the link builder agrees with the app, and every mode serves the same
    // PER_PAGE rows on each page: newest first, page k starts with id ROWS - (k - 1) × PER_PAGE.
    const warnings: string[] = []
    const emitted = (await get('/events/feed'))['hydra:view']?.['hydra:next']
    if (emitted !== cursorPaths[1]) {
      warnings.push(`page 1 of the feed links to ${emitted}, not to ${cursorPaths[1]}`)
    }
    for (const [index, page] of PAGES.entries()) {
      const first = ROWS - (page - 1) * PER_PAGE
      const expected = Array.from({ length: PER_PAGE }, (_, offset) => first - offset).join(',')
      for (const { paths } of modes) {
        const path = paths[index] as string
        const ids = (await get(path))['hydra:member'].map((member) => member.id).join(',')
        if (ids !== expected) {
          warnings.push(`${path}: ids ${ids}; expected ${first} down to ${first - PER_PAGE + 1}`)
        }
      }
    }

    // WARMUP rounds over every request (its code paths get compiled, its rows cached), then
    // ROUNDS timed rounds, each requesting every path once: interleaving spreads the machine's
    // drift and the garbage collector's pauses evenly over all requests, so ratios within a
    // round hold.
    const paths = modes.flatMap((mode) => mode.paths)
    const request = async (path: string) => (await app.request(path)).text()
    for (let round = 0; round < WARMUP; round++) for (const path of paths) await request(path)
    const samples = new Map<string, number[]>(paths.map((path) => [path, []]))
    for (let round = 0; round < ROUNDS; round++) {
      for (const path of paths) {
        const start = performance.now()
        await request(path)
        samples.get(path)?.push(performance.now() - start)
      }
    }
    for (const times of samples.values()) times.sort((a, b) => a - b)
    results.push({ database: database.name, modes, samples, warnings })
  } finally {
    await app.close()
  }
}

const ms = (value: number) => value.toFixed(2)
const n = (value: number) => value.toLocaleString('en')
const table = [
  `| database | mode | ${PAGES.map((page) => `page ${n(page)} (ms)`).join(' | ')} | deep − page 1 (ms) | deep / page 1 | deep / page 2 | target |`,
  `|---|---|${PAGES.map(() => '---:|').join('')}---:|---:|---:|---|`,
  ...results.flatMap((result) =>
    result.modes.map(({ mode, paths }, index) => {
      const medians = paths.map((path) => quantile(result, path, 0.5))
      const [m1, m2] = medians as [number, number]
      const mDeep = medians.at(-1) as number
      const ratio = mDeep / m1
      // An offset mode grows with depth when even the deep page's faster runs are slower than
      // the first page's slower ones (its lower quartile above their upper quartile).
      const grows =
        quantile(result, paths.at(-1) as string, 0.25) > quantile(result, paths[0] as string, 0.75)
      const target =
        index === 2
          ? `deep / page 1 ≤ ${CURSOR_TARGET}: ${ratio <= CURSOR_TARGET ? 'met' : 'NOT met'}`
          : `grows with depth: ${grows ? 'yes' : 'NO'}`
      return `| ${result.database} | ${mode} | ${medians.map(ms).join(' | ')} | ${ms(mDeep - m1)} | ${ms(ratio)} | ${ms(mDeep / m2)} | ${target} |`
    })
  ),
].join('\n')

const settings = [
  BENCH_POSTGRES_URL ? `BENCH_POSTGRES_URL=${shown(BENCH_POSTGRES_URL)} ` : '',
  BENCH_MARIADB_URL ? `BENCH_MARIADB_URL=${shown(BENCH_MARIADB_URL)} ` : '',
  BENCH_DATABASES ? `BENCH_DATABASES=${BENCH_DATABASES} ` : '',
  BENCH_ROWS ? `BENCH_ROWS=${BENCH_ROWS} ` : '',
].join('')
const [example] = results
const deepRows = (DEEP - 1) * PER_PAGE
for (const result of results.slice(1)) {
  const differ = result.modes.flatMap(({ paths }) => paths).join(' ')
  if (example && differ !== example.modes.flatMap(({ paths }) => paths).join(' ')) {
    result.warnings.push(`requests other than those on ${example.database}`)
  }
}
const warnings = results.flatMap((result) =>
  result.warnings.map((warning) => `${result.database}: ${warning}`)
)
const report = `## Page cost by depth

Generated by \`${settings}npm run bench:depth\` at the repository root (bench/depth.ts, databases in bench/databases.ts).

- ${machine()}; load average (1 min) ${loadBefore.toFixed(2)} before the run, ${(os.loadavg()[0] as number).toFixed(2)} at its end (its own load included)
- ${n(ROWS)} rows of \`Event\`, ${EVENTS_PER_SECOND} rows per second of \`createdAt\`, \`@@index([createdAt, id])\`; ${PER_PAGE} a page, newest first (\`createdAt desc, id desc\`) in every mode
${databases.map((database) => `- ${database.name}: ${database.description}`).join('\n')}
- requests in-process through \`app.request\` on \`createHydraApp({ prisma })\` (no network): ${WARMUP} warm-up rounds over every request, then the median of ${ROUNDS} timed rounds, each of which requests every path once

${table}

The requests, pages ${PAGES.map(n).join(', ')}${
  example
    ? ` (on ${example.database}; the same on every database, checked):

${example.modes.map(({ mode, paths }) => `- ${mode}: ${paths.map((path) => `\`${path}\``).join(', ')}`).join('\n')}`
    : ':'
}

The deep page is page ${n(DEEP)}, after ${n(deepRows)} rows. Cursor paging has no page numbers: its page k is the \`hydra:next\` link the app emits on the page before it, built from the \`createdAt\` and \`id\` of that page's last row (as the offset page k − 1 serves it), so it is exactly the request a client makes after following \`next\` k − 1 times (the builder's page 2 is checked against the app's own \`next\` link on page 1). On each page, the three modes serve the same ${PER_PAGE} rows (checked below).

Targets: the cursor's deep / page 1 ≤ ${CURSOR_TARGET}; the offset modes grow with depth (the deep page's lower quartile above page 1's upper quartile): the database steps over every skipped row. Full paging also counts every row on every request, a cost that does not depend on depth, so its ratio stays small while its growth in ms matches the partial mode's.

Page 2 separates the cost of depth from the cost of a position. Every cursor page is one query: page 1 reads the first rows; a later page (page 2 as much as the deep one) reads from its position inclusively, and the row at the position, found again, proves that a \`previous\` link is honest (only when that row is gone is one row on the other side looked up). Deep / page 2 shows the growth with depth alone; deep / page 1 adds the cost of a \`where\` on the position.

Sanity (not timings): ${
  warnings.length === 0
    ? `on every database, every page of every mode has the ${PER_PAGE} members expected (page k starts with id ${n(ROWS)} − (k − 1) × ${PER_PAGE}: newest first); page 1 of the feed links to page 2 exactly as built here.`
    : `\n\n${warnings.map((warning) => `- WARNING: ${warning}`).join('\n')}`
}

${serverCoverage('bench:depth', databases)}
`
await writeSection('depth', report)
console.log(`\n${table}\n`)
for (const warning of warnings) console.warn(`WARNING: ${warning}`)
console.log('Written to bench/RESULTS.md')
