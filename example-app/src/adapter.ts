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

/** The Prisma driver adapter for a database URL (see appProviderOf). */
export function createAdapter(url: string): PrismaBetterSqlite3 | PrismaPg | PrismaMariaDb {
  switch (appProviderOf(url)) {
    case 'sqlite':
      return new PrismaBetterSqlite3({ url })
    case 'postgresql':
      return new PrismaPg({ connectionString: url })
    case 'mysql':
      return new PrismaMariaDb(url)
  }
}
