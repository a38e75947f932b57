/**
 * The database of back-end.test.ts, made before its files run: the example's models (the
 * repository's prisma/schema.prisma without its generator and datasource blocks, which Prisma 8
 * refuses) emitted as a Prisma 8 contract by `prisma contract emit`, and a database of its own
 * made and seeded by Prisma 7 as the example makes its own (its schema pushed, its rows seeded),
 * which both back ends then read.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PrismaPg } from '@prisma/adapter-pg'
import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import pg from 'pg'
import { PrismaClient } from '../../../example-app/src/generated-postgresql/prisma/client.js'
import { seed } from '../../../prisma/seed.js'
import { BACK_END_DATABASE, BACK_END_URL, SERVER_URL } from './database-urls.js'

const workspace = fileURLToPath(new URL('../../', import.meta.url))
const generated = fileURLToPath(new URL('../back-end/.generated/', import.meta.url))
const schema = fileURLToPath(new URL('../../../prisma/schema.prisma', import.meta.url))
const postgresSchema = fileURLToPath(
  new URL('../../../example-app/src/generated-postgresql/schema.prisma', import.meta.url)
)

/** The models of a Prisma 7 schema as a Prisma 8 contract source. */
function contractSource(text: string): string {
  const models = text.replace(/^(generator|datasource) \w+ \{[^}]*\}\n/gm, '')
  return `// use prisma-8\n${models}`
}

export default async function setup(): Promise<void> {
  mkdirSync(generated, { recursive: true })
  writeFileSync(`${generated}contract.prisma`, contractSource(readFileSync(schema, 'utf8')))
  const emit = spawnSync(
    process.execPath,
    [
      'scripts/node22.mjs',
      'node_modules/.bin/prisma',
      'contract',
      'emit',
      '--config',
      'test/back-end/prisma.config.ts',
    ],
    { cwd: workspace, encoding: 'utf8' }
  )
  if (emit.status !== 0) throw new Error(`prisma contract emit failed:\n${emit.stdout}\n${emit.stderr}`)
  const server = new pg.Client({ connectionString: SERVER_URL })
  await server.connect()
  try {
    await server.query(`DROP DATABASE IF EXISTS "${BACK_END_DATABASE}" WITH (FORCE)`)
    await server.query(`CREATE DATABASE "${BACK_END_DATABASE}"`)
  } finally {
    await server.end()
  }
  await pushSchema({ schemaPath: postgresSchema, url: BACK_END_URL, force: false })
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: BACK_END_URL }) })
  try {
    await seed(prisma as never)
  } finally {
    await prisma.$disconnect()
  }
}
