/**
 * What the load benchmarks (bench/peers.ts, bench/throughput.ts, bench/filters.ts) share: server
 * processes that print `listening <port>`, a check that servers answer alike, turns of load from
 * autocannon timed here, turns taken in a rotating order, and medians with their spread; and the
 * in-process benchmarks' CPU time a call (`cpuPer`).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { refusedCheck } from './unanswered.js'

export const AUTOCANNON_VERSION = (
  createRequire(import.meta.url)('autocannon/package.json') as { version: string }
).version

/** A server process and where it listens. */
export interface Server {
  child: ChildProcess
  origin: string
}

/**
 * Starts `node <nodeOptions> --import tsx <script> ...args` and waits for its `listening <port>`
 * line, on this process's Node unless `node` names another binary. The process gets an IPC
 * channel: a server may answer the message `cpu` (see cpuTime).
 */
export async function startServer(
  script: string,
  args: readonly string[],
  nodeOptions: readonly string[] = [],
  node: string = process.execPath
): Promise<Server> {
  const child = spawn(node, [...nodeOptions, '--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  for await (const line of lines) {
    const match = /^listening (\d+)$/.exec(line)
    if (match) return { child, origin: `http://127.0.0.1:${match[1]}` }
  }
  throw new Error(`${script} ${args.join(' ')} exited before listening`)
}

/** Ends the servers and waits for their exit. */
export async function stopServers(servers: Iterable<Server>): Promise<void> {
  for (const { child } of servers) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    child.kill()
    await once(child, 'exit')
  }
}

/** The server process's CPU time so far (µs), asked over IPC while no load runs. */
export async function cpuTime(child: ChildProcess): Promise<number> {
  const reply = once(child, 'message')
  child.send('cpu')
  const [usage] = (await reply) as [NodeJS.CpuUsage]
  return usage.user + usage.system
}

/** One turn of load on one server. */
export interface Measure {
  /** Responses (any status) over the time from the start to the last response, in seconds. */
  perSecond: number
  p50: number
  p97_5: number
  p99: number
  /** Requests that ended: answered (whatever the status), timed out or failed. */
  total: number
  /** Errors, timeouts and non-2xx answers. */
  failures: number
  /** Non-2xx answers by status class (`5xx`: 12), for the report. */
  statuses: Record<string, number>
}

/**
 * One turn of load: `connections` connections asking for `origin + path` until `amount` requests
 * are answered, or for `seconds` seconds. The rate is taken here, from the responses over the time
 * between the start and the last response: autocannon only notices that a turn is over on its
 * one-second sampling tick and reports that whole-second duration, which bunches the rates of
 * short turns (`requests.average` is a mean of whole-second samples, the same problem).
 */
export async function loadTurn(
  origin: string,
  path: string,
  turn: { connections: number } & ({ amount: number } | { seconds: number }),
  options: { timeout?: number } = {}
): Promise<Measure> {
  const started = performance.now()
  let last = started
  let answered = 0
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${origin}${path}`,
        connections: turn.connections,
        // autocannon's default, 10 s, unless a benchmark allows more.
        timeout: options.timeout ?? 10,
        ...('amount' in turn ? { amount: turn.amount } : { duration: turn.seconds }),
      },
      (error, done) => (error ? reject(error) : resolve(done))
    )
    instance.on('response', () => {
      answered += 1
      last = performance.now()
    })
  })
  const elapsed = (last - started) / 1000
  const statuses: Record<string, number> = {}
  for (const status of ['1xx', '3xx', '4xx', '5xx'] as const) {
    if (result[status] > 0) statuses[status] = result[status]
  }
  if (result.timeouts > 0) statuses.timeouts = result.timeouts
  if (result.errors - result.timeouts > 0) statuses.errors = result.errors - result.timeouts
  return {
    perSecond: elapsed > 0 ? answered / elapsed : 0,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    total: answered + result.errors,
    failures: result.errors + result.non2xx,
    statuses,
  }
}

/** What a server answered to one request, for comparing servers. */
interface Answer {
  name: string
  status: number
  type: string | null
  link: string | undefined
  body: string
}

/** A page's view links as `Link` relations: the generated routes' own, which no peer writes. */
const VIEW_RELATIONS = new Set(['first', 'last', 'prev', 'next'])

/**
 * The `Link` header of an answer without the view's links and with its origin aside: the
 * hand-written peers write those links in the body alone, as the generated route does too, and
 * the header that repeats them (docs/paging.md) is part of the generated route's rate.
 */
function ownLinks(header: string | null, origin: string): string | undefined {
  if (header === null) return undefined
  return header
    .split(/,\s*(?=<)/)
    .filter((link) => !VIEW_RELATIONS.has(/;\s*rel="([^"]+)"/.exec(link)?.[1] ?? ''))
    .map((link) => link.replaceAll(origin, '<origin>'))
    .join(', ')
}

/**
 * Asks every server for `path` and throws unless all answer 200 with the same content type,
 * `Link` header (its origin and the view's links aside: each server has its own port) and body.
 * Returns the body's size.
 */
export async function checkSame(servers: ReadonlyMap<string, Server>, path: string) {
  const answers: Answer[] = await Promise.all(
    [...servers].map(async ([name, { origin }]) => {
      const response = await fetch(`${origin}${path}`)
      return {
        name,
        status: response.status,
        type: response.headers.get('content-type'),
        link: ownLinks(response.headers.get('link'), origin),
        body: await response.text(),
      }
    })
  )
  const [reference, ...others] = answers as [Answer, ...Answer[]]
  if (reference.status !== 200)
    throw refusedCheck(reference.name, path, reference.status, reference.body)
  for (const other of others) {
    for (const key of ['status', 'type', 'link', 'body'] as const) {
      if (other[key] !== reference[key]) {
        throw new Error(
          `${path}: ${other.name} and ${reference.name} differ in ${key}:\n${String(other[key]).slice(0, 400)}\n${String(reference[key]).slice(0, 400)}`
        )
      }
    }
  }
  return Buffer.byteLength(reference.body)
}

/** `items` in the order of run `run`: run r starts with item r, so each takes every position. */
export function rotated<T>(items: readonly T[], run: number): T[] {
  return items.map((_, index) => items[(index + run) % items.length] as T)
}

/**
 * CPU µs a call of `work` in this process (user + system, `process.cpuUsage()`), over `times` calls
 * one after the other: the in-process benchmarks' measure (validators.ts).
 */
export async function cpuPer(
  times: number,
  work: () => Promise<unknown> | unknown
): Promise<number> {
  const start = process.cpuUsage()
  for (let index = 0; index < times; index++) await work()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / times
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/** The median of `values` and their range. */
export interface Spread {
  median: number
  min: number
  max: number
}
export const spread = (values: readonly number[]): Spread => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
})

/** `1.02 (0.97–1.10)`: the median and the range, each with `digits` decimals. */
export const shownSpread = (value: Spread | undefined, digits = 2) =>
  value
    ? `${value.median.toFixed(digits)} (${value.min.toFixed(digits)}–${value.max.toFixed(digits)})`
    : '–'

/** Positive integers from the comma-separated environment variable `name`, or `fallback`'s. */
export function integers(name: string, fallback: string): number[] {
  const raw = process.env[name] ?? fallback
  const values = raw.split(',').map(Number)
  if (values.some((value) => !Number.isSafeInteger(value) || value < 1)) {
    throw new Error(`${name} must list positive integers, "${raw}" given`)
  }
  return values
}
