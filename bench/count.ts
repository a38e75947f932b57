/**
 * What the count of full paging costs: page 2 of the same collection with full paging
 * (`/events?page=2`: the page and a count of every row, in one transaction) and with partial
 * paging (`/events/partial?page=2`: the page and one extra row, no count), at 10,000, 100,000 and
 * 1,000,000 rows, on every database of bench/databases.ts. Requests in-process through
 * `app.request`; rounds alternate the two modes. Writes its section of bench/RESULTS.md and
 * bench/count.svg.
 *
 *   npm run bench:count                                                         # SQLite
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:count  # and PostgreSQL
 *   BENCH_MARIADB_URL=mysql://root@127.0.0.1:3306/test npm run bench:count          # and MariaDB
 *   BENCH_COUNT_SIZES=10000,100000 BENCH_COUNT_ROUNDS=21 npm run bench:count   # a quick run
 */
import { writeFile } from 'node:fs/promises'
import os from 'node:os'
import { barCharts } from './chart.js'
import { selectedDatabases, serverCoverage, shown } from './databases.js'
import { machine, writeSection } from './report.js'

const {
  BENCH_COUNT_SIZES,
  BENCH_COUNT_ROUNDS,
  BENCH_DATABASES,
  BENCH_POSTGRES_URL,
  BENCH_MARIADB_URL,
} = process.env
const SIZES = (BENCH_COUNT_SIZES ?? '10000,100000,1000000').split(',').map(Number)
const ROUNDS = Number(BENCH_COUNT_ROUNDS ?? 101)
const WARMUP = 10
const PER_PAGE = 30
const MODES = [
  { mode: 'full', label: 'full (page + count)', path: '/events?page=2' },
  { mode: 'partial', label: 'partial (page + 1 row)', path: '/events/partial?page=2' },
] as const
type Mode = (typeof MODES)[number]['mode']

if (SIZES.some((rows) => !Number.isSafeInteger(rows) || rows < 2 * PER_PAGE + 1)) {
  throw new Error(
    `BENCH_COUNT_SIZES must list integers above ${2 * PER_PAGE}: "${BENCH_COUNT_SIZES}"`
  )
}
if (!Number.isSafeInteger(ROUNDS) || ROUNDS < 1) {
  throw new Error(`BENCH_COUNT_ROUNDS must be a positive integer, "${BENCH_COUNT_ROUNDS}" given`)
}

type Body = { 'hydra:member': { id: number }[]; 'hydra:totalItems'?: number }

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.round(q * (sorted.length - 1))] as number

interface Result {
  database: string
  rows: number
  /** Sorted request times (ms) by mode. */
  times: Record<Mode, number[]>
}

/** The machine's load before the benchmark adds its own: other work skews the figures. */
const loadBefore = os.loadavg()[0] as number
const databases = selectedDatabases()
const results: Result[] = []
for (const database of databases) {
  for (const rows of SIZES) {
    const started = performance.now()
    const app = await database.open(rows)
    console.log(
      `${database.name}: ${app.built ? 'built' : 'reused'} ${app.location} (${rows.toLocaleString('en')} rows, ${((performance.now() - started) / 1000).toFixed(1)} s)`
    )
    try {
      // Sanity, not timings: both modes serve the same rows; only the full one counts them.
      const [full, partial] = (await Promise.all(
        MODES.map(async ({ path }) => {
          const response = await app.request(path)
          if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
          return (await response.json()) as Body
        })
      )) as [Body, Body]
      const ids = (body: Body) => body['hydra:member'].map((member) => member.id).join(',')
      if (full['hydra:totalItems'] !== rows || 'hydra:totalItems' in partial) {
        throw new Error(
          `totalItems: ${full['hydra:totalItems']} with full paging (expected ${rows}), ${partial['hydra:totalItems']} with partial paging (expected none)`
        )
      }
      if (full['hydra:member'].length !== PER_PAGE || ids(full) !== ids(partial)) {
        throw new Error('the full and the partial page 2 hold different members')
      }

      const request = async (path: string) => (await app.request(path)).text()
      for (let round = 0; round < WARMUP; round++) {
        for (const { path } of MODES) await request(path)
      }
      const times: Record<Mode, number[]> = { full: [], partial: [] }
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate which mode goes first, so neither always follows the other.
        const order = round % 2 ? [...MODES].reverse() : MODES
        for (const { mode, path } of order) {
          const start = performance.now()
          await request(path)
          times[mode].push(performance.now() - start)
        }
      }
      for (const list of Object.values(times)) list.sort((a, b) => a - b)
      results.push({ database: database.name, rows, times })
      const median = (mode: Mode) => quantile(times[mode], 0.5).toFixed(2)
      console.log(`  full ${median('full')} ms, partial ${median('partial')} ms`)
    } finally {
      await app.close()
    }
  }
}

