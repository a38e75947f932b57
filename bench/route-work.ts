/**
 * The route's own work: what a generated route (the `prisma` engine) costs a response besides
 * Prisma's, against the hand-written Prisma route of bench:peers, for the same three requests and
 * the same bytes. Both are asked in-process through their app's `fetch`, over a stand-in of the
 * Prisma client whose reads answer at once with rows read from the 10,000-event SQLite table
 * beforehand (fresh objects and Dates each call, as Prisma's are): what is left is the routes'
 * work alone (parameters, where and order, members, document, ETag, headers).
 *
 * CPU µs a response (`process.cpuUsage()`, user + system) over `REQUESTS` responses, `ROUNDS`
 * rounds in a rotating order after a warm-up of `REQUESTS` responses each; the median and range
 * over the rounds, and generated / hand-written within each round. A second table asks the same
 * routes the same requests through the real Prisma client over that table, in the same rounds:
 * where its distance exceeds the first's on offset pages (the routes run the same statements), the
 * statements ran slower beside the generated route's work. Beside each, the memory a response
 * allocates, garbage included (`bytesPer`): what a response drops costs collections and the caches
 * they flush, which a CPU measure of the route alone does not see. A last row prices the ISO text
 * of a page's 30 dates (`isoText`, written by hand for the members, keys and links:
 * values/iso-text.ts) against `Date.prototype.toISOString`. The compiled engine is a third set, through the real client's shared adapter against the same
 * hand-written route; and each engine's responses and the hand-written route's are profiled once
 * after the rounds, their CPU time summed by layer (bench/layers.ts: Hono, caller view, data
 * access, Prisma's client, the driver, serialization, validator, links). Allocation is measured
 * with the sampling heap profiler: Node 20's `v8.getHeapStatistics()` has no
 * `total_allocated_bytes`. Writes its section of bench/RESULTS.md.
 *
 *   npm run bench:route
 *   BENCH_ROUTE_ROUNDS=3 BENCH_ROUTE_REQUESTS=500 npm run bench:route   # quick
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { shareAdapter } from '@prisma-hydra/runtime'
// Priced alone; no entry exports it, nor should (validators.ts says why).
import { isoText } from '../runtime/src/values/iso-text.js'
import { createHydraApp } from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { LAYERS, layersPer } from './layers.js'
import { bytesPer, cpuPer, integers, type Spread, shownSpread, spread } from './load.js'
import { feedLink, PER_PAGE } from './peers-documents.js'
import { handwritten } from './peers-server.js'
import { machine, writeSection } from './report.js'
import { prepareDatabase } from './setup.js'

const [ROUNDS = 5] = integers('BENCH_ROUTE_ROUNDS', '5')
const [REQUESTS = 2000] = integers('BENCH_ROUTE_REQUESTS', '2000')
const ROWS = 10_000

type Row = { id: number; createdAt: Date; payload: string }
type Fetch = (request: Request) => Response | Promise<Response>

const { url } = await prepareDatabase(ROWS)
const adapter = shareAdapter(new PrismaBetterSqlite3({ url }))
const prisma = new PrismaClient({ adapter })
const ordered = {
  select: { id: true, createdAt: true, payload: true },
  orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
}
// Page 1's last row is the feed's position; page 2 and the row after it are what every read gets.
const [firstPage, page] = await Promise.all([
  prisma.event.findMany({ ...ordered, take: PER_PAGE }),
  prisma.event.findMany({ ...ordered, skip: PER_PAGE, take: PER_PAGE + 1 }),
])
const total = await prisma.event.count()
const position = firstPage.at(-1) as Row
const copy = (rows: readonly Row[]): Row[] =>
  rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt.getTime()) }))

/**
 * The client both routes are given: the model's reads answer at once (every `findMany` the rows
 * above, every count the table's), a batch transaction answers its reads. A read with a `where`
 * (the generated feed page's, from its position inclusively) gets the position's row first, as
 * the database gives it: the route then needs no second read to know that a row precedes the page.
 */
const event = {
  findMany: async (args?: { where?: object }) =>
    args?.where && Object.keys(args.where).length > 0 ? copy([position, ...page]) : copy(page),
  count: async () => total,
}
const standIn = {
  event,
  $transaction: (reads: readonly PromiseLike<unknown>[]) => Promise.all(reads),
  $queryRawUnsafe: async () => [{ total: BigInt(total) }],
}
type Client = InstanceType<typeof PrismaClient>

const TARGETS = [
  { mode: 'full', path: '/events?page=2' },
  { mode: 'partial', path: '/events/partial?page=2' },
  { mode: 'cursor', path: feedLink(position, 'lt') },
] as const

