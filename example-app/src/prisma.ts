import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaClient } from './generated/prisma/client.js'

/** The example app's database when DATABASE_URL is not set: a SQLite file beside the app. */
export const DEFAULT_DATABASE_URL = 'file:./dev.db'

/** A Prisma client for a `file:` (SQLite) URL, through Prisma's better-sqlite3 driver adapter. */
export function createPrismaClient(url: string = DEFAULT_DATABASE_URL): PrismaClient {
  if (!url.startsWith('file:')) {
    throw new Error(`DATABASE_URL must be a SQLite "file:" URL, got "${url}"`)
  }
  return new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
}
