/**
 * Where one page's time goes, in-process, on the 10,000-row table of bench/peers.ts: the CPU time
 * a call (process.cpuUsage, µs) of each layer a generated route can read a page through, from
 * Prisma's client down to the driver. Rounds of each call alternate, so that the machine's load
 * falls on all of them alike; the median round is reported. On SQLite:
 *
 * - one partial page of 31 rows, through every layer from Prisma's client to the driver;
 * - page 2 and its count (full paging), as the compiled engine reads it (one statement), as it read
 *   it before (the adapter's transaction: BEGIN, the page, the count, COMMIT) and as the floor does;
 * - the dates of a page: the 31 stored texts of its `createdAt`, read as the compiled engine reads
 *   them and written as ISO text as the rendering writes them, against `new Date` and toISOString;
 * - the cursor page 30 % deep (the `where` the paging layer writes for it), by the compiled engine
 *   and as prepared statements: the expansion, and the row value the floor writes;
 * - the same page through Prisma's client (the `prisma` engine's read): `findMany` with the nested
 *   comparison the engines write of a position (runtime/src/plan/keyset.ts), with the expansion it wrote before, and
 *   Prisma's own `cursor` with `skip: 1` (the hand-written route of bench:peers).
 *
 * With BENCH_POSTGRES_URL (any database URL of the server), the full and cursor tables again on
 * PostgreSQL (`@prisma/adapter-pg`, node-postgres pools of 10), 10 calls in flight: CPU µs and
 * wall µs a call; the Prisma table one call at a time. With BENCH_MARIADB_URL, the Prisma table on
 * MariaDB (`@prisma/adapter-mariadb`).
 *
 *   npm run bench:engines
 *
 * Settings: BENCH_ENGINES_ROUNDS (7), BENCH_ENGINES_CALLS (2000 a round).
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaPg } from '@prisma/adapter-pg'
import { shareAdapter } from '@prisma-hydra/runtime'
import { createDataAccess } from '@prisma-hydra/runtime/generated'
import Database from 'better-sqlite3'
import pg from 'pg'
// The `prisma` engine's writer of the plan's conditions: the `where` Prisma reads of a position.
import { prismaWhere } from '../runtime/dist/data/prisma7/where.js'
// The compiled engine's row reader, priced alone. No entry exports it, nor should: rows reach
// applications only through the routes; the entries are what applications write, what generated
// modules import and what the generator shares.
import { rowReader } from '../runtime/src/data/compiled/row-values.js'
import { type EventRow, eventModel, eventOperations } from './.generated/hydra/event.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { integers, median } from './load.js'
import { eventRow, prepareDatabase } from './setup.js'
import { prepareMariadbDatabase, preparePostgresDatabase } from './setup-servers.js'

const [ROUNDS = 7] = integers('BENCH_ENGINES_ROUNDS', '7')
const [CALLS = 2000] = integers('BENCH_ENGINES_CALLS', '2000')
const ROWS = 10_000
const TAKE = 31
const SELECT = eventModel.compiled.select
const ORDER = ' ORDER BY "createdAt" DESC, "id" DESC'
const PAGE_SQL = `${SELECT}${ORDER} LIMIT ? OFFSET ?`
const COUNT_SQL = 'SELECT COUNT(*) FROM "Event"'
/** The feed's page 30 % deep, as bench/peers.ts asks for it: the position's row and 31 after. */
const AT = eventRow(ROWS - Math.round(ROWS * 0.3) + 1)
/**
 * The rows past it as the cursor paginator hands them over, which the compiled engine writes as one
 * row value on SQLite and PostgreSQL, and the nested comparison the `prisma` engine writes of it.
 */
