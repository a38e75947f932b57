/**
 * @module
 * A MariaDB/MySQL connection pool that fails fast when its server cannot be reached
 * (docs/deployment.md#timeouts). The `mariadb` driver's pool keeps a request for a connection
 * queued while it retries opening one, until its `acquireTimeout`, even when every attempt is
 * refused at once: with the database down, each request waits out the whole wait. node-postgres
 * hands a failed connection attempt to the request waiting for it; this gives the `mariadb` pool
 * the same behaviour, so an unreachable database is a prompt `503` (no option of the driver does).
 * With `statementTimeout` and `lockTimeout`, the server also ends each statement, and each wait for
 * a lock, at that limit (statement-limit.ts).
 */
import { type LimitedConnection, limitSessions } from './statement-limit.js'

/** What this module uses of a `mariadb` pool (`mariadb.createPool(...)`). */
export interface MariaDbPoolLike {
  /** Connections open (in use and idle). */
  totalConnections(): number
  /** A connection of the pool, once one is free; `release()` gives it back. */
  getConnection(): Promise<{
    /** Gives the connection back to the pool. */
    release(): unknown
  }>
  /** A query on a connection of the pool. */
  query(...args: never[]): Promise<unknown>
  /** A prepared statement on a connection of the pool. */
  execute(...args: never[]): Promise<unknown>
  /** A batch of statements on a connection of the pool. */
  batch(...args: never[]): Promise<unknown>
  /** Each connection the pool opens, as it opens it. */
  on(event: 'connection', listener: (connection: MariaDbConnectionLike) => void): unknown
  /** Each connection the pool hands out, before the command it is handed out for. */
  on(event: 'acquire', listener: (connection: MariaDbConnectionLike) => void): unknown
}

/**
 * What this module uses of a connection of the pool: that it ended (closed, or lost), and what
 * setting its statement limit uses.
 */
export interface MariaDbConnectionLike extends LimitedConnection {
  /** Calls `listener` when the connection ends. */
  on(event: 'end', listener: () => void): unknown
}

/** Options of a fail-fast pool. */
export interface FailFastPoolOptions {
  /**
   * Milliseconds after which the server ends a statement: MariaDB's `max_statement_time`, MySQL's
   * `max_execution_time` (read-only `SELECT`s), set by each connection's first command
   * (docs/deployment.md#timeouts). Left out: no limit.
   */
  statementTimeout?: number | undefined
  /**
   * Milliseconds a statement waits for a lock another connection holds before the server ends it:
   * `lock_wait_timeout` (a table's metadata lock) and `innodb_lock_wait_timeout` (rows), in whole
   * seconds rounded up, set with the statement limit (docs/deployment.md#timeouts). Left out: the
   * server's own (a day and 50 s by default on MariaDB 10.11).
   */
  lockTimeout?: number | undefined
}

/** The pool's methods that wait for a connection. */
const WAITING = new Set<PropertyKey>(['getConnection', 'query', 'execute', 'batch'])

/**
 * `pool`, whose requests for a connection fail at once with the reason when the pool holds no open
 * connection and `reach` (opening and closing one connection of the pool's settings) fails. The
 * pool is checked when a request comes to it empty, and when it loses its last connection while
 * requests wait: those queued behind busy connections when the database went away, or given a
 * connection whose socket had already closed, would wait out `acquireTimeout` too. One check at a
 * time is shared by every waiting request; while the pool has a connection, nothing is checked. A
 * request answered early keeps its place in the pool's queue, and a connection it is given later
 * goes back to the pool.
 *
 * ```ts
 * import { createConnection, createPool } from 'mariadb'
 * const reach = () => createConnection(config).then((c) => c.end())
 * const pool = failFastPool(createPool(config), reach, {
 *   statementTimeout: 10_000,
 *   lockTimeout: 5_000,
 * })
 * const adapter = new PrismaMariaDb(pool, { disposeExternalPool: true })
 * ```
 */
export function failFastPool<P extends MariaDbPoolLike>(
  pool: P,
  reach: () => Promise<unknown>,
  options: FailFastPoolOptions = {}
): P {
  limitSessions(pool, { statement: options.statementTimeout, lock: options.lockTimeout })
  /** How to fail each request still waiting for the pool. */
  const waiting = new Set<(error: unknown) => void>()
  let checking: Promise<unknown> | undefined
  const checkIfEmpty = () => {
    if (waiting.size === 0 || pool.totalConnections() > 0 || checking) return
    checking = reach().then(
      () => {
        checking = undefined
      },
      (error: unknown) => {
        checking = undefined
        // A connection the pool opened meanwhile serves the requests waiting.
        if (pool.totalConnections() > 0) return
        for (const fail of waiting) fail(error)
      }
    )
  }
  // The pool forgets a lost connection before the connection says it ended.
  pool.on('connection', (connection) => connection.on('end', checkIfEmpty))
  return new Proxy(pool, {
    get(target, property) {
      const value = Reflect.get(target, property, target)
      // The pool's methods read its private fields: they run on the pool itself.
      if (typeof value !== 'function') return value
      if (!WAITING.has(property)) return value.bind(target)
      return (...args: unknown[]) => {
        const work = (value as (...args: unknown[]) => Promise<unknown>).apply(target, args)
        const answer = answerable(work, property === 'getConnection', waiting)
        checkIfEmpty()
        return answer
      }
    },
  })
}

/**
 * The types `failFastPool` takes, by names an application can write (`failFastPool.Pool` for a
 * pool of its own, a wrapper or a test double), without a name of their own in the entry point.
 */
export declare namespace failFastPool {
  /** What `failFastPool` uses of a `mariadb` pool: {@link MariaDbPoolLike}. */
  export type Pool = MariaDbPoolLike
  /** What it uses of a connection of the pool: {@link MariaDbConnectionLike}. */
  export type Connection = MariaDbConnectionLike
  /** Its options: {@link FailFastPoolOptions}. */
  export type Options = FailFastPoolOptions
}

/**
 * `work`'s outcome, or the failure a check hands to the function `work` waits in `waiting` as,
 * whichever comes first. A connection `work` obtains after the request was answered is released.
 */
function answerable(
  work: Promise<unknown>,
  isConnection: boolean,
  waiting: Set<(error: unknown) => void>
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let answered = false
    const fail = (error: unknown) => {
      if (answered) return
      answered = true
      waiting.delete(fail)
      reject(error)
    }
    waiting.add(fail)
    work.then((result) => {
      if (!answered) {
        answered = true
        waiting.delete(fail)
        resolve(result)
      } else if (isConnection) (result as { release(): unknown }).release()
    }, fail)
  })
}
