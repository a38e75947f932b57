/**
 * The code a response runs: how many distinct functions, and how many calls, one response of
 * each route of bench:peers takes through the real Prisma client over the 10,000-event SQLite
 * table, by layer (bench/layers.ts). The generated route's distance to the hand-written one
 * through Prisma was larger than over a stand-in client, and Prisma's own work is the same for
 * both (its function and call counts here): what grows with the code a request runs around
 * Prisma's is the time of Prisma's part (bench/RESULTS.md, "Retired experiments and what they
 * found": "400 more functions"). This is the count that page writers cut, and that the next cuts
 * are measured by.
 *
 * V8's precise coverage counts every call of every function (`Profiler.takePreciseCoverage` with
 * call counts, which resets them): each request is answered `WARM_UP` times, the counts reset,
 * then `REQUESTS` responses counted and divided. Both routes answer each request with the same
 * bytes (checked first). Counts, not times: the machine's load does not change them.
 *
 *   npm run bench:code
 */
import { type Profiler, Session } from 'node:inspector/promises'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { shareAdapter } from '@prisma-hydra/runtime'
import { createHydraApp } from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { LAYERS, layerOf } from './layers.js'
import { integers } from './load.js'
import { feedLink, PER_PAGE } from './peers-documents.js'
import { handwritten } from './peers-server.js'
import { machine, writeSection } from './report.js'
import { prepareDatabase } from './setup.js'

const [REQUESTS = 100] = integers('BENCH_CODE_REQUESTS', '100')
const [WARM_UP = 500] = integers('BENCH_CODE_WARM_UP', '500')

type Fetch = (request: Request) => Response | Promise<Response>

const { url } = await prepareDatabase(10_000)
const adapter = shareAdapter(new PrismaBetterSqlite3({ url }))
const prisma = new PrismaClient({ adapter })
const [position] = await prisma.event.findMany({
  select: { id: true, createdAt: true },
  orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  skip: PER_PAGE - 1,
  take: 1,
})
if (!position) throw new Error('the events table is empty')

const ROUTES: Record<string, Fetch> = {
  'generated, `prisma` engine': createHydraApp({ prisma }).fetch,
  'generated, compiled engine': createHydraApp({ prisma, engine: 'compiled', adapter }).fetch,
  'hand-written Prisma route': handwritten(prisma),
}
const TARGETS = [
  { mode: 'full', path: '/events?page=2' },
  { mode: 'partial', path: '/events/partial?page=2' },
  { mode: 'cursor', path: feedLink(position, 'lt') },
] as const
const ask = async (fetch: Fetch, path: string) => {
  const response = await fetch(new Request(`http://localhost${path}`))
  return `${response.status} ${await response.text()}`
}

for (const { path } of TARGETS) {
  const answers = await Promise.all(Object.values(ROUTES).map((fetch) => ask(fetch, path)))
  if (new Set(answers).size !== 1) throw new Error(`${path}: the routes answer differently`)
}

interface Counts {
  functions: number
  calls: number
}
type ByLayer = Map<string, Counts>

const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
const take = async (): Promise<Profiler.ScriptCoverage[]> =>
  (await session.post('Profiler.takePreciseCoverage')).result

/** The functions run by `REQUESTS` answers to `path`, and their calls, a response, by layer. */
async function countsOf(fetch: Fetch, path: string): Promise<ByLayer> {
  for (let index = 0; index < WARM_UP; index++) await ask(fetch, path)
  await take()
  for (let index = 0; index < REQUESTS; index++) await ask(fetch, path)
  const byLayer: ByLayer = new Map()
  for (const script of await take()) {
    for (const fn of script.functions) {
      const count = fn.ranges[0]?.count ?? 0
      if (count === 0) continue
      const layer = layerOf(script.url, fn.functionName)
      const counts = byLayer.get(layer) ?? { functions: 0, calls: 0 }
      counts.functions++
      counts.calls += count / REQUESTS
      byLayer.set(layer, counts)
    }
  }
  return byLayer
}

const columns: Array<{ title: string; counts: ByLayer }> = []
for (const { mode, path } of TARGETS)
  for (const [route, fetch] of Object.entries(ROUTES))
    columns.push({ title: `${mode}, ${route}`, counts: await countsOf(fetch, path) })
await session.post('Profiler.stopPreciseCoverage')
session.disconnect()
await prisma.$disconnect()

const shown = ({ functions, calls }: Counts) =>
  functions === 0 ? '–' : `${functions} / ${Math.round(calls).toLocaleString('en')}`
const layers = LAYERS.map(([name]) => name).filter((name) =>
  columns.some(({ counts }) => counts.has(name))
)
const total = (counts: ByLayer): Counts =>
  [...counts.values()].reduce(
    (sum, each) => ({ functions: sum.functions + each.functions, calls: sum.calls + each.calls }),
    { functions: 0, calls: 0 }
  )
const rows = [
  ...layers.map(
    (layer) =>
      `| ${layer} | ${columns.map(({ counts }) => shown(counts.get(layer) ?? { functions: 0, calls: 0 })).join(' | ')} |`
  ),
  `| all | ${columns.map(({ counts }) => shown(total(counts))).join(' | ')} |`,
]
for (const { title, counts } of columns) console.log(`${title}: ${shown(total(counts))}`)

await writeSection(
  'code',
  `## The code a response runs

\`npm run bench:code\` (bench/code-paths.ts): the distinct functions a response runs and their calls a response (V8's precise coverage with call counts: ${WARM_UP.toLocaleString('en')} responses for warm-up, then ${REQUESTS} counted), by layer (bench/layers.ts), for each request of bench:peers through the real Prisma client over the 10,000-event SQLite table, every route answering the same bytes (checked first). Each cell is functions / calls. Counts, not times: the machine's load does not change them.

| layer | ${columns.map(({ title }) => title).join(' | ')} |
|---|${columns.map(() => '---:').join('|')}|
${rows.join('\n')}

${machine()}`
)
