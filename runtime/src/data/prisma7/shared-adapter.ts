/**
 * @module
 * The connection the `compiled` engine reads through: the driver adapter the application's Prisma
 * Client itself connected (its pool on PostgreSQL and MariaDB, its one connection on SQLite), or,
 * when the application did not share it, the client's `$queryRawUnsafe`. Prisma keeps the adapter
 * it connects in a private field, so the application wraps its adapter factory once with
 * `shareAdapter` and hands the same object to the client and to the app (docs/performance.md).
 * The adapter it shares begins its transactions in one round trip where it can (prisma7/transaction-start.ts).
 */
import { inSpan, loadedTracer } from '../../observe/tracing.js'
import { mariadbStatements } from '../compiled/mariadb.js'
import { postgresStatements } from '../compiled/postgres.js'
import type { ArgType, SqlQuery } from '../compiled/query.js'
import type { SqlRunner } from '../compiled/sql-runner.js'
import { sqliteStatements } from '../compiled/sqlite.js'
import { beginInOneRoundTrip } from './transaction-start.js'

/** What the engine calls on a driver adapter or its transaction (`@prisma/driver-adapter-utils`). */
interface Queryable {
  queryRaw(query: SqlQuery): Promise<{ rows: unknown[][] }>
  executeRaw(query: SqlQuery): Promise<number>
}
interface Transaction extends Queryable {
  readonly options: { usePhantomQuery: boolean }
  commit(): Promise<void>
  rollback(): Promise<void>
}
interface Adapter extends Queryable {
  startTransaction(isolationLevel?: string): Promise<Transaction>
}

/** A driver adapter factory, as `new PrismaClient({ adapter })` takes it. */
export interface AdapterFactory {
  /** The database it connects to (`sqlite`, `postgres`, `mysql`). */
  readonly provider: string
  /** The adapter's package (`@prisma/adapter-pg`). */
  readonly adapterName: string
  /** Opens the adapter's connection. */
  // biome-ignore lint/suspicious/noExplicitAny: any adapter's connection (SqlDriverAdapter).
  connect(): Promise<any>
}

const CONNECTIONS = new WeakMap<object, () => Adapter | undefined>()

/**
 * `factory`, sharing the connection it makes: give the result to `new PrismaClient({ adapter })`
 * and to `createHydraApp({ adapter })`, and `compiled` reads run on the client's own connection.
 */
export function shareAdapter<Factory extends AdapterFactory>(factory: Factory): Factory {
  let current: Adapter | undefined
  const connect = async () => {
    const adapter = beginInOneRoundTrip(await factory.connect())
    current = adapter
    const dispose = adapter.dispose?.bind(adapter)
    if (dispose)
      adapter.dispose = () => {
        if (current === adapter) current = undefined
        return dispose()
      }
    return adapter
  }
  const shared = new Proxy(factory, {
    get(target, property) {
      if (property === 'connect') return connect
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  CONNECTIONS.set(shared, () => current)
  return shared
}

const ISOLATION: Record<string, string> = {
  Serializable: 'SERIALIZABLE',
  RepeatableRead: 'REPEATABLE READ',
}
const STATEMENT = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] as ArgType[] })

/**
 * A runner over the shared adapter of the client `prisma` (connected by `$connect` when needed).
 * Its statements bypass the client, so they are traced here (`hydra.sql`, unless `tracing` is
 * false), where Prisma's own spans trace the client's.
 */
export function adapterRunner(
  shared: AdapterFactory,
  prisma: object,
  tracing?: boolean | undefined
): SqlRunner | undefined {
  const connection = CONNECTIONS.get(shared)
  if (!connection) return undefined
  const client = prisma as { $connect(): Promise<void> }
  const adapter = async (): Promise<Adapter> => {
    const known = connection()
    if (known) return known
    await client.$connect()
    const connected = connection()
    if (!connected) throw new Error('The shared adapter is not the Prisma Client’s own adapter.')
    return connected
  }
  // Statements prepared once: on SQLite on the adapter's connection (compiled/sqlite.ts), on
  // MariaDB and PostgreSQL on each connection of its pool (compiled/mariadb.ts,
  // compiled/postgres.ts).
  type Reader = (query: SqlQuery) => unknown[][] | undefined | Promise<unknown[][] | undefined>
  const prepared = new WeakMap<object, Reader | null>()
  const run = (queryable: Queryable, query: SqlQuery) =>
    inSpan(
      loadedTracer(tracing),
      'hydra.sql',
      { 'db.system.name': systemName(shared.provider), 'db.query.text': query.sql },
      () => runOn(queryable, query)
    )
  const runOn = async (queryable: Queryable, query: SqlQuery) => {
    const connection = (queryable as { client?: unknown }).client
    let read: Reader | null | undefined
    if (typeof connection === 'object' && connection !== null) {
      read = prepared.get(connection)
      if (read === undefined) {
        read =
          sqliteStatements(queryable) ??
          mariadbStatements(queryable) ??
          postgresStatements(queryable) ??
          null
        prepared.set(connection, read)
      }
    }
    return (await read?.(query)) ?? (await queryable.queryRaw(query)).rows
  }
  // On PostgreSQL one after another's answer: node-postgres deprecates a query sent while its
  // connection runs another (its next major refuses it). Elsewhere sent together: on SQLite's one
  // connection another request's statement could otherwise land between them (better-sqlite3
  // runs each at once, so together they run with nothing between), and MariaDB's connector
  // pipelines a connection's statements, answering them in order.
  const runAll = async (transaction: Queryable, queries: readonly SqlQuery[]) => {
    if (shared.provider !== 'postgres')
      return Promise.all(queries.map((query) => run(transaction, query)))
    const results: unknown[][][] = []
    for (const query of queries) results.push(await run(transaction, query))
    return results
  }
  return {
    typed: false,
    rows: async (query) => run(connection() ?? (await adapter()), query),
    async snapshot(queries, isolationLevel) {
      const transaction = await (await adapter()).startTransaction(ISOLATION[isolationLevel])
      const { usePhantomQuery } = transaction.options
      try {
        const results = await runAll(transaction, queries)
        if (!usePhantomQuery) await transaction.executeRaw(STATEMENT('COMMIT'))
        await transaction.commit()
        return results
      } catch (error) {
        if (!usePhantomQuery)
          await transaction.executeRaw(STATEMENT('ROLLBACK')).catch(() => undefined)
        await transaction.rollback().catch(() => undefined)
        throw error
      }
    },
  }
}

/** OpenTelemetry's `db.system.name` of an adapter's provider. */
const systemName = (provider: string): string => (provider === 'postgres' ? 'postgresql' : provider)

interface RawClient {
  $queryRawUnsafe(sql: string, ...values: unknown[]): PromiseLike<Record<string, unknown>[]>
  $transaction(
    queries: PromiseLike<unknown>[],
    options: { isolationLevel: string }
  ): Promise<unknown[]>
}

/** A runner over the client's `$queryRawUnsafe`: the same client, its values typed by Prisma. */
export function clientRunner(prisma: object): SqlRunner {
  const client = prisma as RawClient
  const raw = (query: SqlQuery) => client.$queryRawUnsafe(query.sql, ...query.args)
  const values = (rows: Record<string, unknown>[]) => rows.map((row) => Object.values(row))
  return {
    typed: true,
    rows: async (query) => values(await raw(query)),
    async snapshot(queries, isolationLevel) {
      const results = await client.$transaction(queries.map(raw), { isolationLevel })
      return (results as Record<string, unknown>[][]).map(values)
    },
  }
}
