/**
 * The generated routes against their peers and a true floor, on the same rows in the same run:
 * Hono routes on prisma-extension-pagination and on @devoxa/prisma-relay-cursor-connection, a
 * hand-written Hono + Prisma route, and a floor of node:http and the database's own driver running
 * the plain SQL a person would write (bench/peers-server.ts says what each one does). The plain
 * pages, each answered with the same bytes by every server that serves it (checked first): page 2
 * with full paging (page + count), page 2 with partial paging, and a cursor page 30 % of the table
 * deep. The pages users build, answered by both engines and a hand-written route returning the
 * same data (checked first, as data): the shaped page (bench/peers-shaped.ts), the scoped page and
 * the scoped sub-collection (bench/peers-scoped.ts). On PostgreSQL, the generated routes also
 * on the Prisma 8 back end under Node 22 (Prisma 8's floor), the compiled engine on Prisma 7
 * under Node 22 beside them, both checked to answer the compiled server's bytes. Every server's statements a response and its
 * body's bytes are reported beside the rates (bench/peers-responses.ts). At each table size and on
 * each database of the run; on PostgreSQL, full paging also under 50 and 100 connections. Servers
 * take turns in a rotating order within each run; each ratio is taken within a run, then the
 * median and the range over the runs are reported.
 *
 *   npm run bench:peers                                   # SQLite only
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:peers
 *   BENCH_MARIADB_URL=mysql://root@127.0.0.1:3306/test npm run bench:peers     # and MariaDB
 *   BENCH_PEERS_RUNS=2 BENCH_PEERS_SECONDS=2 npm run bench:peers   # a shorter run
 *   BENCH_PEERS_REQUESTS=scoped-page,scoped-sub-collection npm run bench:peers   # some requests
 *
 * Settings: BENCH_PEERS_SIZES (10000,1000000), BENCH_PEERS_RUNS (5), BENCH_PEERS_SECONDS (3 s a
 * turn), BENCH_PEERS_WARMUP (1 s), BENCH_PEERS_CONNECTIONS (10), BENCH_PEERS_POOL_CONNECTIONS
 * (50,100: the extra loads of full paging on PostgreSQL), BENCH_DATABASES (sqlite,postgresql,mariadb),
 * BENCH_PEERS_REQUESTS (the ids of bench/peers-requests.ts: all), BENCH_PEERS_KINDS (the servers of
 * bench/peers-server.ts started: all).
 */
import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { barCharts } from './chart.js'
import { shown } from './databases.js'
import {
  AUTOCANNON_VERSION,
  checkSame,
  cpuTime,
  integers,
  loadTurn,
  median,
  rotated,
  type Server,
  type Spread,
  shownSpread,
  spread,
  startServer,
  stopServers,
} from './load.js'
import { node22 } from './node22.js'
import { LABELS, selectedRequests, WHAT } from './peers-requests.js'
import { responseTable } from './peers-responses.js'
import { KINDS, type Kind, ON_NODE_22, ONLY_ON } from './peers-server.js'
import { statementsOf } from './peers-statements.js'
import { type PeerRequest, type Row, ratio, targetLines } from './peers-targets.js'
import { machine, writeSection } from './report.js'
import { prepareDatabase } from './setup.js'
import { prepareMariadbDatabase, preparePostgresDatabase } from './setup-servers.js'
import { Unanswered } from './unanswered.js'

const env = process.env
const SIZES = integers('BENCH_PEERS_SIZES', '10000,1000000')
const [RUNS = 5] = integers('BENCH_PEERS_RUNS', '5')
const [SECONDS = 3] = integers('BENCH_PEERS_SECONDS', '3')
const [WARMUP = 1] = integers('BENCH_PEERS_WARMUP', '1')
const [CONNECTIONS = 10] = integers('BENCH_PEERS_CONNECTIONS', '10')
const POOL_CONNECTIONS = integers('BENCH_PEERS_POOL_CONNECTIONS', '50,100')
const REQUESTS = selectedRequests(env.BENCH_PEERS_REQUESTS)
const STARTED: readonly Kind[] = env.BENCH_PEERS_KINDS
  ? KINDS.filter((kind) => env.BENCH_PEERS_KINDS?.split(',').includes(kind))
  : KINDS