const PAST = {
  keys: [
    { field: 'createdAt', direction: 'desc' as const },
    { field: 'id', direction: 'desc' as const },
  ],
  values: [AT.createdAt, AT.id],
  backward: false,
  inclusive: true,
}
const POSITION_WHERE = prismaWhere({ kind: 'past', past: PAST }) ?? {}
/** The window of a page past the position, as the cursor paginator asks for it. */
const PAST_POSITION = { take: 32, past: PAST }
/** The expansion it wrote before: one branch a field, each with the leading fields' equalities. */
const CURSOR_WHERE = {
  AND: [
    { createdAt: { lte: AT.createdAt } },
    {
      OR: [
        { createdAt: { lt: AT.createdAt } },
        { createdAt: AT.createdAt, id: { lt: AT.id } },
        { createdAt: AT.createdAt, id: AT.id },
      ],
    },
  ],
}
const EXPANSION_SQL = `${SELECT} WHERE ("createdAt" <= ? AND ("createdAt" < ? OR ("createdAt" = ? AND "id" < ?) OR ("createdAt" = ? AND "id" = ?)))${ORDER} LIMIT ?`
const ROW_VALUE_SQL = `${SELECT} WHERE ("createdAt", "id") <= (?, ?)${ORDER} LIMIT ?`
const intArgs = (n: number) =>
  Array.from({ length: n }, () => ({ scalarType: 'int', arity: 'scalar' }))
const numbered = (sql: string) => {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}
/** The view of a caller no rule bears on, as the data access checks it. */
const view = createDataAccess({}, eventModel).caller(
  {
    personal: false,
    scope: undefined,
    scopeOf: () => undefined,
    pageScopeOf: () => undefined,
    pageParentScope: undefined,
    hidden: new Set(),
    hiddenOf: () => new Set(),
    shownWhere: new Map(),
    shownWhereOf: () => new Map(),
  },
  { model: 'Event', operation: 'partial' }
)

/** What ends the connections opened. */
const closers: Array<() => Promise<unknown>> = []

/** The calls of one table, `inFlight` at a time. */
interface Table {
  title: string
  inFlight: number
  calls: Record<string, () => PromiseLike<unknown>>
}

/** A transaction of the page and the count on an adapter, as the compiled engine read them. */
// biome-ignore lint/suspicious/noExplicitAny: a driver adapter's connection (SqlDriverAdapter).
async function adapterTransaction(adapter: any, page: unknown, count: unknown, level?: string) {
  const transaction = await adapter.startTransaction(level)
  const results = await Promise.all([transaction.queryRaw(page), transaction.queryRaw(count)])
  await transaction.executeRaw({ sql: 'COMMIT', args: [], argTypes: [] })
  await transaction.commit()
  return results
}

