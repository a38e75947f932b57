/**
 * The database of back-end.test.ts, made before its files run (after test/global-setup.ts emits
 * the example's contract, which the test's Prisma 8 client reads): a database of its own made and
 * seeded by Prisma 7 as the example makes its own (its schema pushed, its rows seeded), which
 * both back ends then read.
 */
import { fileURLToPath } from 'node:url'
import { PrismaPg } from '@prisma/adapter-pg'
import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import { PrismaClient } from '../../../example-app/src/generated-postgresql/prisma/client.js'
import { seed } from '../../../prisma/seed.js'
import { BACK_END_DATABASE, BACK_END_URL } from './database-urls.js'
import { freshDatabase } from './fresh-database.js'

const postgresSchema = fileURLToPath(
  new URL('../../../example-app/src/generated-postgresql/schema.prisma', import.meta.url)
)

export default async function setup(): Promise<void> {
  await freshDatabase(BACK_END_DATABASE)
  await pushSchema({ schemaPath: postgresSchema, url: BACK_END_URL, force: false })
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: BACK_END_URL }) })
  try {
    await seed(prisma as never)
  } finally {
    await prisma.$disconnect()
  }
}
