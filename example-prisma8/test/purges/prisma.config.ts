// The CLI's configuration for the purge tests' contract (test/purges.test.ts): emitted with
// `prisma contract emit --config test/purges/prisma.config.ts`, created in its database by the
// test itself with `prisma db init`.
import { definePrismaConfig } from '@prisma/cli-engine'
import { defineConfig } from '@prisma/orm-postgres/config'

export default definePrismaConfig({
  orm: defineConfig({
    contract: './contract.prisma',
    output: './generated',
    // `prisma db init` writes the contract's snapshot there: what the test database was made of.
    migrations: { dir: './generated/migrations' },
    db: {
      connection: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/p8purge_test',
    },
  }),
})
