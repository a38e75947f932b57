/**
 * Throughput and latency under load of one page with full paging (`GET /events?page=2`: 30 rows
 * and a count, on a table of 10,000 events), served over loopback by three servers, each in its
 * own process (the servers of bench/peers-server.ts): the generated route, the same route written
 * by hand with Hono and Prisma, and a floor of node:http and better-sqlite3 running plain SQL. All
 * three must send byte-identical bodies before anything is measured. Load from autocannon in this
 * process; the servers take turns, in a rotating order, so that the machine's drift hits each of
 * them alike; ratios are taken within a run, then their median. Writes its section of
 * bench/RESULTS.md and bench/throughput.svg.
 *
 *   npm run bench:throughput
 *   BENCH_THROUGHPUT_RUNS=1 BENCH_THROUGHPUT_SECONDS=3 npm run bench:throughput   # a quick run
 */
import { writeFile } from 'node:fs/promises'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { barCharts } from './chart.js'
import {
  AUTOCANNON_VERSION,
  checkSame,
  cpuTime,
  loadTurn,
  median,
  rotated,
  type Server,
  shownSpread,
  spread,
  startServer,
  stopServers,
} from './load.js'
import { machine, writeSection } from './report.js'
import { prepareDatabase } from './setup.js'

// Ten turns of 5 s per server rather than five of 10 s: on a machine shared with other work, load
// comes and goes over seconds, and shorter turns taken more often spread it more evenly.
const SETTINGS = {
  rows: ['BENCH_THROUGHPUT_ROWS', 10_000],
  runs: ['BENCH_THROUGHPUT_RUNS', 10],
  seconds: ['BENCH_THROUGHPUT_SECONDS', 5],
  warmup: ['BENCH_THROUGHPUT_WARMUP', 5],
  connections: ['BENCH_THROUGHPUT_CONNECTIONS', 10],
} as const
type Setting = keyof typeof SETTINGS
const settings = Object.fromEntries(
  Object.entries(SETTINGS).map(([key, [name, fallback]]) => {
    const raw = process.env[name]
    const value = raw === undefined ? fallback : Number(raw)
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new Error(`${name} must be a positive integer, "${raw}" given`)
    }
    return [key, value]
  })
) as Record<Setting, number>
const {
  rows: ROWS,
  runs: RUNS,
  seconds: SECONDS,
  warmup: WARMUP,
  connections: CONNECTIONS,
} = settings
const PAGE = 2
const PATH = `/events?page=${PAGE}`
const TARGET = 0.95

// The servers of bench/peers.ts: the same documents, the same hand-written route and floor.
const SERVER = fileURLToPath(new URL('./peers-server.ts', import.meta.url))
const SERVERS = [
  {
    kind: 'generated',
    short: 'generated',
    label: 'generated (createHydraApp)',
    what: '`createHydraApp` from bench/.generated on @hono/node-server',
  },
  {
    kind: 'handwritten',
    short: 'hand-written',
    label: 'hand-written Hono + Prisma',
    what: 'a Hono route on @hono/node-server with the Prisma client as its documentation shows it: the same `findMany` (select, order, skip, take) and `count()` in one `$transaction([...])`, the body an object given to `JSON.stringify`',
  },
  {
    kind: 'floor',
    short: 'floor',
    label: 'floor: node:http + better-sqlite3',
    what: '`node:http` and better-sqlite3 running the plain SQL a person would write (statements prepared once): a `LIMIT`/`OFFSET` page and `SELECT COUNT(*) FROM "Event"`, the same body',
  },
] as const
type Kind = (typeof SERVERS)[number]['kind']

interface Measure {
  requestsPerSecond: number
  p50: number
  p97_5: number
  p99: number
  total: number
  /** The server's CPU time (user + system) per response, in µs. */
  cpuPerRequest: number
}

async function load(server: Server, seconds: number): Promise<Measure> {
  const before = await cpuTime(server.child)
  const result = await loadTurn(server.origin, PATH, { connections: CONNECTIONS, seconds })
  const cpu = (await cpuTime(server.child)) - before
  if (result.failures > 0 || result.total === 0) {
    throw new Error(
      `${server.origin}${PATH}: ${result.failures} failed (${JSON.stringify(result.statuses)}) out of ${result.total}`
    )
  }
  return {
    requestsPerSecond: result.perSecond,
    p50: result.p50,
    p97_5: result.p97_5,
    p99: result.p99,
    total: result.total,
    cpuPerRequest: cpu / result.total,
  }
}