interface Database {
  id: string
  name: string
  prepare(rows: number): Promise<{ url: string; built: boolean }>
}
const DATABASES: Database[] = [
  { id: 'sqlite', name: 'SQLite', prepare: prepareDatabase },
  ...(env.BENCH_POSTGRES_URL
    ? [
        {
          id: 'postgresql',
          name: 'PostgreSQL',
          prepare: (rows: number) =>
            preparePostgresDatabase(env.BENCH_POSTGRES_URL as string, rows),
        },
      ]
    : []),
  ...(env.BENCH_MARIADB_URL
    ? [
        {
          id: 'mariadb',
          name: 'MariaDB',
          prepare: (rows: number) => prepareMariadbDatabase(env.BENCH_MARIADB_URL as string, rows),
        },
      ]
    : []),
]
const selected = env.BENCH_DATABASES
  ? DATABASES.filter((database) => env.BENCH_DATABASES?.split(',').includes(database.id))
  : DATABASES

const SERVER = fileURLToPath(new URL('./peers-server.ts', import.meta.url))
/** The Node the kinds of ON_NODE_22 run on, where the run reaches a database they run on. */
const NODE_22 = selected.some((database) =>
  STARTED.some((kind) => ON_NODE_22.has(kind) && (ONLY_ON[kind]?.includes(database.id) ?? true))
)
  ? node22()
  : undefined

/**
 * Seconds a request may wait for its response before autocannon counts it as a timeout: 10 s
 * (autocannon's default) under the usual connections; under the extra loads, twice the generated
 * app's 10 s budget, so that a response the server sends (a 200 or its 503) is what is counted.
 */
const timeoutFor = (connections: number) => (connections > CONNECTIONS ? 20 : 10)

/** `amount` requests over `connections`, and the rate they were answered at (load.ts). */
const load = (origin: string, path: string, amount: number, connections: number) =>
  loadTurn(origin, path, { amount, connections }, { timeout: timeoutFor(connections) })

const loadBefore = os.loadavg()[0] as number
const results: Row[] = []
/** The lines a server could not answer when checked (bench/unanswered.ts), and why. */
const unmeasured: string[] = []

/** The servers of the compiled engine's documents, on Prisma 7 and on Prisma 8. */
const COMPILED: readonly Kind[] = ['compiled', 'compiledNode22', 'prisma8']

