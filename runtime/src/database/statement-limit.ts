/**
 * @module
 * Time limits the server puts on the statements of a MariaDB/MySQL pool's connections
 * (docs/deployment.md#timeouts), as PostgreSQL's `statement_timeout` and `lock_timeout` do for
 * node-postgres: a statement whose request was answered (a `503` at the end of its budget) is ended
 * by the server at the limit, and gives its connection back, instead of running on; a lock is
 * waited for at most the lock limit.
 *
 * Set here, on each connection as the pool first hands it out, rather than by the `mariadb`
 * driver: its `queryTimeout` sets the same variable from a promise nothing handles (3.4, and 3.5.4
 * still), and in 3.4, the version `@prisma/adapter-mariadb` depends on, so do a failed `initSql`
 * and `sessionVariables`: a connection lost while either runs is an unhandled rejection, which
 * stops a Node process.
 */

/** What this module reads of a connection's server (`connection.info` of the `mariadb` driver). */
export interface ServerInfo {
  /** Whether the server is MariaDB (else MySQL). */
  isMariaDB(): boolean
  /** Whether the server's version is at least `major.minor.patch`. */
  hasMinVersion(major: number, minor: number, patch: number): boolean
}

/**
 * What this module uses of a connection the pool hands out, as the pool's `acquire` event gives
 * it: the driver's own connection object, not the promise API's (its `query` takes the command and
 * the two ends of a promise).
 */
export interface LimitedConnection {
  /** The server the connection reached, once its handshake is done. */
  readonly info: ServerInfo | null
  /** Sends `command`; the driver calls `resolve` with its result or `reject` with its error. */
  query(
    command: { sql: string },
    resolve: (result: unknown) => void,
    reject: (error: unknown) => void
  ): unknown
  /** Closes the connection; the pool opens another when one is needed. */
  destroy(): unknown
}

/** What this module uses of a `mariadb` pool (`mariadb.createPool(...)`). */
export interface LimitedPool {
  /**
   * Each connection the pool hands out, as it hands it out: before the command it was asked for
   * (a query of the pool's own, or a `getConnection`'s first) is given it.
   */
  on(event: 'acquire', listener: (connection: LimitedConnection) => void): unknown
}

/** The limits of a session's statements, in milliseconds; 0 or left out: none. */
export interface SessionLimits {
  /** A statement's run: MariaDB's `max_statement_time`, MySQL's `max_execution_time`. */
  statement?: number | undefined
  /** A wait for a lock: `lock_wait_timeout` (metadata) and `innodb_lock_wait_timeout` (rows). */
  lock?: number | undefined
}

/** Whether `milliseconds` is a limit: a finite number above 0. */
const isLimit = (milliseconds: number | undefined): milliseconds is number =>
  milliseconds !== undefined && Number.isFinite(milliseconds) && milliseconds > 0

/**
 * The statement that limits a session's statements to `milliseconds`: MariaDB's
 * `max_statement_time` (every statement, in seconds), MySQL's `max_execution_time` (read-only
 * `SELECT`s alone); undefined for a server with neither (MariaDB before 10.1.1, MySQL before
 * 5.7.8).
 */
export function statementLimitSql(
  info: ServerInfo | null,
  milliseconds: number
): string | undefined {
  const [assignment] = statementLimit(info, milliseconds)
  return assignment === undefined ? undefined : `SET SESSION ${assignment}`
}

/** The assignment of statementLimitSql, or none. */
function statementLimit(info: ServerInfo | null, milliseconds: number): string[] {
  if (!info || !isLimit(milliseconds)) return []
  if (info.isMariaDB())
    return info.hasMinVersion(10, 1, 1) ? [`max_statement_time = ${milliseconds / 1000}`] : []
  return info.hasMinVersion(5, 7, 8) ? [`max_execution_time = ${Math.round(milliseconds)}`] : []
}

/**
 * The statement that sets `limits` on a session (statementLimitSql's, and the lock waits' in whole
 * seconds, rounded up, at least 1: the servers take no fraction of them), or undefined when it
 * sets none.
 */
export function sessionLimitSql(
  info: ServerInfo | null,
  limits: SessionLimits
): string | undefined {
  if (!info) return undefined
  const assignments = statementLimit(info, limits.statement ?? 0)
  if (isLimit(limits.lock)) {
    const seconds = Math.max(1, Math.ceil(limits.lock / 1000))
    assignments.push(`lock_wait_timeout = ${seconds}`, `innodb_lock_wait_timeout = ${seconds}`)
  }
  return assignments.length > 0 ? `SET SESSION ${assignments.join(', ')}` : undefined
}

/**
 * `pool`, each of whose connections limits its statements (sessionLimitSql), set the first time
 * the pool hands the connection out: the pool's `acquire` event comes before the command the
 * connection was handed out for is given it, and a connection runs its commands in order, so the
 * limit is the first command the connection runs, ahead of every statement. (The pool's
 * `connection` event comes too late for that: a connection opened for a request already waiting
 * is given to it first.) A connection that cannot set it (lost meanwhile) is closed, so that none
 * runs without it, and the command it was handed out for fails with it; the failure is handled
 * here. A connection reset by the driver (`resetAfterUse`) loses the limit: leave that option off.
 * Applied by `failFastPool`'s `statementTimeout` and `lockTimeout`.
 */
export function limitSessions<P extends LimitedPool>(pool: P, limits: SessionLimits): P {
  if (!isLimit(limits.statement) && !isLimit(limits.lock)) return pool
  const limited = new WeakSet<LimitedConnection>()
  pool.on('acquire', (connection) => {
    if (limited.has(connection)) return
    limited.add(connection)
    const sql = sessionLimitSql(connection.info, limits)
    if (sql === undefined) return
    new Promise((resolve, reject) => connection.query({ sql }, resolve, reject)).catch(() =>
      connection.destroy()
    )
  })
  return pool
}