/** The machine's load before the benchmark adds its own: other work skews the figures. */
const loadBefore = os.loadavg()[0] as number
const { url, built } = await prepareDatabase(ROWS)
console.log(`${built ? 'Built' : 'Reused'} ${url} (${ROWS.toLocaleString('en')} rows)`)

const servers = new Map<Kind, Server>()
try {
  for (const { kind } of SERVERS) servers.set(kind, await startServer(SERVER, [kind, url]))
  const server = (kind: Kind) => servers.get(kind) as Server

  // The same bytes from every server, for the measured page and for the first and last ones.
  const lastPage = Math.ceil(ROWS / 30)
  const checked = [PATH, '/events', `/events?page=${lastPage}`]
  let bodyBytes = 0
  for (const path of checked) {
    const size = await checkSame(
      new Map(SERVERS.map(({ kind }) => [kind, server(kind)] as const)),
      path
    )
    if (path === PATH) bodyBytes = size
  }
  console.log(
    `Same ${bodyBytes}-byte body from every server for ${checked.join(', ')}; warming up ${WARMUP} s each`
  )

  for (const { kind } of SERVERS) await load(server(kind), WARMUP)

  const measures = new Map<Kind, Measure[]>(SERVERS.map(({ kind }) => [kind, []]))
  for (let run = 0; run < RUNS; run++) {
    // Run r starts with server r (mod 3): each takes every position in the order equally often.
    for (const { kind } of rotated(SERVERS, run)) {
      const measure = await load(server(kind), SECONDS)
      measures.get(kind)?.push(measure)
      console.log(
        `run ${run + 1}/${RUNS} ${kind}: ${measure.requestsPerSecond.toFixed(0)} req/s, p50 ${measure.p50} ms, p97.5 ${measure.p97_5} ms, p99 ${measure.p99} ms, ${measure.cpuPerRequest.toFixed(0)} µs of server CPU a response`
      )
    }
  }

  const of = (kind: Kind) => measures.get(kind) as Measure[]
  const summary = (kind: Kind) => ({
    requestsPerSecond: median(of(kind).map((m) => m.requestsPerSecond)),
    p50: median(of(kind).map((m) => m.p50)),
    p97_5: median(of(kind).map((m) => m.p97_5)),
    p99: median(of(kind).map((m) => m.p99)),
    cpuPerRequest: median(of(kind).map((m) => m.cpuPerRequest)),
  })
  // Within each run: generated / other in requests per second, and other / generated in server
  // CPU time per response (the throughput ratio one core would give each server to itself).
  const ratios = (over: Kind, of_: (m: Measure) => number, inverse = false) =>
    of('generated').map((m, run) => {
      const ratio = of_(m) / of_(of(over)[run] as Measure)
      return inverse ? 1 / ratio : ratio
    })
  const perSecond = (m: Measure) => m.requestsPerSecond
  const cpu = (m: Measure) => m.cpuPerRequest
  const toHandwritten = ratios('handwritten', perSecond)
  const toFloor = ratios('floor', perSecond)
  const cpuToHandwritten = ratios('handwritten', cpu, true)
  const cpuToFloor = ratios('floor', cpu, true)
  const handwrittenRatio = median(toHandwritten)
  const floorRatio = median(toFloor)
  const met = handwrittenRatio >= TARGET
  const range = (values: number[]) => shownSpread(spread(values), 3)

  const table = [
    '| server | req/s | p50 (ms) | p97.5 (ms) | p99 (ms) | server CPU a response (µs) |',
    '|---|---:|---:|---:|---:|---:|',
    ...SERVERS.map(({ kind, label }) => {
      const s = summary(kind)
      return `| ${label} | ${Math.round(s.requestsPerSecond).toLocaleString('en')} | ${s.p50} | ${s.p97_5} | ${s.p99} | ${Math.round(s.cpuPerRequest)} |`
    }),
  ].join('\n')
  const list = (values: number[]) => values.map((value) => value.toFixed(3)).join(', ')

  await writeFile(
    new URL('./throughput.svg', import.meta.url),
    barCharts([
      {
        title: `GET ${PATH}: 30 rows + count of ${ROWS.toLocaleString('en')}, over loopback`,
        subtitle: `requests per second, higher is better (median of ${RUNS} runs of ${SECONDS} s, ${CONNECTIONS} connections)`,
        series: ['req/s'],
        groups: SERVERS.map(({ kind, short }) => ({
          label: short,
          values: [summary(kind).requestsPerSecond],
        })),
        format: (value) => Math.round(value).toLocaleString('en'),
      },
      {
        title: 'Latency under the same load',
        subtitle: 'milliseconds, lower is better (medians over the runs)',
        series: SERVERS.map(({ short }) => short),
        groups: (['p50', 'p97_5', 'p99'] as const).map((percentile) => ({
          label: percentile.replace('_', '.'),
          values: SERVERS.map(({ kind }) => summary(kind)[percentile]),
        })),
        format: (value) => `${value} ms`,
      },
      {
        title: 'Server CPU time a response',
        subtitle:
          'microseconds of user + system time in the server process, lower is better (medians over the runs)',
        series: ['µs'],
        groups: SERVERS.map(({ kind, short }) => ({
          label: short,
          values: [summary(kind).cpuPerRequest],
        })),
        format: (value) => `${Math.round(value)} µs`,
      },
    ])
  )

  const quick = Object.entries(SETTINGS)
    .filter(([key, [, fallback]]) => settings[key as Setting] !== fallback)
    .map(([key, [name]]) => `${name}=${settings[key as Setting]} `)
    .join('')
  const report = `## Throughput and latency of one page under load

Generated by \`${quick}npm run bench:throughput\` at the repository root (bench/throughput.ts, servers bench/peers-server.ts).

- ${machine()}; load average (1 min) ${loadBefore.toFixed(2)} before the run, ${(os.loadavg()[0] as number).toFixed(2)} at its end (its own load included)
- \`GET ${PATH}\` with full paging: 30 rows of \`Event\` and a count of all ${ROWS.toLocaleString('en')} in SQLite (bench/.data/), a ${bodyBytes.toLocaleString('en')}-byte JSON-LD body, byte-identical from the three servers (checked, with the content type and the \`Link\` header, for \`${checked.join('`, `')}\` before the runs)
- each server in its own process (\`node --import tsx bench/peers-server.ts <kind> <url>\`), all started at once; load from autocannon ${AUTOCANNON_VERSION} in the benchmark's process over loopback, ${CONNECTIONS} connections, no pipelining; the load generator and the server under load share the machine's cores
- server CPU time a response: the server process's user + system time over a run (\`process.cpuUsage()\`, asked over IPC while no load runs) divided by the responses of that run
- ${WARMUP} s of load on each server first, then ${RUNS} runs of ${SECONDS} s on each, the servers taking turns in a rotating order; a rate is the responses over the time from a turn's start to its last response, measured by the benchmark (autocannon rounds its own duration up to whole seconds); each figure is the median over the runs (latency percentiles as autocannon records them, in whole milliseconds)

${SERVERS.map(({ label, what }) => `- ${label}: ${what}`).join('\n')}

${table}

![Requests per second, latency percentiles and CPU time a response of the three servers](throughput.svg)

**Target: generated / hand-written ≥ ${TARGET} in requests per second: ${range(toHandwritten)}, ${met ? 'met' : 'NOT MET'}** (median and range over the runs). Generated / floor: ${range(toFloor)}. Both ratios are taken within each run (the three servers loaded one after the other within ${3 * SECONDS} s), then their median; per run, generated / hand-written: ${list(toHandwritten)}; generated / floor: ${list(toFloor)}.

Server CPU time a response (the server's \`process.cpuUsage()\` over a run, asked over IPC before and after it, divided by the responses of that run) is what the requests per second come to when a server has a core to itself, and other processes on the machine move it much less than they move the rates. In those terms, within each run and then the median: generated / hand-written ${range(cpuToHandwritten)} (per run: ${list(cpuToHandwritten)}), generated / floor ${range(cpuToFloor)} (per run: ${list(cpuToFloor)}); each is the other server's CPU time a response over the generated one's.
`
  await writeSection('throughput', report)
  console.log(`\n${table}\n`)
  console.log(
    `req/s: generated / hand-written ${handwrittenRatio.toFixed(3)} (target ≥ ${TARGET}: ${met ? 'met' : 'NOT MET'}); generated / floor ${floorRatio.toFixed(3)}. CPU a response: hand-written / generated ${median(cpuToHandwritten).toFixed(3)}, floor / generated ${median(cpuToFloor).toFixed(3)}`
  )
  console.log('Written to bench/RESULTS.md and bench/throughput.svg')
} finally {
  await stopServers(servers.values())
}
