/**
 * The schemas on PostgreSQL and MySQL/MariaDB. Each check makes a database of its own on the
 * configured server (@prisma-hydra/prisma-offline/scratch-database) and drops it afterwards; the
 * schema (a copy for the server's provider, @prisma-hydra/prisma-offline/schema-copy) is applied
 * by Prisma's schema engine, on MySQL/MariaDB by DDL derived from it
 * (@prisma-hydra/prisma-offline/push-schema). Runs only against configured servers, e.g.
 *
 *   DATABASE_URL_POSTGRES=postgres://postgres@127.0.0.1:5432/test
 *   DATABASE_URL_MARIADB=mysql://root@127.0.0.1:3306/test
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { createDriverAdapter, pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import { writeSchemaCopy } from '@prisma-hydra/prisma-offline/schema-copy'
import {
  createScratchDatabase,
  databaseName,
  dropDatabase,
  withDatabase,
} from '@prisma-hydra/prisma-offline/scratch-database'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient as SqlitePrismaClient } from '#generated/prisma/client.js'
import { SEED_COUNTS, seed } from '../../prisma/seed.js'

const run = promisify(execFile)
const APP = fileURLToPath(new URL('..', import.meta.url))
/** The offline Prisma CLI wrapper (tools/prisma-offline). */
const PRISMA = createRequire(import.meta.url).resolve('@prisma-hydra/prisma-offline/prisma')
const SCHEMAS = {
  example: path.join(APP, '../prisma/schema.prisma'),
  reference: path.join(APP, 'test/fixtures/reference/schema.prisma'),
  renamed: path.join(APP, 'test/fixtures/renamed/schema.prisma'),
  cursor: path.join(APP, 'test/fixtures/cursor/schema.prisma'),
} as const
type SchemaName = keyof typeof SCHEMAS

const POSTGRES_URL = process.env.DATABASE_URL_POSTGRES
const MARIADB_URL = process.env.DATABASE_URL_MARIADB

const notConfigured = (name: string, variable: string, example: string) =>
  `${name}: not configured, skipped (set ${variable}, e.g. ${example})`

let scratch: string

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-databases-'))
})

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

interface HydraPage {
  'hydra:member': Array<{ id: number }>
  'hydra:view'?: Record<string, string>
}

/** Rows of one query on the database at `url`, through its driver adapter. */
async function query(url: string, sql: string): Promise<unknown[][]> {
  const factory = await createDriverAdapter(url)
  const connection = await factory.connect()
  try {
    return (await connection.queryRaw({ sql, args: [], argTypes: [] })).rows
  } finally {
    await connection.dispose()
  }
}

/** Names declared with `keyword` (model, enum) in a schema, a model's under its `@@map`, sorted. */
function declared(content: string, keyword: string): string[] {
  return [...content.matchAll(new RegExp(`^${keyword}\\s+(\\w+)\\s*\\{([^}]*)\\}`, 'gm'))]
    .map((m) => /@@map\("([^"]+)"\)/.exec(m[2] as string)?.[1] ?? (m[1] as string))
    .sort()
}

/** Runs the real Prisma CLI through the offline wrapper, in `cwd`. */
function prisma(args: string[], cwd: string) {
  return run(process.execPath, [PRISMA, ...args], { cwd })
}

