/**
 * Load past what a database serves: 50, 100 and 200 connections asking without pause for
 * `GET /books?page=2` (a page and its count) of the example app, with its default budget (10 s),
 * on SQLite always, on PostgreSQL and MariaDB when BENCH_POSTGRES_URL and BENCH_MARIADB_URL name a
 * server (a database of its own there, dropped at the end). For each: the share of requests
 * answered 200 within the budget (from autocannon's send to the last byte), the share answered
 * 503, the requests left unanswered after 30 s (autocannon's timeout here) or failed, and the p99
 * of every answer's time, with the machine's load average (1 min) when the turn ended: on a shared
 * machine the figures move with it. On PostgreSQL and MariaDB the same turns run again while
 * another connection holds the Book table (as example-app/test/support/table-lock.ts does), so that every
 * read waits until the driver's lock bound (5 s) and the pool's queue grows: the requests the
 * database cannot serve in time. Not on SQLite, whose driver would hold the process through each
 * wait for the lock. Writes its section of bench/RESULTS.md, one per
 * `BENCH_BUDGET_LABEL`, which names the runtime measured (`before` for a build of an earlier
 * commit in runtime/dist and the example app of that commit, for a before and after on one
 * machine; `current` by default).
 *
 *   npm run bench:budget
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test \
 *   BENCH_MARIADB_URL=mysql://root@127.0.0.1:3306/test BENCH_BUDGET_SECONDS=10 npm run bench:budget
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createScratchDatabase } from '@prisma-hydra/prisma-offline/scratch-database'
import autocannon from 'autocannon'
import mariadb from 'mariadb'
import pg from 'pg'
import { type Server, startServer as startScript, stopServers } from './load.js'
import { machine, writeSection } from './report.js'

const SERVER = fileURLToPath(new URL('./budget-server.ts', import.meta.url))
const PATH = '/books?page=2'
/** The example app's budget (createHydraApp's default `query`). */
const BUDGET_MS = 10_000
/** How long autocannon waits for an answer before it counts the request unanswered, in seconds. */
const UNANSWERED_AFTER = 30
const CONNECTIONS = [50, 100, 200] as const
const { BENCH_BUDGET_SECONDS, BENCH_BUDGET_LABEL } = process.env
const SECONDS = Number(BENCH_BUDGET_SECONDS ?? 10)
const LABEL = BENCH_BUDGET_LABEL ?? 'current'

/** A database the bench runs on. */
interface Target {
  name: string
  url: string
  condition: string | undefined
  /** The test suite's name of the database (table-lock.ts), for a server. */
  locked?: 'postgresql' | 'mysql' | undefined
  drop: () => Promise<void>
}

async function targets(): Promise<Target[]> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'budget-load-'))
  const found: Target[] = [
    {
      name: 'SQLite',
      url: `file:${path.join(folder, 'library.db')}`,
      condition: undefined,
      drop: () => rm(folder, { recursive: true, force: true }),
    },
  ]
  for (const [name, variable, condition] of [
    ['PostgreSQL', 'BENCH_POSTGRES_URL', 'postgresql'],
    ['MariaDB', 'BENCH_MARIADB_URL', 'mysql'],
  ] as const) {
    const server = process.env[variable]
    if (!server) continue
    const scratch = await createScratchDatabase(server, { prefix: 'bench_budget' })
    found.push({ name, url: scratch.url, condition, locked: condition, drop: scratch.drop })
  }
  return found
}

/** Holds the Book table from a connection of its own until `release`. */
async function holdBooks(target: Target): Promise<{ release: () => Promise<void> }> {
  if (target.locked === 'mysql') {
    const connection = await mariadb.createConnection(target.url.replace(/^mysql:/, 'mariadb:'))
    await connection.query('LOCK TABLES `Book` WRITE')
    return {
      release: async () => {
        await connection.query('UNLOCK TABLES')
        await connection.end()
      },
    }
  }
  const client = new pg.Client({ connectionString: target.url })
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

/** Starts the server over `target`'s database with its provider's generated code. */
function startServer(target: Target): Promise<Server> {
  const conditions = target.condition ? [`--conditions=${target.condition}`] : []
  return startScript(SERVER, [target.url], conditions)
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

const lines = [
  `## Load past the budget: ${LABEL}`,
  '',
  `\`npm run bench:budget\` with BENCH_BUDGET_LABEL=${LABEL}: ${SECONDS} s a turn after a warm-up, \`GET ${PATH}\` of the example app, budget ${BUDGET_MS} ms, autocannon ${UNANSWERED_AFTER} s timeout. ${machine()}.`,
  '',
  '| database | Book | connections | requests | 200 within budget | any answer within budget | 503 | unanswered (30 s) or failed | p99 | load average (1 min) |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
]
for (const target of await targets()) {
  const server = await startServer(target)
  try {
    // A first turn that opens the pool's connections and warms the code, not reported.
    await turn(server.origin, 10, 3)
    const report = (book: string, row: Row) => {
      lines.push(
        `| ${target.name} | ${book} | ${row.connections} | ${row.requests} | ${percent(row.withinBudget, row.requests)} | ${percent(row.answeredInTime, row.requests)} | ${percent(row.unavailable, row.requests)} | ${row.unanswered} | ${row.p99} ms | ${row.load.toFixed(1)} |`
      )
      console.error(lines.at(-1))
    }
    for (const connections of CONNECTIONS) report('free', await turn(server.origin, connections))
    if (target.locked) {
      const held = await holdBooks(target)
      try {
        for (const connections of CONNECTIONS)
          report('held', await turn(server.origin, connections))
      } finally {
        await held.release()
      }
    }
  } finally {
    await stopServers([server])
    await target.drop()
  }
}
const slug = LABEL.toLowerCase().replace(/[^a-z0-9]+/g, '-')
await writeSection(`budget-${slug}`, lines.join('\n'))
console.log(lines.join('\n'))