async function sqliteTables(): Promise<Table[]> {
  const { url } = await prepareDatabase(ROWS)
  const adapter = shareAdapter(new PrismaBetterSqlite3({ url }))
  const prisma = new PrismaClient({ adapter })
  await prisma.$connect()
  // An adapter of its own for the adapter's lines (the shared one is the client's).
  // biome-ignore lint/suspicious/noExplicitAny: a driver adapter's connection (SqlDriverAdapter).
  const direct: any = await new PrismaBetterSqlite3({ url }).connect()
  const db = new Database(url.replace(/^file:/, ''), { readonly: true })
  closers.push(
    () => prisma.$disconnect(),
    async () => db.close(),
    () => direct.dispose()
  )
  const statement = db.prepare(PAGE_SQL)
  const count = db.prepare(COUNT_SQL).pluck()
  const expansion = db.prepare(EXPANSION_SQL)
  const rowValue = db.prepare(ROW_VALUE_SQL)
  const order = [{ createdAt: 'desc' as const }, { id: 'desc' as const }]
  const page = { skip: 30, take: TAKE }
  const prismaRows = createDataAccess<EventRow>(prisma, eventModel)
  const compiledRows = createDataAccess<EventRow>(prisma, eventModel, {
    engine: 'compiled',
    adapter,
  })
  const operation = eventOperations.partial
  const stored = AT.createdAt.toISOString().replace('Z', '+00:00')
  const dates = (rows: Array<{ createdAt: string }>) =>
    rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }))
  const query = (sql: string, args: unknown[]) => ({ sql, args, argTypes: intArgs(args.length) })
  const texts = (statement.all(TAKE, 30) as Array<{ createdAt: string }>).map(
    (row) => row.createdAt
  )
  const readDate = rowReader(['createdAt'], ['DateTime'])
  return [
    {
      title: `One page of ${TAKE} rows of ${ROWS.toLocaleString('en')} (SQLite)`,
      inFlight: 1,
      calls: {
        'prisma engine (createDataAccess, findMany)': () =>
          prismaRows.source(operation, {}, view).findMany(page),
        'compiled engine (createDataAccess, adapter)': () =>
          compiledRows.source(operation, {}, view).findMany(page),
        'client findMany': () =>
          prisma.event.findMany({ select: eventModel.select, orderBy: order, ...page }),
        'client $queryRawUnsafe, same SQL': () => prisma.$queryRawUnsafe(PAGE_SQL, TAKE, 30),
        "the client's adapter, queryRaw": () => direct.queryRaw(query(PAGE_SQL, [TAKE, 30])),
        'better-sqlite3 prepared statement': async () => statement.all(TAKE, 30),
        'prepared statement and JSON.stringify of its rows': async () =>
          JSON.stringify(statement.all(TAKE, 30)),
      },
    },
    {
      title: 'Page 2 of 30 rows and its count (SQLite)',
      inFlight: 1,
      calls: {
        'compiled engine (findManyAndCount): one statement': () =>
          compiledRows
            .source(eventOperations.collection, {}, view)
            .findManyAndCount?.({ skip: 30, take: 30 }) as PromiseLike<unknown>,
        "the adapter's transaction: BEGIN, page, count, COMMIT": () =>
          adapterTransaction(direct, query(PAGE_SQL, [30, 30]), query(COUNT_SQL, [])),
        'better-sqlite3: page and count prepared, rows with Dates': async () => [
          dates(statement.all(30, 30) as Array<{ createdAt: string }>),
          count.get(),
        ],
      },
    },
    {
      title: `The dates of a page: ${TAKE} stored texts read and written as ISO text`,
      inFlight: 1,
      calls: {
        'the compiled engine’s rows (rowReader), then toISOString()': async () =>
          texts.map((text) => (readDate([text]).createdAt as Date).toISOString()),
        'new Date(text), then toISOString() (the floor’s)': async () =>
          texts.map((text) => new Date(text).toISOString()),
      },
    },
    {
      title: 'The cursor page 30 % deep, 32 rows (SQLite)',
      inFlight: 1,
      calls: {
        'compiled engine (findMany, the paging layer’s where)': () =>
          compiledRows.source(eventOperations.feed, {}, view).findMany(PAST_POSITION),
        'better-sqlite3: the expansion prepared, rows with Dates': async () =>
          dates(expansion.all(stored, stored, stored, AT.id, stored, AT.id, 32) as never),
        'better-sqlite3: the row value prepared, rows with Dates': async () =>
          dates(rowValue.all(stored, AT.id, 32) as never),
      },
    },
    prismaCursorTable('SQLite', prisma),
  ]
}

async function postgresTables(server: string): Promise<Table[]> {
  const { url } = await preparePostgresDatabase(server, ROWS)
  const [{ PrismaClient: Client }, generated] = await Promise.all([
    import('./.generated-postgresql/prisma/client.js'),
    import('./.generated-postgresql/hydra/event.js'),
  ])
  const adapter = shareAdapter(new PrismaPg({ connectionString: url }))
  const prisma = new Client({ adapter })
  await prisma.$connect()
  const compiled = createDataAccess(prisma, generated.eventModel, { engine: 'compiled', adapter })
  // biome-ignore lint/suspicious/noExplicitAny: a driver adapter's connection (SqlDriverAdapter).
  const direct: any = await new PrismaPg({ connectionString: url }).connect()
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  closers.push(
    () => prisma.$disconnect(),
    () => pool.end(),
    () => direct.dispose()
  )
  const read = (name: string, sql: string, values: unknown[]) =>
    pool.query({ name, text: numbered(sql), values })
  const query = (sql: string, args: unknown[]) => ({
    sql: numbered(sql),
    args,
    argTypes: intArgs(args.length),
  })
  const utc = AT.createdAt.toISOString().replace('T', ' ').replace('Z', '')
  const operations = generated.eventOperations
  return [
    {
      title: 'Page 2 of 30 rows and its count (PostgreSQL, 10 in flight)',
      inFlight: 10,
      calls: {
        'compiled engine (findManyAndCount): one statement': () =>
          compiled
            .source(operations.collection, {}, view)
            .findManyAndCount?.({ skip: 30, take: 30 }) as PromiseLike<unknown>,
        "the adapter's transaction: BEGIN, SET TRANSACTION, page, count, COMMIT": () =>
          adapterTransaction(
            direct,
            query(PAGE_SQL, [30, 30]),
            query(COUNT_SQL, []),
            'REPEATABLE READ'
          ),
        'node-postgres: page and count side by side, prepared': () =>
          Promise.all([read('page', PAGE_SQL, [30, 30]), read('count', COUNT_SQL, [])]),
      },
    },
    {
      title: 'The cursor page 30 % deep, 32 rows (PostgreSQL, 10 in flight)',
      inFlight: 10,
      calls: {
        'compiled engine (findMany, the paging layer’s where)': () =>
          compiled.source(operations.feed, {}, view).findMany(PAST_POSITION),
        'node-postgres: the expansion prepared': () =>
          read('expansion', EXPANSION_SQL, [utc, utc, utc, AT.id, utc, AT.id, 32]),
        'node-postgres: the row value prepared': () =>
          read('row value', ROW_VALUE_SQL, [utc, AT.id, 32]),
      },
    },
    prismaCursorTable('PostgreSQL', prisma as unknown as PrismaClient),
  ]
}

