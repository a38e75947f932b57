/**
 * `src/prisma.ts`: the Prisma client with the driver adapter of the schema's database and of the
 * runtime that serves it, as docs/getting-started.md (SQLite on Node.js), docs/runtime-bun-deno.md
 * (SQLite on Bun and Deno) and docs/tutorial-access.md (PostgreSQL) write it.
 */

import type { Runtime } from './runtimes.js'

/** The databases whose driver adapters the docs show (docs/databases.md). */
export type Provider = 'sqlite' | 'postgresql' | 'mysql'

/** The schema's datasource `provider`, or undefined when its adapter is not one of the docs'. */
export function readProvider(value: string | undefined): Provider | undefined {
  if (value === 'sqlite' || value === 'postgresql' || value === 'mysql') return value
  if (value === 'postgres') return 'postgresql'
  return undefined
}

/** The driver adapter's package for `provider` on `runtime` (Workers: D1, in worker.ts). */
export function adapterPackage(provider: Provider, runtime: Runtime): string {
  if (runtime === 'workers') return '@prisma/adapter-d1'
  if (provider === 'postgresql') return '@prisma/adapter-pg'
  if (provider === 'mysql') return '@prisma/adapter-mariadb'
  // better-sqlite3 is a Node-API addon that neither Bun nor Deno loads (docs/runtime-bun-deno.md).
  return runtime === 'node' ? '@prisma/adapter-better-sqlite3' : '@prisma/adapter-libsql'
}

/** The text of `src/prisma.ts`, importing the client from `clientImport` (`./generated/prisma/client.js`). */
export function clientModule(
  provider: Provider,
  runtime: Exclude<Runtime, 'workers'>,
  clientImport: string
): string {
  const importClient = `import { PrismaClient } from '${clientImport}'`
  switch (adapterPackage(provider, runtime)) {
    case '@prisma/adapter-better-sqlite3':
      return `import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
${importClient}

const adapter = new PrismaBetterSqlite3({ url: process.env.DATABASE_URL ?? 'file:./dev.db' })

export const prisma = new PrismaClient({ adapter })
`
    case '@prisma/adapter-libsql':
      return `import { PrismaLibSql } from '@prisma/adapter-libsql'
${importClient}

/** The database's URL: DATABASE_URL, else the SQLite file ./dev.db. */
export const url = process.env.DATABASE_URL ?? 'file:./dev.db'

export const prisma = new PrismaClient({ adapter: new PrismaLibSql({ url }) })
`
    case '@prisma/adapter-pg':
      return `import { PrismaPg } from '@prisma/adapter-pg'
${importClient}

const adapter = new PrismaPg({ connectionString: process.env.DATABASE_URL })

export const prisma = new PrismaClient({ adapter })
`
    default:
      return `import { PrismaMariaDb } from '@prisma/adapter-mariadb'
${importClient}

const url = process.env.DATABASE_URL
if (!url) throw new Error('DATABASE_URL is not set: the mysql:// URL of the database to serve')

export const prisma = new PrismaClient({ adapter: new PrismaMariaDb(url) })
`
  }
}