type Route = 'generated' | 'handwritten'
const SETS = {
  standIn: {
    generated: createHydraApp({ prisma: standIn as unknown as Client }).fetch,
    handwritten: handwritten(standIn as unknown as Client),
  },
  // The same routes through the real client: Prisma's part and the routes' own together.
  prisma: { generated: createHydraApp({ prisma }).fetch, handwritten: handwritten(prisma) },
  // The compiled engine on the client's own adapter, against the same hand-written route.
  compiled: {
    generated: createHydraApp({ prisma, engine: 'compiled', adapter }).fetch,
    handwritten: handwritten(prisma),
  },
} satisfies Record<string, Record<Route, Fetch>>
type SetName = keyof typeof SETS
const ask = (fetch: Fetch, path: string) => fetch(new Request(`http://localhost${path}`))

// Both answer every request with the same bytes, or nothing is measured.
for (const routes of Object.values(SETS)) {
  for (const { path } of TARGETS) {
    const [generated, hand] = await Promise.all(
      Object.values(routes).map(async (fetch) => {
        const response = await ask(fetch, path)
        return `${response.status} ${await response.text()}`
      })
    )
    if (generated !== hand)
      throw new Error(`${path}: the routes answer differently:\n${generated}\n${hand}`)
  }
}

// Warm-up: each route's code compiled by V8 before anything is measured.
for (const routes of Object.values(SETS)) {
  for (const { path } of TARGETS) {
    for (const fetch of Object.values(routes)) {
      await cpuPer(REQUESTS, async () => (await ask(fetch, path)).text())
    }
  }
}

const dates = page.slice(0, PER_PAGE).map((row) => row.createdAt)
const results = new Map<string, number[]>()
const record = (key: string, value: number) =>
  results.set(key, [...(results.get(key) ?? []), value])
for (let round = 0; round < ROUNDS; round++) {
  // Rotated order: a request is not always measured first (warm-up) or last.
  const order = TARGETS.map((_, index) => TARGETS[(index + round) % TARGETS.length])
  for (const target of order) {
    if (!target) continue
    for (const [set, routes] of Object.entries(SETS) as Array<[SetName, Record<Route, Fetch>]>) {
      const generated = await cpuPer(REQUESTS, async () =>
        (await ask(routes.generated, target.path)).text()
      )
      const hand = await cpuPer(REQUESTS, async () =>
        (await ask(routes.handwritten, target.path)).text()
      )
      record(`${set} ${target.mode} generated`, generated)
      record(`${set} ${target.mode} handwritten`, hand)
      record(`${set} ${target.mode} distance`, generated - hand)
      record(`${set} ${target.mode} ratio`, generated / hand)
    }
  }
  record('isoText', await cpuPer(REQUESTS * 10, () => dates.map(isoText)))
  record('toISOString', await cpuPer(REQUESTS * 10, () => dates.map((date) => date.toISOString())))
  process.stdout.write('.')
}
process.stdout.write('\n')

// Memory allocated a response, garbage included: the same for every round, so measured once.
const allocated = new Map<string, number>()
for (const [set, routes] of Object.entries(SETS) as Array<[SetName, Record<Route, Fetch>]>) {
  for (const target of TARGETS) {
    for (const route of ['generated', 'handwritten'] as const) {
      const bytes = await bytesPer(REQUESTS, async () =>
        (await ask(routes[route], target.path)).text()
      )
      allocated.set(`${set} ${target.mode} ${route}`, bytes)
    }
  }
}
// Where a response's CPU time goes, by layer (bench/layers.ts), for both engines and the
// hand-written route through the real client: measured once after the rounds, under the profiler.
const PROFILED = {
  'prisma engine': SETS.prisma.generated,
  'compiled engine': SETS.compiled.generated,
  'hand-written': SETS.prisma.handwritten,
} satisfies Record<string, Fetch>
const layers = new Map<string, Map<string, number>>()
for (const target of TARGETS) {
  for (const [name, fetch] of Object.entries(PROFILED)) {
    const spent = await layersPer(REQUESTS, async () => (await ask(fetch, target.path)).text())
    layers.set(`${target.mode} ${name}`, spent)
  }
}
const layerColumns = TARGETS.flatMap(({ mode }) =>
  Object.keys(PROFILED).map((name) => `${mode} ${name}`)
)
const layerRow = (layer: string) =>
  `| ${layer} | ${layerColumns.map((column) => (layers.get(column)?.get(layer) ?? 0).toFixed(0)).join(' | ')} |`
