/**
 * Load past what a database serves: 50, 100 and 200 connections asking without pause for
 * `GET /books?page=2` (a page and its count) of the example app, with its default budget (10 s),
 * on SQLite always, on PostgreSQL and MariaDB when BENCH_POSTGRES_URL and BENCH_MARIADB_URL name a
 * server (a database of its own there for each server measured, dropped at the end). Two servers
 * are measured in the same run: the work tree's and a release's (`BENCH_BUDGET_BASELINE`, default
 * 0.3.1, the last release before the budget's changes of 0.4.0; `none` measures the work tree
 * alone), its runtime with its example app, built and generated from its commit in a tree of its
 * own (bench/budget-release.ts) and removed at the end. They take turns, each turn of one server
 * followed by the same turn of the other, in an order that alternates from one turn to the next.
 * The first turn of each server is its cold start: 100 connections for 8 s on a server that has
 * served no request yet (its code not yet run on one, its pool's connections opened for them), the
 * first 8 s of a server started under load. For each turn: the share of requests answered 200 within the budget (from autocannon's send to
 * the last byte), the share answered 503, the requests left unanswered after 30 s (autocannon's
 * timeout here) or failed, and the p99 of every answer's time, with the machine's load average
 * (1 min) when the turn ended: on a shared machine the figures move with it. On PostgreSQL and
 * MariaDB the same turns run again while another connection holds each server's Book table (as
 * example-app/test/support/table-lock.ts does), so that every read waits until the driver's lock
 * bound (5 s) and the pool's queue grows: the requests the database cannot serve in time. Not on
 * SQLite, whose driver would hold the process through each wait for the lock. Writes its section
 * of bench/RESULTS.md.
 *
 *   npm run bench:budget
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test \
 *   BENCH_MARIADB_URL=mysql://root@127.0.0.1:3306/test BENCH_BUDGET_SECONDS=10 npm run bench:budget
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createScratchDatabase } from '@prisma-hydra/prisma-offline/scratch-database'
import autocannon from 'autocannon'
import mariadb from 'mariadb'
import pg from 'pg'
import { prepareRelease, type Release } from './budget-release.js'
import { rotated, type Server, startServer as startScript, stopServers } from './load.js'
import { machine, writeSection } from './report.js'
import { atTeardown } from './teardown.js'

const SERVER = fileURLToPath(new URL('./budget-server.ts', import.meta.url))
const PATH = '/books?page=2'
/** The example app's budget (createHydraApp's default `query`). */
const BUDGET_MS = 10_000
/** How long autocannon waits for an answer before it counts the request unanswered, in seconds. */
const UNANSWERED_AFTER = 30
const CONNECTIONS = [50, 100, 200] as const
/** The connections and seconds of the turn of a server's cold start, its first requests. */
const COLD_CONNECTIONS = 100
const COLD_SECONDS = 8
const { BENCH_BUDGET_SECONDS, BENCH_BUDGET_BASELINE } = process.env
const SECONDS = Number(BENCH_BUDGET_SECONDS ?? 10)
const BASELINE = BENCH_BUDGET_BASELINE ?? '0.3.1'

/** A database the bench runs on: each server measured gets one of its own. */
interface Target {
  name: string
  condition: string | undefined
  /** The test suite's name of the database (table-lock.ts), for a server. */
  locked?: 'postgresql' | 'mysql' | undefined
  /** A new database; `drop` removes it. */
  create: () => Promise<{ url: string; drop: () => Promise<void> }>
}

function targets(): Target[] {
  const found: Target[] = [
    {
      name: 'SQLite',
      condition: undefined,
      create: async () => {
        const folder = await mkdtemp(path.join(os.tmpdir(), 'budget-load-'))
        const url = `file:${path.join(folder, 'library.db')}`
        return { url, drop: () => rm(folder, { recursive: true, force: true }) }
      },
    },
  ]
  for (const [name, variable, condition] of [
    ['PostgreSQL', 'BENCH_POSTGRES_URL', 'postgresql'],
    ['MariaDB', 'BENCH_MARIADB_URL', 'mysql'],
  ] as const) {
    const server = process.env[variable]
    if (!server) continue
    const create = () => createScratchDatabase(server, { prefix: 'bench_budget' })
    found.push({ name, condition, locked: condition, create })
  }
  return found
}

/** Holds the Book table of `url` from a connection of its own until `release`. */
async function holdBooks(
  locked: 'postgresql' | 'mysql',
  url: string
): Promise<{ release: () => Promise<void> }> {
  if (locked === 'mysql') {
    const connection = await mariadb.createConnection(url.replace(/^mysql:/, 'mariadb:'))
    await connection.query('LOCK TABLES `Book` WRITE')
    return {
      release: async () => {
        await connection.query('UNLOCK TABLES')
        await connection.end()
      },
    }
  }
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query('BEGIN')
  await client.query('LOCK TABLE "Book" IN ACCESS EXCLUSIVE MODE')
  return {
    release: async () => {
      await client.query('COMMIT')
      await client.end()
    },
  }
}

/** A server measured: the work tree's or a release's, and its script. */
interface Side {
  name: string
  script: string
}

/** A side's server over a database of its own. */
interface Served {
  side: Side
  url: string
  server: Server
  close: () => Promise<void>
}

