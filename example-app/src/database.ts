import { fileURLToPath } from 'node:url'
import { seed } from '../../prisma/seed.js'
import { pushSchema } from '../scripts/push-schema.mjs'
import type { PrismaClient } from './generated/prisma/client.js'

export const SCHEMA_PATH = fileURLToPath(new URL('../../prisma/schema.prisma', import.meta.url))

/**
 * Brings the database at `url` up to the schema (with Prisma's schema engine) and fills its empty
 * tables with the example's rows. Safe to run on every start.
 */
export async function prepareDatabase(
  prisma: PrismaClient,
  url: string
): Promise<{ seeded: string[] }> {
  // Never force: a schema change that would drop data stops the start with a message instead.
  await pushSchema({ schemaPath: SCHEMA_PATH, url, force: false })
  return { seeded: await seed(prisma) }
}
