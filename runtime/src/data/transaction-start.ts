/**
 * @module
 * A transaction begun in one statement where the database takes its isolation level there.
 * `@prisma/adapter-pg` begins a transaction at an isolation level with two statements, `BEGIN`
 * then `SET TRANSACTION ISOLATION LEVEL …`, each a round trip; PostgreSQL reads the same
 * transaction from `BEGIN ISOLATION LEVEL …` alone. A shared adapter (shared-adapter.ts) begins its
 * transactions so: the page-and-count transaction of every request, the compiled engine's and the
 * application's own `$transaction` on that client alike (docs/performance.md#one-statement-begin).
 *
 * MariaDB and MySQL take no isolation level in `START TRANSACTION` (nor in a `SET STATEMENT … FOR`
 * it), and SQLite's adapter sends none: their transactions begin as their adapters begin them.
 */

/** The isolation levels Prisma names to a driver adapter, as SQL writes them. */
const LEVELS = new Set(['READ UNCOMMITTED', 'READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE'])

/** A node-postgres client's `query`, as `@prisma/adapter-pg` calls it: a config object or text. */
type Query = (config: unknown, ...rest: unknown[]) => unknown

/** What the adapter begins a transaction on: a node-postgres pool (its `client`). */
interface Pool {
  connect(): Promise<object>
}

/** A driver adapter, as far as this file reads it. */
interface StartingAdapter {
  readonly provider: string
  client?: unknown
  startTransaction(isolationLevel?: string): Promise<unknown>
}

const isPool = (value: unknown): value is Pool =>
  typeof value === 'object' && value !== null && typeof Reflect.get(value, 'connect') === 'function'

/**
 * `adapter`, beginning its transactions at an isolation level in one statement where it is
 * `@prisma/adapter-pg`'s (whose `startTransaction` takes a connection of its pool, its `client`,
 * and sends `BEGIN` on it). Any other adapter is left as it is.
 */
export function beginInOneStatement<Adapter extends object>(adapter: Adapter): Adapter {
  const starting = adapter as Adapter & StartingAdapter
  if (starting.provider !== 'postgres' || !isPool(starting.client)) return adapter
  const start = starting.startTransaction
  const pool = starting.client
  starting.startTransaction = function (this: StartingAdapter, isolationLevel?: string) {
    if (isolationLevel === undefined || !LEVELS.has(isolationLevel))
      return start.call(this, isolationLevel)
    // The adapter's own start, with no level to set after `BEGIN`, on a pool whose connection
    // writes the level into its `BEGIN`: the adapter's transaction keeps the connection it took.
    const begun = { done: false }
    const leveled = Object.create(this, {
      client: { value: levelledPool(pool, isolationLevel, begun) },
    }) as StartingAdapter
    return start.call(leveled, undefined).finally(() => {
      begun.done = true
    })
  }
  return adapter
}

/** `pool`, whose connections send their first `BEGIN` as `BEGIN ISOLATION LEVEL <level>`. */
function levelledPool(pool: Pool, level: string, begun: { done: boolean }): Pool {
  return {
    async connect() {
      const connection = await pool.connect()
      const query = Reflect.get(connection, 'query') as Query
      return new Proxy(connection, {
        get(target, property) {
          if (property === 'query')
            return (config: unknown, ...rest: unknown[]) =>
              query.call(target, begun.done ? config : leveled(config, level, begun), ...rest)
          const value = Reflect.get(target, property, target)
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
    },
  }
}

/** The query `config` with its `BEGIN` carrying `level` (itself when it is no `BEGIN`). */
function leveled(config: unknown, level: string, begun: { done: boolean }): unknown {
  const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text
  if (text !== 'BEGIN') return config
  begun.done = true
  const sql = `BEGIN ISOLATION LEVEL ${level}`
  return typeof config === 'string' ? sql : { ...(config as object), text: sql }
}
