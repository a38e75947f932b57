import { fileURLToPath } from 'node:url'
import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import type { PrismaClient } from '#generated/prisma/client.js'
import { seed } from '../../prisma/seed.js'
import { type AppProvider, appProviderOf } from './adapter.js'

/**
 * The example's schema for each database: as written (SQLite), and the copies for PostgreSQL and
 * MySQL that scripts/generate.mjs generates their clients from.
 */
const SCHEMA_PATHS: Record<AppProvider, string> = {
  sqlite: fileURLToPath(new URL('../../prisma/schema.prisma', import.meta.url)),
  postgresql: fileURLToPath(new URL('./generated-postgresql/schema.prisma', import.meta.url)),
  mysql: fileURLToPath(new URL('./generated-mysql/schema.prisma', import.meta.url)),
}

/**
 * Brings the database at `url` up to the schema (with Prisma's schema engine; on MySQL/MariaDB
 * with the DDL derived from it, new databases only) and fills its empty tables with the example's
 * rows. Safe to run on every start.
 */
export async function prepareDatabase(
  prisma: PrismaClient,
  url: string
): Promise<{ seeded: string[] }> {
  // Never force: a schema change that would drop data stops the start with a message instead.
  await pushSchema({ schemaPath: SCHEMA_PATHS[appProviderOf(url)], url, force: false })
  return { seeded: await seed(prisma) }
}
