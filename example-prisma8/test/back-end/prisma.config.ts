import { definePrismaConfig } from '@prisma/cli-engine'
import { defineConfig } from '@prisma/orm-postgres/config'

export default definePrismaConfig({
  orm: defineConfig({
    contract: './.generated/contract.prisma',
    output: './.generated',
    migrations: { dir: './.generated/migrations' },
    db: { connection: process.env.DATABASE_URL ?? '' },
  }),
})
