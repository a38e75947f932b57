/**
 * @module
 * A time limit the server puts on the statements of a MariaDB/MySQL pool's connections
 * (docs/deployment.md#timeouts), as PostgreSQL's `statement_timeout` does for node-postgres: a
 * statement whose request was answered (a `503` at the end of its budget) is ended by the server
 * at the limit, and gives its connection back, instead of running on.
 *
 * Set here, on each connection the pool opens, rather than by the `mariadb` driver: its
 * `queryTimeout` sets the same variable from a promise nothing handles (3.4, and 3.5.4 still),
 * and in 3.4, the version `@prisma/adapter-mariadb` depends on, so does a failed `initSql`: a
 * connection lost while either runs is an unhandled rejection, which stops a Node process.
 */

/** What this module reads of a connection's server (`connection.info` of the `mariadb` driver). */
export interface ServerInfo {
  /** Whether the server is MariaDB (else MySQL). */
  isMariaDB(): boolean
  /** Whether the server's version is at least `major.minor.patch`. */
  hasMinVersion(major: number, minor: number, patch: number): boolean
}

/**
 * What this module uses of a connection the pool opened, as the pool's `connection` event hands it:
 * the driver's own connection object, not the promise API's (its `query` takes the command and the
 * two ends of a promise).
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
  /** Each connection the pool opens, as it opens it, before any request is given it. */
  on(event: 'connection', listener: (connection: LimitedConnection) => void): unknown
}

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
  if (!info) return undefined
  if (info.isMariaDB())
    return info.hasMinVersion(10, 1, 1)
      ? `SET SESSION max_statement_time = ${milliseconds / 1000}`
      : undefined
  return info.hasMinVersion(5, 7, 8)
    ? `SET SESSION max_execution_time = ${Math.round(milliseconds)}`
    : undefined
}

/**
 * `pool`, each of whose connections limits its statements to `milliseconds` (statementLimitSql),
 * set as the pool opens it: the limit is the first command the connection runs, ahead of the
 * request the pool gives it to. A connection that cannot set it (lost meanwhile) is closed, so
 * that none runs without it; the failure is handled here. A connection reset by the driver
 * (`resetAfterUse`) loses the limit: leave that option off. Applied by `failFastPool`'s
 * `statementTimeout`.
 */
export function limitStatementTime<P extends LimitedPool>(pool: P, milliseconds: number): P {
  if (!Number.isFinite(milliseconds) || milliseconds <= 0) return pool
  pool.on('connection', (connection) => {
    const sql = statementLimitSql(connection.info, milliseconds)
    if (sql === undefined) return
    new Promise((resolve, reject) => connection.query({ sql }, resolve, reject)).catch(() =>
      connection.destroy()
    )
  })
  return pool
}
