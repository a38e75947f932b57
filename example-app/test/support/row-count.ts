/**
 * A driver adapter factory that counts the rows the database hands back for the statements
 * reading one table, and keeps those statements, whoever sends them (Prisma's query layer, or the compiled engine through a
 * shared adapter): how a test sees what a request reads.
 */

/** What a statement and its answer look like to a driver adapter (`@prisma/driver-adapter-utils`). */
interface Queryable {
  queryRaw(query: { sql: string }): Promise<{ rows: unknown[] }>
}

/** Counts the rows read from a table through a factory. */
export interface RowCount<F> {
  factory: F
  /** The rows read from the table since the last `reset`. */
  read(): number
  /** The statements that read the table since the last `reset`, as sent. */
  statements(): readonly string[]
  reset(): void
}

/** `factory`, counting the rows of each statement that reads `table` (in its `FROM` or a join). */
export function countRows<F extends { connect(): Promise<unknown> }>(
  factory: F,
  table: string
): RowCount<F> {
  const reads = new RegExp(`\\b(?:FROM|JOIN)\\s+(?:[\`"][^\`"]+[\`"]\\.)?[\`"]${table}[\`"]`, 'i')
  let rows = 0
  let statements: string[] = []
  const record = (sql: string, read: number) => {
    if (!reads.test(sql)) return
    rows += read
    statements.push(sql)
  }
  // A transaction begun through a `startTransaction` wrapped twice (this proxy's, then
  // runtime/src/data/prisma7/transaction-start.ts's around it) is counted once, not once a wrapper.
  const proxies = new WeakSet<object>()
  const counted = <Q extends object>(queryable: Q): Q => {
    if (proxies.has(queryable)) return queryable
    const proxy = new Proxy(queryable, {
      get(target, property) {
        const value = Reflect.get(target, property, target)
        // better-sqlite3's database, on which the compiled engine prepares its statements once.
        if (property === 'client' && isSqliteDatabase(value)) return preparing(value, record)
        // The mariadb driver's pool (or a transaction's connection), on whose connections it
        // keeps its statements.
        if (property === 'client' && isMariadbClient(value)) return pooling(value, record)
        if (typeof value !== 'function') return value
        if (property === 'queryRaw')
          return async (query: { sql: string }) => {
            const answer = await (target as unknown as Queryable).queryRaw(query)
            record(query.sql, answer.rows.length)
            return answer
          }
        if (property === 'startTransaction')
          return async (...args: unknown[]) => counted(await value.apply(target, args))
        return value.bind(target)
      },
    })
    proxies.add(proxy)
    return proxy
  }
  const wrapped = new Proxy(factory, {
    get(target, property) {
      if (property === 'connect') return async () => counted((await target.connect()) as object)
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return {
    factory: wrapped,
    read: () => rows,
    statements: () => statements,
    reset() {
      rows = 0
      statements = []
    },
  }
}

/** What is used of better-sqlite3's database and its statements. */
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement
}
interface SqliteStatement {
  raw(toggle?: boolean): SqliteStatement
  all(...args: unknown[]): unknown[]
}

function isSqliteDatabase(value: unknown): value is SqliteDatabase {
  return typeof (value as Partial<SqliteDatabase> | undefined)?.prepare === 'function'
}

/**
 * better-sqlite3's `database`, its statements recording their SQL and rows on each run: the
 * compiled engine prepares a statement once and runs it again (data/compiled/sqlite.ts).
 */
function preparing(
  database: SqliteDatabase,
  record: (sql: string, rows: number) => void
): SqliteDatabase {
  const recorded = (statement: SqliteStatement, sql: string): SqliteStatement =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target)
        if (property === 'raw') return (toggle?: boolean) => recorded(target.raw(toggle), sql)
        if (property === 'all')
          return (...args: unknown[]) => {
            const answer = target.all(...args)
            record(sql, answer.length)
            return answer
          }
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  return new Proxy(database, {
    get(target, property) {
      const value = Reflect.get(target, property, target)
      if (property === 'prepare') return (sql: string) => recorded(target.prepare(sql), sql)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** What is used of the mariadb driver's pool, connections and prepared statements. */
interface MariadbPrepared {
  execute(...args: unknown[]): Promise<unknown[]>
}
interface MariadbConnection {
  prepare(options: { sql: string }): Promise<MariadbPrepared>
}
interface MariadbPool {
  getConnection(): Promise<MariadbConnection>
}

function isMariadbClient(value: unknown): value is MariadbPool | MariadbConnection {
  const client = value as Partial<MariadbPool & MariadbConnection> | undefined
  return typeof client?.getConnection === 'function' || typeof client?.prepare === 'function'
}

/** Each of `object`'s methods bound to it, but those `overrides` replace. */
function withMethods<T extends object>(object: T, overrides: Record<string, unknown>): T {
  return new Proxy(object, {
    get(target, property) {
      if (typeof property === 'string' && Object.hasOwn(overrides, property))
        return overrides[property]
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * The mariadb driver's pool or connection `client`, its prepared statements recording their SQL
 * and rows on each run. A connection keeps its proxy, as the compiled engine keeps statements by
 * connection (data/compiled/mariadb.ts).
 */
function pooling(
  client: MariadbPool | MariadbConnection,
  record: (sql: string, rows: number) => void
): MariadbPool | MariadbConnection {
  const connections = new WeakMap<MariadbConnection, MariadbConnection>()
  const connectionOf = (connection: MariadbConnection): MariadbConnection => {
    let wrapped = connections.get(connection)
    if (!wrapped) {
      wrapped = withMethods(connection, {
        prepare: async (options: { sql: string }) => {
          const prepared = await connection.prepare(options)
          return withMethods(prepared, {
            execute: async (...args: unknown[]) => {
              const rows = await prepared.execute(...args)
              record(options.sql, rows.length)
              return rows
            },
          })
        },
      })
      connections.set(connection, wrapped)
    }
    return wrapped
  }
  if (!('getConnection' in client)) return connectionOf(client)
  return withMethods(client, {
    getConnection: async () => connectionOf(await client.getConnection()),
  })
}