const layerTotal = (column: string) =>
  [...(layers.get(column)?.values() ?? [])].reduce((sum, time) => sum + time, 0).toFixed(0)
const layerTable = [
  `| layer | ${layerColumns.join(' | ')} |`,
  `|---|${layerColumns.map(() => '---:').join('|')}|`,
  ...LAYERS.map(([layer]) => layer)
    .filter((layer) => layerColumns.some((column) => (layers.get(column)?.get(layer) ?? 0) >= 0.5))
    .map(layerRow),
  `| all sampled | ${layerColumns.map(layerTotal).join(' | ')} |`,
].join('\n')
const perDate = (format: (date: Date) => string) =>
  bytesPer(REQUESTS, () => dates.map(format)).then((bytes) => bytes / dates.length)
const [isoTextBytes, toISOStringBytes] = [
  await perDate(isoText),
  await perDate((date) => date.toISOString()),
]

const us = (value: Spread | undefined) => shownSpread(value, 1)
const of = (key: string) => spread(results.get(key) ?? [])
const kb = (key: string) => ((allocated.get(key) ?? Number.NaN) / 1024).toFixed(1)
const tableOf = (set: SetName) =>
  TARGETS.map(
    ({ mode, path }) =>
      `| ${mode} (\`${path.length > 40 ? `${path.slice(0, 37)}…` : path}\`) | ${us(of(`${set} ${mode} generated`))} | ${us(of(`${set} ${mode} handwritten`))} | ${us(of(`${set} ${mode} distance`))} | ${shownSpread(of(`${set} ${mode} ratio`), 2)} | ${kb(`${set} ${mode} generated`)} / ${kb(`${set} ${mode} handwritten`)} |`
  ).join('\n')
const dateRatio = spread(
  (results.get('isoText') ?? []).map(
    (own, index) => own / (results.get('toISOString')?.[index] ?? own)
  )
)

const markdown = `## The route's own work

\`npm run bench:route\` (bench/route-work.ts): the generated route (\`prisma\` engine) and the hand-written Prisma route of bench:peers, asked in-process through their app's \`fetch\` over a stand-in client whose reads answer at once with rows read beforehand from the ${ROWS.toLocaleString('en')}-event SQLite table, so that only the routes' own work is measured; both answer the same bytes (checked first). ${REQUESTS.toLocaleString('en')} responses a measure, ${ROUNDS} rounds in a rotating order after as many responses of each for warm-up; CPU µs a response (\`process.cpuUsage()\`, user + system), the median over the rounds and its range; the JavaScript memory a response allocates, what is collected included (V8's sampling heap profiler), measured once after the rounds.

| request | generated CPU µs | hand-written CPU µs | distance µs | generated / hand-written | KB allocated, generated / hand-written |
|---|---|---|---|---|---|
${tableOf('standIn')}

The same requests through the real Prisma client over that table (\`@prisma/adapter-better-sqlite3\`), measured in the same rounds: Prisma's part and the routes' own together. For full and partial pages both routes run the same statements, so what the distance adds to the first table's is what the generated route's work costs the rest of a response besides; the hand-written cursor page runs Prisma's own \`cursor\`, another statement.

| request | generated CPU µs | hand-written CPU µs | distance µs | generated / hand-written | KB allocated, generated / hand-written |
|---|---|---|---|---|---|
${tableOf('prisma')}

The compiled engine (\`engine: 'compiled'\` on the client's shared adapter) against the same hand-written route, in the same rounds:

| request | compiled CPU µs | hand-written CPU µs | distance µs | compiled / hand-written | KB allocated, compiled / hand-written |
|---|---|---|---|---|---|
${tableOf('compiled')}

Where a response's CPU time goes, by layer (bench/layers.ts: V8's CPU profiler in process, sampling every 50 µs, ${REQUESTS.toLocaleString('en')} responses each, after the rounds; self time given to the layer of its script, native calls to the layer that makes them: \`JSON.stringify\` and UTF-8 encoding to serialization, the hash to the validator), µs a response through the real client. The profiler slows what it samples: compare the columns with each other.

${layerTable}

ISO text of a page's ${dates.length} dates, CPU µs: \`isoText\` ${us(of('isoText'))}, \`Date.prototype.toISOString\` ${us(of('toISOString'))} (ratio ${shownSpread(dateRatio, 2)}); bytes allocated a date: ${isoTextBytes.toFixed(0)} and ${toISOStringBytes.toFixed(0)}.

${machine()}
`
await writeSection('route', markdown)
process.stdout.write(markdown)
await prisma.$disconnect()
