import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaPg } from '@prisma/adapter-pg'
import { providerOf } from '@prisma-hydra/prisma-offline/push-schema'

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

/** The Prisma driver adapter for a database URL (see appProviderOf). */
export function createAdapter(url: string): PrismaBetterSqlite3 | PrismaPg {
  return appProviderOf(url) === 'sqlite'
    ? new PrismaBetterSqlite3({ url })
    : new PrismaPg({ connectionString: url })
}