describe.skipIf(!POSTGRES_URL)(
  POSTGRES_URL
    ? 'PostgreSQL'
    : notConfigured(
        'PostgreSQL',
        'DATABASE_URL_POSTGRES',
        'postgres://postgres@127.0.0.1:5432/test'
      ),
  () => {
    const server = POSTGRES_URL as string

    it.each(Object.keys(SCHEMAS) as SchemaName[])(
      'applies the %s schema to a fresh database, then has nothing left to do',
      async (name: SchemaName) => {
        const schemaPath = await writeSchemaCopy({
          schemaPath: SCHEMAS[name],
          provider: 'postgresql',
          dir: path.join(scratch, `postgresql-${name}`),
        })
        const content = await readFile(schemaPath, 'utf8')
        const database = await createScratchDatabase(server)
        try {
          const first = await pushSchema({ schemaPath, url: database.url })
          expect(first.executedSteps).toBeGreaterThan(0)
          const tables = await query(
            database.url,
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
          )
          expect(tables.map(([table]) => table).sort()).toEqual(declared(content, 'model'))
          const enums = await query(
            database.url,
            "SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.typtype = 'e' AND n.nspname = 'public'"
          )
          expect(enums.map(([type]) => type).sort()).toEqual(declared(content, 'enum'))
          // The engine reads back what it made (the catalogs' "char" columns included).
          expect(await pushSchema({ schemaPath, url: database.url })).toEqual({
            executedSteps: 0,
            warnings: [],
          })
        } finally {
          await database.drop()
        }
        const left = await query(
          server,
          `SELECT datname FROM pg_database WHERE datname = '${database.name}'`
        )
        expect(left).toEqual([])
      }
    )

    it('serves the example through the client and routes generated for postgresql', async () => {
      // scripts/generate.mjs generates them from a copy of the schema, beside it.
      const outputDir = path.join(APP, 'src/generated-postgresql')
      const schemaPath = path.join(outputDir, 'schema.prisma')
      expect(await readFile(schemaPath, 'utf8')).toMatch(/provider = "postgresql"/)
      const { PrismaClient } = await import(
        pathToFileURL(path.join(outputDir, 'prisma/client.ts')).href
      )
      const { createHydraApp } = await import(
        pathToFileURL(path.join(outputDir, 'hydra/index.ts')).href
      )
      const { PrismaPg } = await import('@prisma/adapter-pg')

      const database = await createScratchDatabase(server)
      const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url }) })
      try {
        await pushSchema({ schemaPath, url: database.url })
        const columns = await query(
          database.url,
          "SELECT column_name, data_type, numeric_precision, numeric_scale, datetime_precision FROM information_schema.columns WHERE table_name = 'Book' AND column_name IN ('price', 'publishedAt') ORDER BY column_name"
        )
        expect(columns).toEqual([
          ['price', 'numeric', 65, 30, null],
          ['publishedAt', 'timestamp without time zone', null, null, 3],
        ])

        // The example's own seed, through the PostgreSQL client (same API as the SQLite one).
        await seed(prisma as SqlitePrismaClient)
        const book = await prisma.book.findFirstOrThrow({ orderBy: { id: 'asc' } })
        const [[price, publishedAt] = []] = await query(
          database.url,
          `SELECT price::text, to_char("publishedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM "Book" WHERE id = ${book.id}`
        )
        // Decimal comes back as a Decimal.js value, DateTime (timestamp(3), UTC) as a Date.
        expect(book.price.toFixed(30)).toBe(price)
        expect(book.publishedAt.toISOString()).toBe(publishedAt)
        expect(await prisma.author.count()).toBe(SEED_COUNTS.authors)

        const app = createHydraApp({ prisma })
        const authors = await app.request('/authors?page=2')
        expect(authors.status).toBe(200)
        const authorsBody = await authors.json()
        expect(authorsBody['hydra:totalItems']).toBe(SEED_COUNTS.authors)
        expect(authorsBody['hydra:member'].map((m: { id: number }) => m.id)).toEqual(
          Array.from({ length: 10 }, (_, i) => 11 + i)
        )

        // Cursor paging (keyset queries on a timestamp and the id) walks every activity once.
        const seen: number[] = []
        let next: string | undefined = '/activities?itemsPerPage=50'
        while (next) {
          const response: Response = await app.request(next)
          expect(response.status).toBe(200)
          const body: HydraPage = await response.json()
          seen.push(...body['hydra:member'].map((m) => m.id))
          next = body['hydra:view']?.['hydra:next']
        }
        expect(seen).toHaveLength(SEED_COUNTS.activities)
        expect(new Set(seen).size).toBe(SEED_COUNTS.activities)
        const newestFirst = await prisma.activity.findMany({
          orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
          select: { id: true },
        })
        expect(seen).toEqual(newestFirst.map((a: { id: number }) => a.id))
      } finally {
        await prisma.$disconnect()
        await database.drop()
      }
    })

    it('runs `prisma db push` through the CLI wrapper, creating the database first', async () => {
      const project = path.join(scratch, 'postgresql-cli')
      await writeSchemaCopy({ schemaPath: SCHEMAS.renamed, provider: 'postgresql', dir: project })
      const url = withDatabase(server, `prisma_hydra_cli_${process.pid}_${Date.now()}`)
      // No import of prisma/config: it would not resolve from a temporary folder.
      await writeFile(
        path.join(project, 'prisma.config.ts'),
        `export default { schema: 'schema.prisma', datasource: { url: ${JSON.stringify(url)} } }\n`
      )
      try {
        const first = await prisma(['db', 'push'], project)
        expect(first.stdout).toContain(`PostgreSQL database ${databaseName(url)} created`)
        expect(first.stdout).toContain('Your database is now in sync with your Prisma schema')
        const tables = await query(
          url,
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name"
        )
        expect(tables).toEqual([['Dummy'], ['Tag']])
        const second = await prisma(['db', 'push'], project)
        expect(second.stdout).toContain('already in sync')
      } finally {
        await dropDatabase(url)
      }
    })

    it('refuses a ?schema= URL, which the engine cannot target through the adapter', async () => {
      const url = new URL(server)
      url.searchParams.set('schema', 'elsewhere')
      await expect(
        pushSchema({ schemaPath: SCHEMAS.reference, url: url.toString() })
      ).rejects.toThrow(/cannot target the PostgreSQL schema "elsewhere"/)
    })
  }
)

