import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaMariaDb } from '@prisma/adapter-mariadb'
import { PrismaPg } from '@prisma/adapter-pg'
import { providerOf } from '@prisma-hydra/prisma-offline/push-schema'

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
  /** PostgreSQL: opening a connection, or waiting for a free one in the pool. Default 5,000. */
  connect?: number
  /** PostgreSQL: a statement, ended by the server (`statement_timeout`). Default 10,000. */
  statement?: number
  /**
   * PostgreSQL: a query, ended by the client when the server does not answer at all
   * (`query_timeout`, a network that drops packets). Default 12,000.
   */
  query?: number
  /** SQLite: waiting for a lock another connection holds (better-sqlite3 `timeout`). Default 5,000. */
  busy?: number
}

export const DRIVER_TIMEOUTS: Required<DriverTimeouts> = {
  connect: 5_000,
  statement: 10_000,
  query: 12_000,
  busy: 5_000,
}

/** The Prisma driver adapter for a database URL (see appProviderOf), with bounded waits. */
export function createAdapter(
  url: string,
  timeouts: DriverTimeouts = {}
): PrismaBetterSqlite3 | PrismaPg | PrismaMariaDb {
  const { connect, statement, query, busy } = { ...DRIVER_TIMEOUTS, ...timeouts }
  switch (appProviderOf(url)) {
    case 'sqlite':
      return new PrismaBetterSqlite3({ url, timeout: busy })
    case 'postgresql':
      return new PrismaPg({
        connectionString: url,
        connectionTimeoutMillis: connect,
        statement_timeout: statement,
        query_timeout: query,
      })
    case 'mysql':
      // The app's own budget bounds each request; the MariaDB pool keeps its own defaults.
      return new PrismaMariaDb(url)
  }
}
