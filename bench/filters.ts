/**
 * Filtered pages with and without a supporting index: the samples of bench/schema.prisma (the
 * events' ids and dates) filtered on `kind` (an index `(kind, createdAt, id)` serves the filter
 * and the collection's order) and on `batch` (the same values, no index of its own), each a tenth
 * of the rows, in the three paging modes: page 2 with full paging (page + count of the filtered
 * rows), page 2 with partial paging, and a cursor page 30 % deep into the filtered rows; and a
 * partial page of a value that no row holds (the worst case without an index). At
 * 1,000,000 rows by default, on every database of bench/databases.ts; requests in-process through
 * `app.request`, rounds interleaving every request, medians and their spread over the rounds.
 * Writes its section of bench/RESULTS.md.
 *
 *   npm run bench:filters                                                           # SQLite
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:filters  # and PostgreSQL
 *   BENCH_FILTERS_SIZES=100000 BENCH_FILTERS_ROUNDS=11 npm run bench:filters        # a quick run
 */
import os from 'node:os'
import { selectedDatabases, serverCoverage } from './databases.js'
import { integers, median } from './load.js'
import { machine, writeSection } from './report.js'
import { eventRow, sampleKind } from './setup.js'

const SIZES = integers('BENCH_FILTERS_SIZES', '1000000')
const [ROUNDS = 21] = integers('BENCH_FILTERS_ROUNDS', '21')
const WARMUP = 3
const VALUE = 3
/** A value of neither field. */
const NONE = 10
const DEPTH = 0.3
const PER_PAGE = 30

const FIELDS = [
  { field: 'kind', label: 'with an index (`kind`)' },
  { field: 'batch', label: 'without (`batch`)' },
] as const
type Field = (typeof FIELDS)[number]['field']

/** The id 30 % deep into the filtered rows (newest first): the deepest one at or past it. */
function deepId(rows: number): number {
  let id = rows - Math.round(rows * DEPTH)
  while (sampleKind(id) !== VALUE) id -= 1
  return id
}

const MODES = [
  {
    mode: 'full',
    label: 'full, page 2',
    path: (field: Field) => `/samples?${field}=${VALUE}&page=2`,
  },
  {
    mode: 'partial',
    label: 'partial, page 2',
    path: (field: Field) => `/samples/partial?${field}=${VALUE}&page=2`,
  },
  {
    mode: 'cursor',
    label: `cursor, ${DEPTH * 100} % deep`,
    path: (field: Field, rows: number) => {
      const position = eventRow(deepId(rows))
      return `/samples/feed?createdAt%5Blt%5D=${encodeURIComponent(position.createdAt.toISOString())}&id%5Blt%5D=${position.id}&${field}=${VALUE}`
    },
  },
  {
    // Without its index, a value that no row holds makes even a partial page read every row.
    mode: 'none',
    label: `partial, page 1, a value no row holds (${NONE})`,
    path: (field: Field) => `/samples/partial?${field}=${NONE}`,
  },
] as const
type Mode = (typeof MODES)[number]['mode']

type Body = {
  'hydra:member': { id: number; kind: number; batch: number }[]
  'hydra:totalItems'?: number
}

interface Result {
  database: string
  rows: number
  /** Request times (ms) by mode and field. */
  times: Map<`${Mode} ${Field}`, number[]>
}

