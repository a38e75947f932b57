/**
 * @module
 * A transaction at an isolation level begun in one round trip. `@prisma/adapter-pg` begins one
 * with two statements, `BEGIN` then `SET TRANSACTION ISOLATION LEVEL …`, each a round trip;
 * PostgreSQL reads the same transaction from `BEGIN ISOLATION LEVEL …` alone.
 * `@prisma/adapter-mariadb` sends `SET TRANSACTION ISOLATION LEVEL …`, waits for its answer, then
 * `BEGIN`; MariaDB and MySQL take no level in `START TRANSACTION` (nor in a `SET STATEMENT … FOR`
 * it), but the `mariadb` driver sends a command without waiting for the one before it
 * (its `pipelining`, on by default), so both statements go together and their answers come back
 * together. A shared adapter (prisma7/shared-adapter.ts) begins its transactions so: the page-and-count
 * transaction of every request, the compiled engine's and the application's own `$transaction`
 * on that client alike (docs/performance.md#one-statement-begin). SQLite's adapter sends no
 * level: its transactions begin as it begins them.
 */

/** The isolation levels Prisma names to a driver adapter, as SQL writes them. */
const LEVELS = new Set(['READ UNCOMMITTED', 'READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE'])

/** A driver's `query` on one connection, as the adapters call it: a config object or text. */
type Query = (config: unknown, ...rest: unknown[]) => unknown

/** A driver adapter, as far as this file reads it. */
interface StartingAdapter {
  readonly provider: string
  client?: unknown
  startTransaction(isolationLevel?: string): Promise<unknown>
}

/**
 * How one adapter begins a transaction at a level: the method of its pool (its `client`) that
 * hands it the transaction's connection, and what the connection is sent in place of the
 * adapter's `BEGIN`, answering as that `BEGIN` does.
 */
interface Begin {
  connect: string
  begin(
    query: Query,
    connection: object,
    level: string,
    config: unknown,
    ...rest: unknown[]
  ): unknown
}

/** PostgreSQL: the level written into the `BEGIN`. */
const POSTGRES: Begin = {
  connect: 'connect',
  begin: (query, connection, level, config, ...rest) => {
    const sql = `BEGIN ISOLATION LEVEL ${level}`
    const leveled = typeof config === 'string' ? sql : { ...asObject(config), text: sql }
    return query.call(connection, leveled, ...rest)
  },
}

/**
 * MariaDB and MySQL: the level set, and the `BEGIN` sent behind it before its answer. Should the
 * level not be set (a connection lost) while the `BEGIN` went through, the transaction is rolled
 * back before the start fails, so that no connection goes back to the pool inside one, whatever
 * the pool does with a connection it is given back.
 */
const MARIADB: Begin = {
  connect: 'getConnection',
  begin: async (query, connection, level, config, ...rest) => {
    const [set, begin] = await Promise.allSettled([
      query.call(connection, `SET TRANSACTION ISOLATION LEVEL ${level}`),
      query.call(connection, config, ...rest),
    ])
    if (begin.status === 'rejected') throw begin.reason
    if (set.status === 'rejected') {
      await Promise.resolve(query.call(connection, 'ROLLBACK')).catch(() => undefined)
      throw set.reason
    }
    return begin.value
  },
}

const BEGINS: Readonly<Record<string, Begin>> = { postgres: POSTGRES, mysql: MARIADB }

const asObject = (value: unknown): object =>
  typeof value === 'object' && value !== null ? value : {}

/** The SQL of a `query` call's config: node-postgres's `text`, the `mariadb` driver's `sql`. */
function sqlOf(config: unknown): unknown {
  if (typeof config === 'string') return config
  const object = asObject(config)
  return Reflect.get(object, 'text') ?? Reflect.get(object, 'sql')
}

/**
 * `adapter`, beginning its transactions at an isolation level in one round trip where it is
 * `@prisma/adapter-pg`'s or `@prisma/adapter-mariadb`'s (whose `startTransaction` takes a
 * connection of its pool, its `client`, and sends `BEGIN` on it). Any other adapter is left as it
 * is.
 */
export function beginInOneRoundTrip<Adapter extends object>(adapter: Adapter): Adapter {
  const starting = adapter as Adapter & StartingAdapter
  const way = BEGINS[starting.provider]
  const pool = starting.client
  if (!way || !hasMethod(pool, way.connect)) return adapter
  const start = starting.startTransaction
  starting.startTransaction = function (this: StartingAdapter, isolationLevel?: string) {
    if (isolationLevel === undefined || !LEVELS.has(isolationLevel))
      return start.call(this, isolationLevel)
    // The adapter's own start, with no level to set, on a pool whose connection begins at the
    // level: the adapter's transaction keeps the connection it took.
    const begun = { done: false }
    const leveled = Object.create(this, {
      client: { value: levelledPool(pool as object, way, isolationLevel, begun) },
    }) as StartingAdapter
    return start.call(leveled, undefined).finally(() => {
      begun.done = true
    })
  }
  return adapter
}

const hasMethod = (value: unknown, name: string): boolean =>
  typeof value === 'object' && value !== null && typeof Reflect.get(value, name) === 'function'

/** `pool`, whose connections send their first `BEGIN` at `level`, the way `way` says. */
function levelledPool(pool: object, way: Begin, level: string, begun: { done: boolean }): object {
  return {
    async [way.connect]() {
      const connect = Reflect.get(pool, way.connect) as () => Promise<object>
      const connection = await connect.call(pool)
      const query = Reflect.get(connection, 'query') as Query
      return new Proxy(connection, {
        get(target, property) {
          if (property === 'query')
            return (config: unknown, ...rest: unknown[]) => {
              if (begun.done || sqlOf(config) !== 'BEGIN')
                return query.call(target, config, ...rest)
              begun.done = true
              return way.begin(query, target, level, config, ...rest)
            }
          const value = Reflect.get(target, property, target)
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
    },
  }
}