const ms = (value: number) => value.toFixed(2)
const n = (value: number) => value.toLocaleString('en')
const medianOf = (result: Result, mode: Mode) => quantile(result.times[mode], 0.5)
const table = [
  '| database | rows | full (ms) | partial (ms) | full − partial: the count (ms) | full / partial |',
  '|---|---:|---:|---:|---:|---:|',
  ...results.map((result) => {
    const full = medianOf(result, 'full')
    const partial = medianOf(result, 'partial')
    return `| ${result.database} | ${n(result.rows)} | ${ms(full)} | ${ms(partial)} | ${ms(full - partial)} | ${(full / partial).toFixed(1)} |`
  }),
].join('\n')
const spread = [
  '| database | rows | full: p25 – p75 (ms) | partial: p25 – p75 (ms) |',
  '|---|---:|---:|---:|',
  ...results.map(
    (result) =>
      `| ${result.database} | ${n(result.rows)} | ${MODES.map(({ mode }) => `${ms(quantile(result.times[mode], 0.25))} – ${ms(quantile(result.times[mode], 0.75))}`).join(' | ')} |`
  ),
].join('\n')

await writeFile(
  new URL('./count.svg', import.meta.url),
  barCharts([
    {
      title: 'Page 2 with full paging (a count) vs partial paging (none)',
      subtitle: `milliseconds per request, lower is better (median of ${ROUNDS} in-process requests)`,
      series: MODES.map(({ label }) => label),
      groups: results.map((result) => ({
        label: `${result.database}, ${n(result.rows)} rows`,
        values: MODES.map(({ mode }) => medianOf(result, mode)),
      })),
      format: (value) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`,
      tickFormat: (value) => `${value} ms`,
    },
  ])
)

const settings = [
  BENCH_POSTGRES_URL ? `BENCH_POSTGRES_URL=${shown(BENCH_POSTGRES_URL)} ` : '',
  BENCH_MARIADB_URL ? `BENCH_MARIADB_URL=${shown(BENCH_MARIADB_URL)} ` : '',
  BENCH_DATABASES ? `BENCH_DATABASES=${BENCH_DATABASES} ` : '',
  BENCH_COUNT_SIZES ? `BENCH_COUNT_SIZES=${BENCH_COUNT_SIZES} ` : '',
  BENCH_COUNT_ROUNDS ? `BENCH_COUNT_ROUNDS=${BENCH_COUNT_ROUNDS} ` : '',
].join('')
// What the count costs a row, on the largest table of each database.
const perRow = databases
  .map((database) => {
    const largest = results.filter((result) => result.database === database.name).at(-1)
    if (!largest) return undefined
    const nsPerRow =
      ((medianOf(largest, 'full') - medianOf(largest, 'partial')) * 1e6) / largest.rows
    return `- ${database.name}: ${database.counting}; ${nsPerRow.toFixed(0)} ns a row at ${n(largest.rows)} rows`
  })
  .filter((line) => line !== undefined)
  .join('\n')
const coverage = serverCoverage('bench:count', databases)
const report = `## The cost of the count: full vs partial paging

Generated by \`${settings}npm run bench:count\` at the repository root (bench/count.ts, databases in bench/databases.ts).

- ${machine()}; load average (1 min) ${loadBefore.toFixed(2)} before the run, ${(os.loadavg()[0] as number).toFixed(2)} at its end (its own load included)
${databases.map((database) => `- ${database.name}: ${database.description}`).join('\n')}
- page 2 of the same collection, ${PER_PAGE} a page, newest first: ${MODES.map(({ label, path }) => `${label} \`${path}\``).join(', ')}; both give the same members, only the full one \`hydra:totalItems\` (checked)
- requests in-process through \`app.request\` on \`createHydraApp({ prisma })\` (no network): ${WARMUP} warm-up rounds, then the median of ${ROUNDS} rounds, each requesting both pages, the one first in a round alternating

${table}

![Page 2 with full and with partial paging, by table size](count.svg)

Full paging reads the page and counts the whole table in one transaction; partial paging reads the page and one more row (to know whether a next page exists). "full − partial" is what the count costs a request, and it grows with the table while the partial page does not:

${perRow}

The spread of the timed requests:

${spread}

${coverage}
`
await writeSection('count', report)
console.log(`\n${table}\n`)
console.log('Written to bench/RESULTS.md and bench/count.svg')
