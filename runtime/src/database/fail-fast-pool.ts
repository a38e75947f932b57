/**
 * @module
 * A MariaDB/MySQL connection pool that fails fast when its server cannot be reached
 * (docs/deployment.md#timeouts). The `mariadb` driver's pool keeps a request for a connection
 * queued while it retries opening one, until its `acquireTimeout`, even when every attempt is
 * refused at once: with the database down, each request waits out the whole wait. node-postgres
 * hands a failed connection attempt to the request waiting for it; this gives the `mariadb` pool
 * the same behaviour, so an unreachable database is a prompt `503` (no option of the driver does).
 */

/** What this module uses of a `mariadb` pool (`mariadb.createPool(...)`). */
export interface MariaDbPoolLike {
  /** Connections open (in use and idle). */
  totalConnections(): number
  getConnection(): Promise<{ release(): unknown }>
  query(...args: never[]): Promise<unknown>
  execute(...args: never[]): Promise<unknown>
  batch(...args: never[]): Promise<unknown>
}

/** The pool's methods that wait for a connection. */
const WAITING = new Set<PropertyKey>(['getConnection', 'query', 'execute', 'batch'])

/**
 * `pool`, whose requests for a connection fail at once with the reason when the pool holds no open
 * connection and `reach` (opening and closing one connection of the pool's settings) fails. One
 * check at a time is shared by every waiting request; while the pool has a connection, nothing is
 * checked. A request answered early keeps its place in the pool's queue, and a connection it is
 * given later goes back to the pool.
 *
 * ```ts
 * import { createConnection, createPool } from 'mariadb'
 * const pool = failFastPool(createPool(config), () => createConnection(config).then((c) => c.end()))
 * const adapter = new PrismaMariaDb(pool, { disposeExternalPool: true })
 * ```
 */
export function failFastPool<P extends MariaDbPoolLike>(pool: P, reach: () => Promise<unknown>): P {
  let checking: Promise<unknown> | undefined
  const check = () => {
    checking ??= reach().finally(() => {
      checking = undefined
    })
    return checking
  }
  return new Proxy(pool, {
    get(target, property) {
      const value = Reflect.get(target, property, target)
      // The pool's methods read its private fields: they run on the pool itself.
      if (typeof value !== 'function') return value
      if (!WAITING.has(property)) return value.bind(target)
      return (...args: unknown[]) => {
        const work = (value as (...args: unknown[]) => Promise<unknown>).apply(target, args)
        if (target.totalConnections() > 0) return work
        return firstOf(work, check(), property === 'getConnection')
      }
    },
  })
}

/**
 * `work`'s outcome, or `check`'s failure if it comes first. A connection `work` obtains after the
 * request was answered is released.
 */
function firstOf(
  work: Promise<unknown>,
  check: Promise<unknown>,
  isConnection: boolean
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let answered = false
    work.then(
      (result) => {
        if (!answered) {
          answered = true
          resolve(result)
        } else if (isConnection) (result as { release(): unknown }).release()
      },
      (error: unknown) => {
        if (answered) return
        answered = true
        reject(error)
      }
    )
    check.catch((error: unknown) => {
      if (answered) return
      answered = true
      reject(error)
    })
  })
}
