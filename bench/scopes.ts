/**
 * Scoped pages against unscoped pages of the same rows (docs/security.md): the samples of
 * bench/schema.prisma seen by a caller whose row scope is `kind = 3` (the access rule reads the
 * tenant from a request header), against the same rows selected by the filter `?kind=3` in a
 * request the rule leaves unscoped; `kind` is indexed with the collection's order
 * (`@@index([kind, createdAt, id])`). Full paging (page and count), partial paging and a cursor page 30 % deep. At 10,000 rows by
 * default, on every database of bench/databases.ts; requests in-process through `app.request`,
 * rounds interleaving every request, medians and their spread over the rounds. Writes its section
 * of bench/RESULTS.md.
 *
 *   npm run bench:scopes                                                            # SQLite
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:scopes  # and PostgreSQL
 *   BENCH_SCOPES_SIZES=10000,1000000 npm run bench:scopes                           # more sizes
 */
import os from 'node:os'
import { selectedDatabases, serverCoverage } from './databases.js'
import { integers, median } from './load.js'
import { machine, writeSection } from './report.js'
import { eventRow, sampleKind } from './setup.js'

const SIZES = integers('BENCH_SCOPES_SIZES', '10000')
const [ROUNDS = 201] = integers('BENCH_SCOPES_ROUNDS', '201')
const WARMUP = 3
const TENANT = 3
const DEPTH = 0.3
const PER_PAGE = 30
/** The target: a scoped page costs at most this many times an unscoped one. */
const TARGET = 1.1

/** The id 30 % deep into the tenant's rows (newest first): the deepest one at or past it. */
function deepId(rows: number): number {
  let id = rows - Math.round(rows * DEPTH)
  while (sampleKind(id) !== TENANT) id -= 1
  return id
}

const MODES = [
  { mode: 'full', label: 'full, page 2', path: () => '/samples?page=2' },
  { mode: 'partial', label: 'partial, page 2', path: () => '/samples/partial?page=2' },
  {
    mode: 'cursor',
    label: `cursor, ${DEPTH * 100} % deep`,
    path: (rows: number) => {
      const position = eventRow(deepId(rows))
      return `/samples/feed?createdAt%5Blt%5D=${encodeURIComponent(position.createdAt.toISOString())}&id%5Blt%5D=${position.id}`
    },
  },
] as const
type Mode = (typeof MODES)[number]['mode']

/** The same rows: the tenant's by its scope, or anyone's by the filter. */
const WAYS = {
  scoped: (path: string) => ({ path, init: { headers: { 'x-tenant': String(TENANT) } } }),
  unscoped: (path: string) => ({
    path: `${path}${path.includes('?') ? '&' : '?'}kind=${TENANT}`,
    init: {},
  }),
}
type Way = keyof typeof WAYS

type Body = { 'hydra:member': { id: number; kind: number }[]; 'hydra:totalItems'?: number }

interface Result {
  database: string
  rows: number
  times: Map<`${Mode} ${Way}`, number[]>
}