/** The feed page through a Prisma client of the bench schema, as the `prisma` engine reads it. */
function prismaCursorTable(database: string, prisma: Pick<PrismaClient, 'event'>): Table {
  const select = { id: true, createdAt: true, payload: true }
  const orderBy = [{ createdAt: 'desc' as const }, { id: 'desc' as const }]
  return {
    title: `The cursor page 30 % deep through Prisma's client (${database})`,
    inFlight: 1,
    calls: {
      'findMany, the nested comparison (plan/keyset.ts), 32 rows': () =>
        prisma.event.findMany({ select, orderBy, take: 32, where: POSITION_WHERE }),
      'findMany, the expansion it wrote before, 32 rows': () =>
        prisma.event.findMany({ select, orderBy, take: 32, where: CURSOR_WHERE }),
      "findMany, Prisma's cursor and skip: 1 (hand-written), 31 rows": () =>
        prisma.event.findMany({ select, orderBy, take: 31, skip: 1, cursor: { id: AT.id } }),
    },
  }
}

async function mariadbTables(server: string): Promise<Table[]> {
  const { url } = await prepareMariadbDatabase(server, ROWS)
  const [{ PrismaMariaDb }, { PrismaClient: Client }] = await Promise.all([
    import('@prisma/adapter-mariadb'),
    import('./.generated-mysql/prisma/client.js'),
  ])
  const prisma = new Client({ adapter: new PrismaMariaDb(url) })
  await prisma.$connect()
  closers.push(() => prisma.$disconnect())
  return [prismaCursorTable('MariaDB', prisma as unknown as PrismaClient)]
}

/** CPU µs and wall µs a call over one round. */
async function round(table: Table, call: () => PromiseLike<unknown>): Promise<[number, number]> {
  const before = process.cpuUsage()
  const started = performance.now()
  let left = CALLS
  await Promise.all(
    Array.from({ length: table.inFlight }, async () => {
      while (left-- > 0) await call()
    })
  )
  const spent = process.cpuUsage(before)
  return [(spent.user + spent.system) / CALLS, ((performance.now() - started) * 1000) / CALLS]
}

const shown = (values: number[]) =>
  `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`

const env = process.env
const server = env.BENCH_POSTGRES_URL
const mariadb = env.BENCH_MARIADB_URL
const tables = [
  ...(await sqliteTables()),
  ...(server ? await postgresTables(server) : []),
  ...(mariadb ? await mariadbTables(mariadb) : []),
]
const calls = tables.flatMap((table) =>
  Object.entries(table.calls).map(([name, call]) => ({
    table,
    name,
    call,
    results: [] as number[][],
  }))
)
for (const { table, call } of calls) await round(table, call) // warm-up
for (let index = 0; index < ROUNDS; index++) {
  for (const entry of calls) entry.results.push(await round(entry.table, entry.call))
}
for (const table of tables) {
  const wall = table.inFlight > 1
  process.stdout.write(
    `\n${table.title}, µs a call, median of ${ROUNDS} rounds of ${CALLS} (range):\n\n| call | CPU |${wall ? ' wall |' : ''}\n|---|---:|${wall ? '---:|' : ''}\n`
  )
  for (const { name, results } of calls.filter((entry) => entry.table === table)) {
    const cpu = shown(results.map(([value]) => value as number))
    const elapsed = wall ? ` ${shown(results.map(([, value]) => value as number))} |` : ''
    process.stdout.write(`| ${name} | ${cpu} |${elapsed}\n`)
  }
}
for (const close of closers) await close()
