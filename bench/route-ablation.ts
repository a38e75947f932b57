/**
 * What makes the generated partial page dearer than the hand-written route through the real
 * Prisma client: the same request answered by variants of the generated app (each with the same
 * bytes, checked first) and by the hand-written route of bench:peers, in process through their
 * app's `fetch`, on the 10,000-event SQLite table. bench:route shows that the generated route's own
 * work (over a stand-in client) is a fraction of the distance measured through Prisma; each row
 * here takes one suspect away:
 *
 * - `time budget off`, `observation off` (spans and `Server-Timing`), both off: the per-request
 *   machinery around the read (options an application can set; the default keeps them on);
 * - `routes alone`: the resource's sub-app without the API's middleware, catch-all, discovery and
 *   error routes;
 * - `hand-written arguments`: the client's `findMany` called with the hand-written route's
 *   arguments instead of the generated ones (same statement, same rows);
 * - `rows copied` / `rows from Prisma`: both routes over a client whose `findMany` answers at once
 *   with copies of the rows (bench:route's stand-in), or by the real client's `findMany` with the
 *   hand-written arguments: the difference is what Prisma's part costs under each route;
 * - `a sketch of an emitted writer`: the partial page's contract in straight-line code
 *   (bench/route-sketch.ts), what a response writer emitted at generate time could cost;
 * - `400 more functions`: the hand-written route running, before each read, 400 small functions
 *   of distinct code (each a few additions): what other code run by the same request, and not its
 *   own cost, does to Prisma's part (the difference between its two rows against the difference
 *   between the plain ones).
 *
 * CPU µs a response (`process.cpuUsage()`), `REQUESTS` responses a measure after as many for
 * warm-up, `ROUNDS` rounds in a rotating order; the median over the rounds and its range.
 *
 *   npm run bench:ablation
 *   BENCH_ABLATION_ROUNDS=3 BENCH_ABLATION_REQUESTS=500 npm run bench:ablation   # quick
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { Hono } from 'hono'
import { createEventApp, createHydraApp, type HydraAppOptions } from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { cpuPer, integers, rotated, shownSpread, spread } from './load.js'
import { PER_PAGE } from './peers-documents.js'
import { handwritten } from './peers-server.js'
import { machine, writeSection } from './report.js'
import { sketchedRoute } from './route-sketch.js'
import { prepareDatabase } from './setup.js'

const [ROUNDS = 5] = integers('BENCH_ABLATION_ROUNDS', '5')
const [REQUESTS = 1500] = integers('BENCH_ABLATION_REQUESTS', '1500')
const ROWS = 10_000
const PATH = '/events/partial?page=2'

type Fetch = (request: Request) => Response | Promise<Response>
type Client = InstanceType<typeof PrismaClient>
type Row = { id: number; createdAt: Date; payload: string }

const { url } = await prepareDatabase(ROWS)
const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
const handArguments = () => ({
  select: { id: true, createdAt: true, payload: true } as const,
  orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
  skip: PER_PAGE,
  take: PER_PAGE + 1,
})
const rows = await prisma.event.findMany(handArguments())
const copies = (): Row[] => rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }))

/** A client whose model reads are `findMany`; the rest is the real client's. */
function clientWith(findMany: () => PromiseLike<Row[]>): Client {
  const standIn = {
    event: { findMany, count: () => prisma.event.count() },
    $transaction: prisma.$transaction.bind(prisma),
    $queryRawUnsafe: prisma.$queryRawUnsafe.bind(prisma),
    $executeRawUnsafe: prisma.$executeRawUnsafe.bind(prisma),
  }
  return standIn as unknown as Client
}
const generated = (options: Omit<HydraAppOptions, 'prisma'>, client: Client = prisma): Fetch =>
  createHydraApp({ prisma: client, ...options }).fetch
const copied = clientWith(async () => copies())
const fromPrisma = clientWith(() => prisma.event.findMany(handArguments()))
// Distinct code, so that each is compiled and cached apart (closures of one function share theirs).
const others = Array.from(
  { length: 400 },
  (_, index) =>
    new Function(
      'text',
      `let sum = ${index}; for (let i = 0; i < 3; i++) sum += (text.length + i * ${index}) % 7; return sum`
    ) as (text: string) => number
)
const runOthers = () => others.reduce((sum, other) => sum + other('abc'), 0)
const copiedAfterOthers = clientWith(async () => {
  runOthers()
  return copies()
})
const fromPrismaAfterOthers = clientWith(() => {
  runOthers()
  return prisma.event.findMany(handArguments())
})

const VARIANTS: Record<string, Fetch> = {
  'generated, as served': generated({}),
  'generated, time budget off': generated({ timeouts: { query: 0 } }),
  'generated, observation off': generated({ tracing: false, serverTiming: false }),
  'generated, budget and observation off': generated({
    tracing: false,
    serverTiming: false,
    timeouts: { query: 0 },
  }),
  'generated, routes alone': new Hono().route('/', createEventApp(prisma)).fetch,
  'generated, hand-written arguments': generated({}, fromPrisma),
  'generated, rows copied': generated({}, copied),
  'a sketch of an emitted writer (bench/route-sketch.ts)': sketchedRoute(prisma),
  'the sketch, rows copied': sketchedRoute(copied),
  'hand-written': handwritten(prisma),
  'hand-written, rows copied': handwritten(copied),
  'hand-written, rows from Prisma': handwritten(fromPrisma),
  'hand-written, rows copied, 400 more functions': handwritten(copiedAfterOthers),
  'hand-written, rows from Prisma, 400 more functions': handwritten(fromPrismaAfterOthers),
}
const ask = (fetch: Fetch) => async () =>
  (await fetch(new Request(`http://localhost${PATH}`))).text()

const bodies = new Set(await Promise.all(Object.values(VARIANTS).map((fetch) => ask(fetch)())))
if (bodies.size !== 1) throw new Error(`${PATH}: the variants answer differently`)

const results = new Map<string, number[]>()
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fetch] of rotated(Object.entries(VARIANTS), round)) {
    await cpuPer(REQUESTS, ask(fetch))
    results.set(name, [...(results.get(name) ?? []), await cpuPer(REQUESTS, ask(fetch))])
  }
  process.stdout.write('.')
}
process.stdout.write('\n')

const of = (name: string) => spread(results.get(name) ?? [])
const ratio = (name: string, base: string) =>
  spread(
    (results.get(name) ?? []).map((value, index) => value / (results.get(base)?.[index] ?? value))
  )
const rowsOf = Object.keys(VARIANTS).map(
  (name) =>
    `| ${name} | ${shownSpread(of(name), 0)} | ${shownSpread(ratio(name, 'hand-written'), 2)} |`
)
const markdown = `## What the generated partial page pays for, one suspect at a time

\`npm run bench:ablation\` (bench/route-ablation.ts): \`${PATH}\` on the ${ROWS.toLocaleString('en')}-event SQLite table, in process through each app's \`fetch\`, every variant answering the same bytes (checked first); CPU µs a response (\`process.cpuUsage()\`), ${REQUESTS.toLocaleString('en')} responses a measure after as many for warm-up, ${ROUNDS} rounds in a rotating order, the median and its range; the last column is the variant over the hand-written route within each round. Figures from a 2-core machine shared with other work (its load average in the last line): compare rows of one run.

| variant | CPU µs a response | / hand-written |
|---|---|---|
${rowsOf.join('\n')}

${machine()}
`
await writeSection('ablation', markdown)
process.stdout.write(markdown)
await prisma.$disconnect()