/** A line's answers checked (peers-shaped.ts, peers-scoped.ts, load.ts), or why one is missing. */
async function checkedLine(
  serving: ReadonlyMap<Kind, Server>,
  request: PeerRequest,
  path: string,
  rows: number
) {
  try {
    const bodies = await request.data?.(serving, path, rows)
    const bodyBytes = bodies?.get('generated')?.bytes ?? (await checkSame(serving, path))
    // The compiled engine's documents on both back ends: a page users build too, the same bytes.
    const compiled = [...serving].filter(([kind]) => COMPILED.includes(kind))
    if (bodies && compiled.length > 1) await checkSame(new Map(compiled), path)
    return { bodies, bodyBytes }
  } catch (error) {
    if (error instanceof Unanswered) return error
    throw error
  }
}
for (const database of selected) {
  for (const rows of SIZES) {
    const started = performance.now()
    const { url, built } = await database.prepare(rows)
    console.log(
      `${database.name}: ${built ? 'built' : 'reused'} ${shown(url)} (${rows.toLocaleString('en')} rows, ${((performance.now() - started) / 1000).toFixed(1)} s)`
    )
    const servers = new Map<Kind, Server>()
    try {
      for (const kind of STARTED.filter((kind) => ONLY_ON[kind]?.includes(database.id) ?? true))
        servers.set(
          kind,
          await startServer(SERVER, [kind, url], [], ON_NODE_22.has(kind) ? NODE_22 : undefined)
        )
      const loads: { request: PeerRequest; connections: number }[] = REQUESTS.filter(
        (request) => !request.on || request.on.includes(database.id)
      ).map((request) => ({ request, connections: CONNECTIONS }))
      const full = REQUESTS.find((request) => request.id === 'full')
      if (database.id === 'postgresql' && full) {
        for (const connections of POOL_CONNECTIONS) loads.push({ request: full, connections })
      }
      const lines = new Map<(typeof loads)[number], Row>()
      for (const entry of loads) {
        const path = entry.request.path(rows)
        // The kinds of the request running on this database.
        const by = entry.request.by.filter((kind) => servers.has(kind))
        const serving = new Map(by.map((kind) => [kind, servers.get(kind) as Server] as const))
        const checked = await checkedLine(serving, entry.request, path, rows)
        if (checked instanceof Unanswered) {
          unmeasured.push(
            `${database.name}, ${rows.toLocaleString('en')} rows, ${entry.request.label}: ${LABELS[checked.server as Kind] ?? checked.server} answered \`503\``
          )
          console.log(`not measured: ${checked.message.slice(0, 200)}`)
          continue
        }
        const { bodies, bodyBytes } = checked
        const statements = new Map<Kind, number>()
        for (const [kind, server] of serving) statements.set(kind, await statementsOf(server, path))
        lines.set(entry, {
          database: database.name,
          rows,
          request: entry.request,
          connections: entry.connections,
          measures: new Map(by.map((kind) => [kind, []])),
          cpu: new Map(by.map((kind) => [kind, []])),
          bodyBytes,
          ...(bodies ? { bodies } : {}),
          statements,
        })
      }
      // Warm-up: twice the connections' worth of requests, and then for about WARMUP seconds at
      // the rate seen; each turn then asks for about SECONDS seconds' worth at the warm-up's rate.
      // The lines checked, in the order of `loads`: a line not answered is not measured.
      const rates = new Map<string, number>()
      for (const [entry, line] of lines) {
        const { request, connections } = entry
        for (const kind of line.measures.keys()) {
          const { origin } = servers.get(kind) as Server
          const first = await load(origin, request.path(rows), 2 * connections, connections)
          const more = Math.max(connections, Math.round(first.perSecond * WARMUP))
          const warm = await load(origin, request.path(rows), more, connections)
          rates.set(`${kind} ${request.id} ${connections}`, warm.perSecond)
        }
      }
      for (let run = 0; run < RUNS; run++) {
        for (const [entry, line] of lines) {
          const { request, connections } = entry
          for (const kind of rotated([...line.measures.keys()], run)) {
            const rate = rates.get(`${kind} ${request.id} ${connections}`) ?? 0
            const server = servers.get(kind) as Server
            // The server's own CPU time over the turn: unlike the rate, it barely moves with
            // what else the machine is doing.
            const before = await cpuTime(server.child)
            const measure = await load(
              server.origin,
              request.path(rows),
              Math.max(2 * connections, Math.round(rate * SECONDS)),
              connections
            )
            const cpu = ((await cpuTime(server.child)) - before) / measure.total
            line.measures.get(kind)?.push(measure)
            line.cpu.get(kind)?.push(cpu)
            console.log(
              `${database.name} ${rows} ${request.id} c${connections} run ${run + 1}/${RUNS} ${kind}: ${measure.perSecond.toFixed(1)} req/s, ${cpu.toFixed(0)} µs CPU a response, p99 ${measure.p99} ms, ${measure.failures} failed of ${measure.total}`
            )
          }
        }
      }
      results.push(...lines.values())
    } finally {
      await stopServers(servers.values())
    }
  }
}

const n = (value: number) => value.toLocaleString('en')
const rate = (value: number) => (value < 100 ? value.toFixed(1) : n(Math.round(value)))
const shownRatio = (value: Spread | undefined) => shownSpread(value)
const cell = (row: Row, kind: Kind) => {
  const measures = row.measures.get(kind)
  if (!measures) return '–'
  const rates = measures.map((m) => m.perSecond)
  const failed = measures.reduce((sum, m) => sum + m.failures, 0)
  const total = measures.reduce((sum, m) => sum + m.total, 0)
  const kinds = new Map<string, number>()
  for (const m of measures)
    for (const [status, count] of Object.entries(m.statuses))
      kinds.set(status, (kinds.get(status) ?? 0) + count)
  const which = [...kinds].map(([status, count]) => `${count} ${status}`).join(', ')
  const errors =
    failed > 0 ? `, **${((100 * failed) / total).toFixed(1)} % failed** (${which})` : ''
  return `${rate(median(rates))} (${rate(Math.min(...rates))}–${rate(Math.max(...rates))})${errors}`
}
const table = [
  `| database | rows | request | conn. | ${KINDS.map((kind) => LABELS[kind]).join(' | ')} | generated / hand-written | generated / best hand-written | compiled / Hono floor | compiled / hand-written | generated / floor | Prisma 8 / hand-written | Prisma 8 / compiled | Prisma 8 / compiled, Node 22 |`,
  `|---|---:|---|---:|${KINDS.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|---:|---:|---:|`,
  ...results.map(
    (row) =>
      `| ${row.database} | ${n(row.rows)} | ${row.request.label} | ${row.connections} | ${KINDS.map((kind) => cell(row, kind)).join(' | ')} | ${shownRatio(ratio(row, 'generated', 'handwritten'))} | ${shownRatio(ratio(row, 'generated', 'handwrittenBest'))} | ${shownRatio(ratio(row, 'compiled', 'honoFloor'))} | ${shownRatio(ratio(row, 'compiled', 'handwritten'))} | ${shownRatio(ratio(row, 'generated', 'floor'))} | ${shownRatio(ratio(row, 'prisma8', 'handwritten'))} | ${shownRatio(ratio(row, 'prisma8', 'compiled'))} | ${shownRatio(ratio(row, 'prisma8', 'compiledNode22'))} |`
  ),
].join('\n')