const loadBefore = os.loadavg()[0] as number
const databases = selectedDatabases()
const results: Result[] = []
for (const database of databases) {
  for (const rows of SIZES) {
    // The tenant comes from a header here (an app reads it from its verified token); a request
    // without one is read unscoped. One app and one client for both ways: two clients over the
    // same rows differed by more than the scope does (a probe on the loaded machine).
    const app = await database.open(rows, {
      Sample: {
        scope: (c) => {
          const tenant = c.req.header('x-tenant')
          return tenant === undefined ? undefined : { kind: Number(tenant) }
        },
      },
    })
    console.log(`${database.name}: ${app.built ? 'built' : 'reused'} ${app.location}`)
    try {
      const requests = MODES.flatMap(({ mode, path }) =>
        (Object.keys(WAYS) as Way[]).map((way) => ({
          key: `${mode} ${way}` as const,
          ...WAYS[way](path(rows)),
        }))
      )
      // Sanity, not timings: both ways answer the same members and count, of the tenant only.
      for (const { mode, path } of MODES) {
        const [scoped, unscoped] = (await Promise.all(
          (['scoped', 'unscoped'] as const).map(async (way) => {
            const request = WAYS[way](path(rows))
            const response = await app.request(request.path, request.init)
            if (response.status !== 200)
              throw new Error(`${request.path}: ${response.status} ${await response.text()}`)
            return (await response.json()) as Body
          })
        )) as [Body, Body]
        const ids = (body: Body) => body['hydra:member'].map((member) => member.id).join(',')
        if (
          scoped['hydra:member'].length !== PER_PAGE ||
          scoped['hydra:member'].some((member) => member.kind !== TENANT) ||
          ids(scoped) !== ids(unscoped) ||
          scoped['hydra:totalItems'] !== unscoped['hydra:totalItems']
        )
          throw new Error(
            `${mode}: the scoped and filtered pages differ: ${JSON.stringify(scoped).slice(0, 300)} ${JSON.stringify(unscoped).slice(0, 300)}`
          )
      }
      const send = async (request: (typeof requests)[number]) =>
        (await app.request(request.path, request.init)).text()
      for (let round = 0; round < WARMUP; round++)
        for (const request of requests) await send(request)
      const times = new Map(requests.map(({ key }) => [key, [] as number[]]))
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate the order, so that no request always follows the same one.
        for (const request of round % 2 ? [...requests].reverse() : requests) {
          const start = performance.now()
          await send(request)
          times.get(request.key)?.push(performance.now() - start)
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
const rowsOf = results.flatMap((result) =>
  MODES.map(({ mode, label }) => {
    const of = (way: Way) => result.times.get(`${mode} ${way}`) ?? []
    const ratio = median(of('scoped')) / median(of('unscoped'))
    return { result, label, of, ratio }
  })
)
const table = [
  '| database | rows | request | scoped (ms) | unscoped, filtered (ms) | scoped / unscoped |',
  '|---|---:|---|---:|---:|---:|',
  ...rowsOf.map(
    ({ result, label, of, ratio }) =>
      `| ${result.database} | ${result.rows.toLocaleString('en')} | ${label} | ${cell(of('scoped'))} | ${cell(of('unscoped'))} | ${ratio.toFixed(2)} |`
  ),
].join('\n')
const targets = rowsOf
  .map(
    ({ result, label, ratio }) =>
      `- ${result.database}, ${label} at ${result.rows.toLocaleString('en')} rows: scoped / unscoped ${ratio.toFixed(2)} ≤ ${TARGET}: ${ratio <= TARGET ? 'met' : 'not met'}`
  )
  .join('\n')

const settings = ['BENCH_SCOPES_SIZES', 'BENCH_SCOPES_ROUNDS', 'BENCH_DATABASES']
  .map((name) => (process.env[name] ? `${name}=${process.env[name]} ` : ''))
  .join('')
const { BENCH_POSTGRES_URL, BENCH_MARIADB_URL } = process.env
const servers = [
  BENCH_POSTGRES_URL ? 'BENCH_POSTGRES_URL=… ' : '',
  BENCH_MARIADB_URL ? 'BENCH_MARIADB_URL=… ' : '',
].join('')
await writeSection(
  'scopes',
  `## Scoped pages against unscoped pages of the same rows

Generated by \`${servers}${settings}npm run bench:scopes\` at the repository root (bench/scopes.ts).

- ${machine()}; load average (1 min) ${loadBefore.toFixed(2)} before the run, ${(os.loadavg()[0] as number).toFixed(2)} at its end; the machine is shared with other work
- \`Sample\` rows (bench/schema.prisma): a row scope \`{ kind: ${TENANT} }\` (access rule of \`createHydraApp\`, the tenant read from a request header), against the filter \`?kind=${TENANT}\` by a request the rule leaves unscoped (no tenant header), on the same app and client; \`@@index([kind, createdAt, id])\` serves both in the collection's order; both answer the same members and count (checked first)
- requests: ${MODES.map(({ label, path }) => `${label} \`${path(Math.max(...SIZES))}\``).join('; ')}
- in-process (\`app.request\`, no network), ${WARMUP} warm-up rounds, then ${ROUNDS} rounds interleaving all six requests (the order reversed every other round); a cell is the median time and the range over the rounds

${table}

${targets}

${serverCoverage('bench:scopes', databases)}
`
)
console.log(`\n${table}\n${targets}`)
