/**
 * Decimals keep the scale of their column: a `@db.Decimal(10, 2)` price of 57.70 is served
 * "57.70" and 1 as "1.00", on PostgreSQL and MariaDB (each when configured), from routes the real
 * `prisma generate` writes; a Decimal without a declared scale (SQLite has no native types) is
 * written in its shortest form. Picks its servers itself, like databases.e2e.test.ts.
 */
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import { createScratchDatabase } from '@prisma-hydra/prisma-offline/scratch-database'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverUrl } from './support/databases.js'
import { createAdapter } from './support/harness.js'

const PRISMA = createRequire(import.meta.url).resolve('@prisma-hydra/prisma-offline/prisma')

let root: string

beforeAll(async () => {
  // Inside the app, so that the generated modules resolve the app's dependencies.
  const parent = fileURLToPath(new URL('./output/', import.meta.url))
  await mkdir(parent, { recursive: true })
  root = await mkdtemp(path.join(parent, 'decimal-scale-'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

/** The model: a price with a declared scale where the provider has native types, a rate without. */
function schema(provider: string): string {
  const scaled = provider === 'sqlite' ? '' : ' @db.Decimal(10, 2)'
  return `generator client {
  provider            = "prisma-client"
  output              = "./prisma"
  importFileExtension = "js"
}

generator hydra {
  provider = "prisma-hydra"
  output   = "./hydra"
}

datasource db {
  provider = "${provider}"
}

/// @pagination(itemsPerPage: 10)
model Price {
  id     Int      @id
  amount Decimal${scaled}
  rate   Decimal?
}
`
}

const PROVIDERS = [
  { provider: 'sqlite', server: undefined },
  { provider: 'postgresql', server: serverUrl('postgresql') },
  { provider: 'mysql', server: serverUrl('mariadb') },
] as const

describe.each(PROVIDERS)('on $provider', ({ provider, server }) => {
  it.skipIf(provider !== 'sqlite' && !server)('serves decimals with their scale', async () => {
    const folder = path.join(root, provider)
    await mkdir(folder)
    await writeFile(path.join(folder, 'schema.prisma'), schema(provider))
    const generated = spawnSync(
      process.execPath,
      [PRISMA, 'generate', '--schema', 'schema.prisma'],
      {
        cwd: folder,
        encoding: 'utf8',
      }
    )
    expect(generated.status, `${generated.stdout}${generated.stderr}`).toBe(0)

    const scratch = server ? await createScratchDatabase(server, { prefix: 'decimal' }) : undefined
    const url = scratch?.url ?? `file:${path.join(folder, 'prices.db')}`
    try {
      await pushSchema({ schemaPath: path.join(folder, 'schema.prisma'), url })
      const { PrismaClient } = await import(
        pathToFileURL(path.join(folder, 'prisma/client.ts')).href
      )
      const { createHydraApp } = await import(
        pathToFileURL(path.join(folder, 'hydra/index.ts')).href
      )
      const prisma = new PrismaClient({ adapter: createAdapter(url) })
      try {
        await prisma.price.createMany({
          data: [
            { id: 1, amount: '57.70', rate: '0.250' },
            { id: 2, amount: '1', rate: null },
            { id: 3, amount: '12345678.05', rate: '10' },
          ],
        })
        const app = createHydraApp({ prisma })
        const item = await (await app.request('/prices/1')).json()
        const page = await (await app.request('/prices')).json()
        // A declared scale is written in full; without one, the shortest form.
        const amounts =
          provider === 'sqlite' ? ['57.7', '1', '12345678.05'] : ['57.70', '1.00', '12345678.05']
        expect(item.amount).toBe(amounts[0])
        expect(item.rate).toBe('0.25')
        expect(
          page['hydra:member'].map((member: { amount: string; rate: string | null }) => [
            member.amount,
            member.rate,
          ])
        ).toEqual([
          [amounts[0], '0.25'],
          [amounts[1], null],
          [amounts[2], '10'],
        ])
      } finally {
        await prisma.$disconnect()
      }
    } finally {
      await scratch?.drop()
    }
  })
})