/** Starts `side`'s server over a new database of `target` with its provider's generated code. */
async function serve(target: Target, side: Side): Promise<Served> {
  const database = await target.create()
  const forgetDatabase = atTeardown(database.drop)
  const conditions = target.condition ? [`--conditions=${target.condition}`] : []
  let server: Server
  try {
    server = await startScript(side.script, [database.url], conditions)
  } catch (error) {
    forgetDatabase()
    await database.drop()
    throw error
  }
  const stop = () => stopServers([server])
  const forgetServer = atTeardown(stop)
  const close = async () => {
    forgetServer()
    forgetDatabase()
    try {
      await stop()
    } finally {
      await database.drop()
    }
  }
  return { side, url: database.url, server, close }
}

interface Row {
  connections: number
  requests: number
  withinBudget: number
  /** Answers of any status within the budget. */
  answeredInTime: number
  unavailable: number
  unanswered: number
  p99: number
  load: number
}

/** One turn of `connections` connections for `seconds` seconds. */
async function turn(origin: string, connections: number, seconds = SECONDS): Promise<Row> {
  let withinBudget = 0
  let answeredInTime = 0
  let unavailable = 0
  let answered = 0
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: `${origin}${PATH}`, connections, duration: seconds, timeout: UNANSWERED_AFTER },
      (error, done) => (error ? reject(error) : resolve(done))
    )
    instance.on('response', (_client, status: number, _bytes: number, ms: number) => {
      answered++
      if (ms <= BUDGET_MS) answeredInTime++
      if (status === 200 && ms <= BUDGET_MS) withinBudget++
      if (status === 503) unavailable++
    })
  })
  const unanswered = result.errors
  return {
    connections,
    requests: answered + unanswered,
    withinBudget,
    answeredInTime,
    unavailable,
    unanswered,
    p99: result.latency.p99,
    load: os.loadavg()[0] as number,
  }
}

const percent = (part: number, whole: number) =>
  whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`

const lines: string[] = []
/** Turns taken so far: the next pair starts with the server the last one ended with. */
let turns = 0

/** A turn of each server, in an order that alternates: `connections` for `seconds` each. */
async function pair(
  target: Target,
  book: string,
  served: readonly Served[],
  connections: number,
  seconds = SECONDS
): Promise<void> {
  const rows = new Map<Served, { row: Row; order: number }>()
  for (const [order, one] of rotated(served, turns++).entries())
    rows.set(one, { row: await turn(one.server.origin, connections, seconds), order: order + 1 })
  for (const one of served) {
    const { row, order } = rows.get(one) as { row: Row; order: number }
    lines.push(
      `| ${target.name} | ${book} | ${row.connections} | ${one.side.name} | ${order} | ${row.requests} | ${percent(row.withinBudget, row.requests)} | ${percent(row.answeredInTime, row.requests)} | ${percent(row.unavailable, row.requests)} | ${row.unanswered} | ${row.p99} ms | ${row.load.toFixed(1)} |`
    )
    console.error(lines.at(-1))
  }
}

/** A turn of each server under each number of connections, the Book table `book`. */
async function phase(target: Target, book: string, served: readonly Served[]): Promise<void> {
  for (const connections of CONNECTIONS) await pair(target, book, served, connections)
}

/** Every turn on `target`: the table free, then (on a server) held. */
async function measure(target: Target, sides: readonly Side[]): Promise<void> {
  const served: Served[] = []
  try {
    for (const side of sides) served.push(await serve(target, side))
    // Each server's first requests: a cold start, its code not yet run on a request, its pool's
    // connections opened for them.
    await pair(target, 'free, cold start', served, COLD_CONNECTIONS, COLD_SECONDS)
    // A first turn that opens each pool's connections and warms the code, not reported.
    for (const one of served) await turn(one.server.origin, 10, 3)
    await phase(target, 'free', served)
    if (!target.locked) return
    const held: { release: () => Promise<void> }[] = []
    try {
      for (const one of served) held.push(await holdBooks(target.locked, one.url))
      await phase(target, 'held', served)
    } finally {
      for (const hold of held) await hold.release()
    }
  } finally {
    for (const one of served) await one.close()
  }
}

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim()
const changed = git('status', '--porcelain', '--untracked-files=no') !== ''
const head = `HEAD ${git('rev-parse', '--short', 'HEAD')}${changed ? ' with uncommitted changes' : ''}`
const release: Release | undefined =
  BASELINE === 'none' ? undefined : await prepareRelease(BASELINE, SERVER)
try {
  const sides: Side[] = [
    { name: 'work tree', script: SERVER },
    ...(release ? [{ name: release.version, script: release.server }] : []),
  ]
  for (const target of targets()) await measure(target, sides)
} finally {
  release?.remove()
}
const measured = release
  ? `the work tree (${head}) and the release ${release.version} (its commit ${release.commit.slice(0, 7)}, \`BENCH_BUDGET_BASELINE\`), each server over a database of its own, taking turns in an order that alternates from one turn to the next (\`turn\`: first or second of its pair)`
  : `the work tree (${head}) alone (\`BENCH_BUDGET_BASELINE=none\`)`
const section = [
  '## Load past the budget',
  '',
  `\`npm run bench:budget\`: ${measured}; each server's first turn its cold start (${COLD_CONNECTIONS} connections for ${COLD_SECONDS} s, before any other request), then ${SECONDS} s a turn after a warm-up, \`GET ${PATH}\` of the example app, budget ${BUDGET_MS} ms, autocannon ${UNANSWERED_AFTER} s timeout; the load average (1 min) when each turn ended. ${machine()}.`,
  '',
  '| database | Book | connections | server | turn | requests | 200 within budget | any answer within budget | 503 | unanswered (30 s) or failed | p99 | load average (1 min) |',
  '|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...lines,
].join('\n')
await writeSection('budget', section)
console.log(section)
