import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaLibSql } from '@prisma/adapter-libsql'
import { PrismaMariaDb } from '@prisma/adapter-mariadb'
import { PrismaPg } from '@prisma/adapter-pg'
import { providerOf } from '@prisma-hydra/prisma-offline/push-schema'
import { failFastPool } from '@prisma-hydra/runtime'
import { createConnection, createPool } from 'mariadb'
import { sqliteDriver } from './sqlite-driver.js'

/** The databases the example app runs on, by the Prisma provider of their URL. */
export type AppProvider = 'sqlite' | 'postgresql' | 'mysql'

/**
 * The Prisma provider of a database URL the app can run on: `file:` is SQLite, `postgres://` and
 * `postgresql://` are PostgreSQL, `mysql://` and `mariadb://` are MySQL/MariaDB.
 */
export function appProviderOf(url: string): AppProvider {
  return providerOf(url)
}

/**
 * How long the drivers wait for the database, in milliseconds. The app's own budget per request
 * (`createHydraApp({ timeouts })`, 10 s by default) answers the client; these end the work itself,
 * so a frozen or overloaded database does not keep connections busy forever. See
 * docs/deployment.md.
 */
export interface DriverTimeouts {
  /**
   * PostgreSQL and MariaDB: opening a connection, or waiting for a free one in the pool (pg
   * `connectionTimeoutMillis`; mariadb `connectTimeout` and `acquireTimeout`). Default 5,000.
   */
  connect?: number
  /**
   * A statement, ended by the server: PostgreSQL's `statement_timeout`; MariaDB's
   * `max_statement_time`, MySQL's `max_execution_time` (read-only SELECTs alone), each set on every
   * connection of the pool (failFastPool's `statementTimeout`). Default 10,000.
   */
  statement?: number
  /**
   * PostgreSQL and MariaDB: a statement's wait for a lock another connection holds, ended by the
   * server: PostgreSQL's `lock_timeout`; MariaDB/MySQL's `lock_wait_timeout` and
   * `innodb_lock_wait_timeout` (whole seconds, rounded up), set on every connection of the pool with
   * the statement limit (failFastPool's `lockTimeout`). Default 5,000.
   */
  lock?: number
  /**
   * PostgreSQL and MariaDB: a query, ended by the client when the server does not answer at all (a
   * network that drops packets): pg `query_timeout`, mariadb `socketTimeout` (which also closes a
   * pooled connection left idle that long). Default 12,000.
   */
  query?: number
  /**
   * SQLite: waiting for a lock another connection holds (better-sqlite3 `timeout`; libsql, on Bun
   * and Deno, keeps its own). Default 5,000.
   */
  busy?: number
}

/** The bounds of createAdapter when none is given. */
export const DRIVER_TIMEOUTS: Required<DriverTimeouts> = {
  connect: 5_000,
  statement: 10_000,
  lock: 5_000,
  query: 12_000,
  busy: 5_000,
}

/**
 * The Prisma driver adapter for a database URL (see appProviderOf), with bounded waits.
 */
export function createAdapter(
  url: string,
  timeouts: DriverTimeouts = {}
): PrismaBetterSqlite3 | PrismaLibSql | PrismaPg | PrismaMariaDb {
  const { connect, statement, lock, query, busy } = { ...DRIVER_TIMEOUTS, ...timeouts }
  switch (appProviderOf(url)) {
    case 'sqlite':
      return sqliteDriver() === 'libsql'
        ? new PrismaLibSql({ url })
        : new PrismaBetterSqlite3({ url, timeout: busy })
    case 'postgresql':
      return postgresAdapter(url, { connect, statement, lock, query })
    case 'mysql':
      return mariadbAdapter(url, { connect, query, statement, lock })
  }
}

/**
 * Whether a PostgreSQL URL says a pooler stands before the server (`pgbouncer=true` in its query,
 * as Prisma's own URLs say it, docs/deployment.md#poolers).
 */
export function pooledUrl(url: string): boolean {
  return (
    appProviderOf(url) === 'postgresql' && new URL(url).searchParams.get('pgbouncer') === 'true'
  )
}

/**
 * The PostgreSQL adapter: the statement and lock limits sent as the connection's startup
 * parameters, which the server keeps for the session. A pooler refuses them (PgBouncer: "unsupported
 * startup parameter", 08P01) or drops them, and a session setting would outlive the client's
 * transaction on a server connection it shares: behind one (`pooledUrl`), none is sent, and the
 * limits are the server's settings of the role or database (checked at start: src/pooler.ts).
 */
function postgresAdapter(
  url: string,
  { connect, statement, lock, query }: Omit<Required<DriverTimeouts>, 'busy'>
): PrismaPg {
  if (pooledUrl(url)) {
    const direct = new URL(url)
    direct.searchParams.delete('pgbouncer')
    return new PrismaPg({
      connectionString: direct.href,
      connectionTimeoutMillis: connect,
      query_timeout: query,
    })
  }
  return new PrismaPg({
    connectionString: url,
    connectionTimeoutMillis: connect,
    statement_timeout: statement,
    lock_timeout: lock,
    query_timeout: query,
  })
}

/**
 * `url` with each of `settings` it does not set yet appended to its query, percent-encoded, as
 * text: URLSearchParams would write each space of the URL's own settings (an `initSql`) as a `+`,
 * which the `mariadb` driver reads as it is.
 */
export function withSettings(url: string, settings: Record<string, string | number>): string {
  const { searchParams, search } = new URL(url)
  const added = Object.entries(settings)
    .filter(([name]) => !searchParams.has(name))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
  if (added.length === 0) return url
  return `${url}${search === '' ? '?' : '&'}${added.join('&')}`
}

/**
 * The MariaDB/MySQL adapter over a pool of bounded waits that fails fast when the server cannot be
 * reached (failFastPool: the driver's pool would keep each request waiting out `acquireTimeout`),
 * whose statements the server ends after `statement` milliseconds (`statementTimeout`), and their
 * waits for a lock after `lock` (`lockTimeout`).
 */
function mariadbAdapter(
  url: string,
  { connect, query, statement, lock }: Omit<Required<DriverTimeouts>, 'busy'>
): PrismaMariaDb {
  const settings = new URL(url)
  // The driver reads `mariadb://` URLs only (@prisma/adapter-mariadb rewrites them the same way).
  if (settings.protocol === 'mysql:') settings.protocol = 'mariadb:'
  const bounded = {
    connectTimeout: connect,
    acquireTimeout: connect,
    socketTimeout: query,
    // Keep retrying a refused connection every 500 ms rather than backing off: served again at once.
    initializationTimeout: 60_000,
    // What @prisma/adapter-mariadb sets on the pools it makes itself.
    prepareCacheLength: 0,
  }
  const config = withSettings(settings.href, bounded)
  const reach = () => createConnection(config).then((connection) => connection.end())
  const pool = failFastPool(createPool(config), reach, {
    statementTimeout: statement,
    lockTimeout: lock,
  })
  return new PrismaMariaDb(pool, { disposeExternalPool: true })
}