/** Within each run: `kind`'s CPU time a response over `over`'s; their median and range. */
function cpuRatio(row: Row, kind: Kind, over: Kind): Spread | undefined {
  const of = row.cpu.get(kind)
  const base = row.cpu.get(over)
  if (!of || !base) return undefined
  return spread(of.map((value, run) => value / (base[run] as number)))
}
const cpuCell = (row: Row, kind: Kind) => {
  const values = row.cpu.get(kind)
  if (!values) return '–'
  return `${Math.round(median(values))} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`
}
const cpuTable = [
  `| database | rows | request | conn. | ${KINDS.map((kind) => LABELS[kind]).join(' | ')} | generated / hand-written | generated / best hand-written | floor / compiled | Prisma 8 / compiled, Node 22 |`,
  `|---|---:|---|---:|${KINDS.map(() => '---:').join('|')}|---:|---:|---:|---:|`,
  ...results.map(
    (row) =>
      `| ${row.database} | ${n(row.rows)} | ${row.request.label} | ${row.connections} | ${KINDS.map((kind) => cpuCell(row, kind)).join(' | ')} | ${shownRatio(cpuRatio(row, 'generated', 'handwritten'))} | ${shownRatio(cpuRatio(row, 'generated', 'handwrittenBest'))} | ${shownRatio(cpuRatio(row, 'floor', 'compiled'))} | ${shownRatio(cpuRatio(row, 'prisma8', 'compiledNode22'))} |`
  ),
].join('\n')

const targets = targetLines(results, POOL_CONNECTIONS)

await writeFile(
  new URL('./peers.svg', import.meta.url),
  barCharts([
    {
      title: 'The generated routes, their peers and the floor, on the same rows',
      subtitle: `requests per second relative to the floor in the same run, higher is better (median of ${RUNS} runs of about ${SECONDS} s)`,
      series: KINDS.filter((kind) => kind !== 'floor').map((kind) => LABELS[kind]),
      groups: results
        .filter((row) => row.measures.has('floor'))
        .map((row) => ({
          label: `${row.database} ${row.rows >= 1e6 ? `${row.rows / 1e6}M` : `${row.rows / 1e3}k`}, ${row.request.id}${row.connections === CONNECTIONS ? '' : `, ${row.connections} conn.`}`,
          values: KINDS.filter((kind) => kind !== 'floor').map(
            (kind) => ratio(row, kind, 'floor')?.median
          ),
        })),
      format: (value) => `${value.toFixed(2)}×`,
    },
  ])
)

const settings = [
  env.BENCH_POSTGRES_URL ? `BENCH_POSTGRES_URL=${shown(env.BENCH_POSTGRES_URL)}` : '',
  env.BENCH_MARIADB_URL ? `BENCH_MARIADB_URL=${shown(env.BENCH_MARIADB_URL)}` : '',
  ...[
    'BENCH_DATABASES',
    'BENCH_PEERS_REQUESTS',
    'BENCH_PEERS_KINDS',
    'BENCH_PEERS_SIZES',
    'BENCH_PEERS_RUNS',
    'BENCH_PEERS_SECONDS',
    'BENCH_PEERS_WARMUP',
    'BENCH_PEERS_CONNECTIONS',
    'BENCH_PEERS_POOL_CONNECTIONS',
  ].map((name) => (env[name] ? `${name}=${env[name]}` : '')),
]
  .filter(Boolean)
  .map((setting) => `${setting} `)
  .join('')