const loadBefore = os.loadavg()[0] as number
const databases = selectedDatabases()
const results: Result[] = []
for (const database of databases) {
  for (const rows of SIZES) {
    const app = await database.open(rows)
    console.log(`${database.name}: ${app.built ? 'built' : 'reused'} ${app.location}`)
    try {
      // Sanity, not timings: both fields select the same rows, of the filtered value only.
      for (const { mode, path } of MODES) {
        const [indexed, unindexed] = (await Promise.all(
          FIELDS.map(async ({ field }) => {
            const response = await app.request(path(field, rows))
            if (response.status !== 200) {
              throw new Error(`${path(field, rows)}: ${response.status} ${await response.text()}`)
            }
            return (await response.json()) as Body
          })
        )) as [Body, Body]
        const members = (body: Body) => body['hydra:member'].map((member) => member.id).join(',')
        const wrong = indexed['hydra:member'].filter((member) => member.kind !== VALUE)
        if (
          indexed['hydra:member'].length !== (mode === 'none' ? 0 : PER_PAGE) ||
          wrong.length > 0 ||
          members(indexed) !== members(unindexed) ||
          indexed['hydra:totalItems'] !== unindexed['hydra:totalItems'] ||
          (mode === 'full' && indexed['hydra:totalItems'] !== Math.floor((rows - VALUE) / 10) + 1)
        ) {
          throw new Error(`${mode}: the filtered pages differ or hold other rows`)
        }
      }
      const requests = MODES.flatMap(({ mode, path }) =>
        FIELDS.map(({ field }) => ({ key: `${mode} ${field}` as const, path: path(field, rows) }))
      )
      const request = async (path: string) => (await app.request(path)).text()
      for (let round = 0; round < WARMUP; round++) {
        for (const { path } of requests) await request(path)
      }
      const times = new Map(requests.map(({ key }) => [key, [] as number[]]))
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate the order, so that no request always follows the same one.
        for (const { key, path } of round % 2 ? [...requests].reverse() : requests) {
          const start = performance.now()
          await request(path)
          times.get(key)?.push(performance.now() - start)
        }
      }
      results.push({ database: database.name, rows, times })
      for (const [key, list] of times) console.log(`  ${key}: ${median(list).toFixed(2)} ms`)
    } finally {
      await app.close()
    }
  }
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1))
const cell = (list: readonly number[]) =>
  `${ms(median(list))} (${ms(Math.min(...list))}–${ms(Math.max(...list))})`
const table = [
  `| database | rows | request | ${FIELDS.map(({ label }) => `${label} (ms)`).join(' | ')} | without / with |`,
  '|---|---:|---|---:|---:|---:|',
  ...results.flatMap((result) =>
    MODES.map(({ mode, label }) => {
      const of = (field: Field) => result.times.get(`${mode} ${field}`) ?? []
      const ratio = median(of('batch')) / median(of('kind'))
      return `| ${result.database} | ${result.rows.toLocaleString('en')} | ${label} | ${FIELDS.map(({ field }) => cell(of(field))).join(' | ')} | ${ratio.toFixed(1)} |`
    })
  ),
].join('\n')

const settings = ['BENCH_FILTERS_SIZES', 'BENCH_FILTERS_ROUNDS', 'BENCH_DATABASES']
  .map((name) => (process.env[name] ? `${name}=${process.env[name]} ` : ''))
  .join('')
const { BENCH_POSTGRES_URL, BENCH_MARIADB_URL } = process.env
const servers = [
  BENCH_POSTGRES_URL ? 'BENCH_POSTGRES_URL=… ' : '',
  BENCH_MARIADB_URL ? 'BENCH_MARIADB_URL=… ' : '',
].join('')
await writeSection(
  'filters',
  `## Filtered pages with and without a supporting index

Generated by \`${servers}${settings}npm run bench:filters\` at the repository root (bench/filters.ts).

- ${machine()}; load average (1 min) ${loadBefore.toFixed(2)} before the run, ${(os.loadavg()[0] as number).toFixed(2)} at its end; the machine is shared with other work
- \`Sample\` rows (bench/schema.prisma, copied from the events by bench/setup.ts and bench/setup-servers.ts): \`kind\` and \`batch\` both the id modulo 10; \`@@index([kind, createdAt, id])\` serves a filter on \`kind\` in the collection's order (\`createdAt desc, id desc\`), \`batch\` has no index (only \`@@index([createdAt, id])\`, the order's); \`@filter(numeric: [kind, batch])\`; each request but the last selects the rows whose value is ${VALUE}, a tenth of the table; the last one a value no row holds
- requests: ${MODES.map(({ label, path }) => `${label} \`${path('kind', Math.max(...SIZES))}\``).join('; ')} (and the same with \`batch\`); both fields answer with the same members and count (checked first)
- in-process (\`app.request\`, no network), ${WARMUP} warm-up rounds, then ${ROUNDS} rounds interleaving all eight requests (the order reversed every other round); a cell is the median time and the range over the rounds

${table}

${serverCoverage('bench:filters', databases)}
`
)
console.log(`\n${table}`)
