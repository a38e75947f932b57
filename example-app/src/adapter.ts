import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaPg } from '@prisma/adapter-pg'
import { providerOf } from '../scripts/push-schema.mjs'

/** The databases the example app runs on, by the Prisma provider of their URL. */
export type AppProvider = 'sqlite' | 'postgresql'

/**
 * The Prisma provider of a database URL the app can run on: `file:` is SQLite,
 * `postgres://` and `postgresql://` are PostgreSQL. MySQL/MariaDB URLs are refused: the app
 * applies its schema with Prisma's wasm schema engine, which has no MySQL connector.
 */
export function appProviderOf(url: string): AppProvider {
  const provider = providerOf(url)
  if (provider === 'mysql') {
    throw new Error(
      `The example app cannot run on MySQL/MariaDB (${url.split(':')[0]}: URL): Prisma's wasm ` +
        'schema engine, which applies its schema offline, has no MySQL connector'
    )
  }
  return provider
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

/** The Prisma driver adapter for a database URL (see appProviderOf). */
export function createAdapter(
  url: string,
  timeouts: DriverTimeouts = {}
): PrismaBetterSqlite3 | PrismaPg {
  const { connect, statement, query, busy } = { ...DRIVER_TIMEOUTS, ...timeouts }
  return appProviderOf(url) === 'sqlite'
    ? new PrismaBetterSqlite3({ url, timeout: busy })
    : new PrismaPg({
        connectionString: url,
        connectionTimeoutMillis: connect,
        statement_timeout: statement,
        query_timeout: query,
      })
}
