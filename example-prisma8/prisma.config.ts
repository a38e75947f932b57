// Prisma 8's configuration of the example's schema: `prisma contract emit` reads
// prisma/contract.prisma (written by scripts/contract-source.mjs) and writes contract.json and
// contract.d.ts beside it. Emitting reads no database; the connection is for `prisma db` steps.
import { definePrismaConfig } from '@prisma/cli-engine'
import { defineConfig } from '@prisma/orm-postgres/config'

export default definePrismaConfig({
  orm: defineConfig({
    contract: './prisma/contract.prisma',
    db: {
      connection:
        process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/example_prisma8',
    },
  }),
})