const report = `## The generated routes against their peers and a true floor

Generated by \`${settings}npm run bench:peers\` at the repository root (bench/peers.ts, servers bench/peers-server.ts).

- ${machine()}; load average (1 min) ${loadBefore.toFixed(2)} before the run, ${(os.loadavg()[0] as number).toFixed(2)} at its end (its own load included); the machine is shared with other work, so read the ranges, not only the medians
- \`Event\` rows as in bench/setup.ts (SQLite, \`ANALYZE\`d) and bench/setup-servers.ts (PostgreSQL, \`VACUUM ANALYZE\`d; MariaDB, \`ANALYZE TABLE\`d); 30 a page, newest first
- requests: ${REQUESTS.map((request) => `${request.label} \`${request.path(Math.max(...SIZES))}\` (at ${n(Math.max(...SIZES))} rows)`).join('; ')}; every server that serves a plain request answers it with the same status, content type, \`Link\` and body, and every server of a page users build with the same data (bench/peers-shaped.ts, bench/peers-scoped.ts; checked before the runs)
- each server in its own process (\`node --import tsx bench/peers-server.ts <kind> <url>\`), all started before a table's first request; ${NODE_22 ? `${[...ON_NODE_22].map((kind) => LABELS[kind]).join(' and ')} under Node.js ${execFileSync(NODE_22, ['--version'], { encoding: 'utf8' }).trim()} (Prisma 8's floor), the others under the Node.js above: ratios between the two runtimes (Prisma 8 / hand-written, Prisma 8 / compiled) include the difference between them, the Prisma 8 / compiled, Node 22 ratio does not;` : ''} load from autocannon in the benchmark's process over loopback, ${CONNECTIONS} connections${selected.some((database) => database.id === 'postgresql') ? ` (full paging on PostgreSQL also ${POOL_CONNECTIONS.join(' and ')})` : ''}; a warm-up per server and request (twice the connections' worth of requests, then about ${WARMUP} s' worth at the rate seen), then ${RUNS} runs in which each server answers about ${SECONDS} s' worth of requests at its warm-up rate (at least twice the connections), the servers taking turns in a rotating order; a rate is the responses over the time from the turn's start to its last response, measured by the benchmark (autocannon's own duration is rounded up to whole seconds); requests time out after ${timeoutFor(CONNECTIONS)} s (${timeoutFor(Math.max(CONNECTIONS + 1, ...POOL_CONNECTIONS))} s under the extra loads), autocannon ${AUTOCANNON_VERSION}
- a cell: the median requests per second over the runs and their range (min–max); a ratio: taken within each run, then its median and range (min–max over the runs); failed requests (non-2xx answers by status class, timeouts, connection errors) are shown when there are any; a ratio target is met when the ratio of every run reaches it, NOT MET when none does, and otherwise met in so many of the runs: not established

${KINDS.map((kind) => `- ${LABELS[kind]}: ${WHAT[kind]}`).join('\n')}

${table}
${unmeasured.length === 0 ? '' : `\nNot measured, a server having answered \`503\` when its answer was checked (its query budget, 10 s, or an unreachable database):\n\n${unmeasured.map((line) => `- ${line}`).join('\n')}\n`}
The servers' CPU time (user + system, µs) a response, read from each server process before and after each turn (\`process.cpuUsage()\`): the median over the runs and its range, and the generated route's over the hand-written route's within each run (lower is cheaper).

${cpuTable}

What a response costs besides time: the statements each server sent its database for one response (counted at the driver, transaction control included: bench/peers-statements.ts) and the bytes of its body (where each server writes its own, the pages users build, also gzipped).

${responseTable(results, KINDS, LABELS, CONNECTIONS)}

![Requests per second relative to the floor](peers.svg)

Targets:

${targets.join('\n')}
`
await writeSection('peers', report)
console.log(
  `\n${table}\n\n${cpuTable}\n\n${responseTable(results, KINDS, LABELS, CONNECTIONS)}\n\n${targets.join('\n')}`
)
console.log('Written to bench/RESULTS.md and bench/peers.svg')
