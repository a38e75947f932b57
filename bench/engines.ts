/**
 * Where one page's time goes, in-process, on the 10,000-row SQLite table of bench/peers.ts: the
 * CPU time a call (process.cpuUsage, µs) of each layer a generated route can read one page of 31
 * rows through, from Prisma's client down to the driver. Rounds of each call alternate, so that the
 * machine's load falls on all of them alike; the median round is reported.
 *
 *   npm run bench:engines
 *
 * Settings: BENCH_ENGINES_ROUNDS (7), BENCH_ENGINES_CALLS (2000 a round).
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { shareAdapter } from '@prisma-hydra/runtime'
import { createDataAccess } from '@prisma-hydra/runtime/generated'
import Database from 'better-sqlite3'
import type { Context } from 'hono'
import { type EventRow, eventModel, eventOperations } from './.generated/hydra/event.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { integers, median } from './load.js'
import { prepareDatabase } from './setup.js'

const [ROUNDS = 7] = integers('BENCH_ENGINES_ROUNDS', '7')
const [CALLS = 2000] = integers('BENCH_ENGINES_CALLS', '2000')
const ROWS = 10_000
const TAKE = 31

const { url } = await prepareDatabase(ROWS)
const adapter = shareAdapter(new PrismaBetterSqlite3({ url }))
const prisma = new PrismaClient({ adapter })
await prisma.$connect()
// An adapter of its own for the adapter's line (the shared one is the client's).
const direct = (await new PrismaBetterSqlite3({ url }).connect()) as unknown as {
  queryRaw(query: { sql: string; args: unknown[]; argTypes: unknown[] }): Promise<unknown>
}
const db = new Database(url.replace(/^file:/, ''), { readonly: true })

const SQL = `${eventModel.compiled.select} ORDER BY "createdAt" DESC, "id" DESC LIMIT ? OFFSET ?`
const statement = db.prepare(SQL)
const order = [{ createdAt: 'desc' as const }, { id: 'desc' as const }]
const page = { skip: 30, take: TAKE }
const prismaRows = createDataAccess<EventRow>(prisma, eventModel)
const compiledRows = createDataAccess<EventRow>(prisma, eventModel, {
  engine: 'compiled',
  adapter,
})
const operation = eventOperations.partial
// No access rules: the view of every caller, read without a request.
const view = await prismaRows.caller({} as Context, { model: 'Event', operation: 'partial' })
const intArgs = [
  { scalarType: 'int', arity: 'scalar' },
  { scalarType: 'int', arity: 'scalar' },
]

const CALLS_MEASURED: Record<string, () => Promise<unknown>> = {
  'prisma engine (createDataAccess, findMany)': () =>
    prismaRows.source(operation, {}, view).findMany(page) as Promise<unknown>,
  'compiled engine (createDataAccess, adapter)': () =>
    compiledRows.source(operation, {}, view).findMany(page) as Promise<unknown>,
  'client findMany': () =>
    prisma.event.findMany({ select: eventModel.select, orderBy: order, ...page }),
  'client $queryRawUnsafe, same SQL': () => prisma.$queryRawUnsafe(SQL, TAKE, 30),
  "the client's adapter, queryRaw": () =>
    direct.queryRaw({ sql: SQL, args: [TAKE, 30], argTypes: intArgs }),
  'better-sqlite3 prepared statement': async () => statement.all(TAKE, 30),
  'prepared statement and JSON.stringify of its rows': async () =>
    JSON.stringify(statement.all(TAKE, 30)),
}

async function round(call: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage()
  for (let index = 0; index < CALLS; index++) await call()
  const spent = process.cpuUsage(before)
  return (spent.user + spent.system) / CALLS
}

const results = new Map<string, number[]>()
for (const call of Object.values(CALLS_MEASURED)) await round(call) // warm-up
for (let index = 0; index < ROUNDS; index++) {
  for (const [name, call] of Object.entries(CALLS_MEASURED)) {
    const list = results.get(name) ?? []
    list.push(await round(call))
    results.set(name, list)
  }
}
process.stdout.write(
  `One page of ${TAKE} rows of ${ROWS.toLocaleString('en')} (SQLite), CPU µs a call, median of ${ROUNDS} rounds of ${CALLS} (range):\n\n| call | µs |\n|---|---:|\n`
)
for (const [name, values] of results)
  process.stdout.write(
    `| ${name} | ${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}) |\n`
  )
await prisma.$disconnect()
db.close()