describe.skipIf(!MARIADB_URL)(
  MARIADB_URL
    ? 'MariaDB/MySQL'
    : notConfigured('MariaDB/MySQL', 'DATABASE_URL_MARIADB', 'mysql://root@127.0.0.1:3306/test'),
  () => {
    const server = MARIADB_URL as string

    it('creates and drops a database of its own', async () => {
      const database = await createScratchDatabase(server)
      const schemata = `SELECT schema_name FROM information_schema.schemata WHERE schema_name = '${database.name}'`
      try {
        expect(await query(server, schemata)).toEqual([[database.name]])
      } finally {
        await database.drop()
      }
      expect(await query(server, schemata)).toEqual([])
    })

    it.each(Object.keys(SCHEMAS) as SchemaName[])(
      'applies the %s schema to a fresh database (DDL derived from it), then has nothing left to do',
      async (name: SchemaName) => {
        const schemaPath = await writeSchemaCopy({
          schemaPath: SCHEMAS[name],
          provider: 'mysql',
          dir: path.join(scratch, `mysql-${name}`),
        })
        const content = await readFile(schemaPath, 'utf8')
        const database = await createScratchDatabase(server)
        try {
          const first = await pushSchema({ schemaPath, url: database.url })
          expect(first.executedSteps).toBeGreaterThan(0)
          const tables = await query(
            database.url,
            'SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name'
          )
          expect(tables.map(([table]) => table).sort()).toEqual(declared(content, 'model'))
          expect(await pushSchema({ schemaPath, url: database.url })).toEqual({
            executedSteps: 0,
            warnings: [],
          })
        } finally {
          await database.drop()
        }
      }
    )

    it('`prisma db push` through the CLI wrapper says why it cannot apply the schema', async () => {
      const project = path.join(scratch, 'mysql-cli')
      await writeSchemaCopy({ schemaPath: SCHEMAS.renamed, provider: 'mysql', dir: project })
      await writeFile(
        path.join(project, 'prisma.config.ts'),
        `export default { schema: 'schema.prisma', datasource: { url: ${JSON.stringify(server)} } }\n`
      )
      await expect(prisma(['db', 'push'], project)).rejects.toThrow(
        /P1013: Prisma's wasm schema engine has no MySQL\/MariaDB connector/
      )
    })

    it('serves the example through the client and routes generated for mysql', async () => {
      // scripts/generate.mjs generates them from a copy of the schema, beside it.
      const outputDir = path.join(APP, 'src/generated-mysql')
      const schemaPath = path.join(outputDir, 'schema.prisma')
      expect(await readFile(schemaPath, 'utf8')).toMatch(/provider = "mysql"/)
      const { PrismaClient } = await import(
        pathToFileURL(path.join(outputDir, 'prisma/client.ts')).href
      )
      const { createHydraApp } = await import(
        pathToFileURL(path.join(outputDir, 'hydra/index.ts')).href
      )
      const { PrismaMariaDb } = await import('@prisma/adapter-mariadb')

      const database = await createScratchDatabase(server)
      const prisma = new PrismaClient({ adapter: new PrismaMariaDb(database.url) })
      try {
        await pushSchema({ schemaPath, url: database.url })
        const columns = await query(
          database.url,
          "SELECT column_name, column_type FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'Book' AND column_name IN ('price', 'publishedAt', 'genre', 'title') ORDER BY column_name"
        )
        expect(columns).toEqual([
          ['genre', "enum('FICTION','SCIENCE','HISTORY','POETRY','CHILDREN')"],
          ['price', 'decimal(65,30)'],
          ['publishedAt', 'datetime(3)'],
          ['title', 'varchar(191)'],
        ])

        // The example's own seed, through the MySQL client (same API as the SQLite one).
        await seed(prisma as SqlitePrismaClient)
        const book = await prisma.book.findFirstOrThrow({ orderBy: { id: 'asc' } })
        const [[price, publishedAt] = []] = await query(
          database.url,
          `SELECT CAST(price AS CHAR), DATE_FORMAT(publishedAt, '%Y-%m-%dT%H:%i:%s.%fZ') FROM Book WHERE id = ${book.id}`
        )
        // Decimal comes back as a Decimal.js value, DateTime (DATETIME(3), UTC) as a Date.
        expect(book.price.toFixed(30)).toBe(price)
        expect(book.publishedAt.toISOString()).toBe(
          String(publishedAt).replace(/(\.\d{3})\d{3}Z$/, '$1Z')
        )
        expect(await prisma.author.count()).toBe(SEED_COUNTS.authors)

        const app = createHydraApp({ prisma })
        const authors = await app.request('/authors?page=2')
        expect(authors.status).toBe(200)
        const authorsBody = await authors.json()
        expect(authorsBody['hydra:totalItems']).toBe(SEED_COUNTS.authors)
        expect(authorsBody['hydra:member'].map((m: { id: number }) => m.id)).toEqual(
          Array.from({ length: 10 }, (_, i) => 11 + i)
        )
      } finally {
        await prisma.$disconnect()
        await database.drop()
      }
    })
  }
)
