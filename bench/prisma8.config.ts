/**
 * Prisma 8's configuration for bench/generate.ts's `prisma contract emit`: the contract source it
 * writes into bench/.generated-prisma8/ and the contract emitted beside it. Nothing here connects
 * to a database: emitting reads no database, and bench/peers-server.ts gives its client the URL.
 */
import { definePrismaConfig } from '@prisma/cli-engine'
import { defineConfig } from '@prisma/orm-postgres/config'

export default definePrismaConfig({
  orm: defineConfig({
    contract: './.generated-prisma8/contract.prisma',
    output: './.generated-prisma8',
  }),
})
