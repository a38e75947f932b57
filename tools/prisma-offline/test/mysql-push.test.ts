// pushSchema on MySQL/MariaDB (src/mysql-push.mjs with the DDL of src/mysql-ddl.mjs), on a
// database of its own on the DATABASE_URL_MARIADB server, e.g.
//
//   DATABASE_URL_MARIADB=mysql://root@127.0.0.1:3306/test npx vitest run test/mysql-push.test.ts
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDriverAdapter, pushSchema } from '../src/push-schema.mjs'
import { createScratchDatabase } from '../src/scratch-database.mjs'

const SERVER = process.env.DATABASE_URL_MARIADB || undefined

const SCHEMA = `datasource db {
  provider = "mysql"
}

enum Status {
  DRAFT
  LIVE  @map("live")
}

model Author {
  id    Int     @id @default(autoincrement())
  email String  @unique
  books Book[]
}

model Book {
  id        BigInt   @id @default(autoincrement())
  title     String
  price     Decimal
  ratio     Float
  inPrint   Boolean  @default(true)
  status    Status   @default(DRAFT)
  meta      Json?
  cover     Bytes?
  createdAt DateTime @default(now())
  authorId  Int?
  author    Author?  @relation(fields: [authorId], references: [id])

  @@index([createdAt, id])
  @@map("books")
}
`

let folder: string
let database: { url: string; drop: () => Promise<void> } | undefined

async function schemaFile(name: string, content: string): Promise<string> {
  const file = path.join(folder, name)
  await writeFile(file, content)
  return file
}

/** Rows of a query on the test database. */
async function query(sql: string): Promise<unknown[][]> {
  if (!database) throw new Error('no database')
  const connection = await (await createDriverAdapter(database.url)).connect()
  try {
    return (await connection.queryRaw({ sql, args: [], argTypes: [] })).rows
  } finally {
    await connection.dispose()
  }
}

describe.skipIf(!SERVER)('pushSchema on MySQL/MariaDB', () => {
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'prisma-offline-mysql-'))
  })
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true })
  })
  afterEach(async () => {
    await database?.drop()
    database = undefined
  })

  async function freshDatabase() {
    database = await createScratchDatabase(SERVER as string, { prefix: 'prisma_offline_test' })
    return database.url
  }

  it('creates the tables with Prisma types, keys and indexes, then has nothing left to do', async () => {
    const url = await freshDatabase()
    const schemaPath = await schemaFile('schema.prisma', SCHEMA)
    // Two tables, one foreign key.
    expect(await pushSchema({ schemaPath, url })).toEqual({ executedSteps: 3, warnings: [] })
    expect(await pushSchema({ schemaPath, url, force: false })).toEqual({
      executedSteps: 0,
      warnings: [],
    })

    const columns = await query(
      "SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'books' ORDER BY ORDINAL_POSITION"
    )
    const byName = Object.fromEntries(columns.map(([name, ...rest]) => [name, rest]))
    expect(byName.id?.[0]).toBe('bigint(20)')
    expect(byName.id?.[3]).toBe('auto_increment')
    expect(byName.title?.slice(0, 2)).toEqual(['varchar(191)', 'NO'])
    expect(byName.price?.[0]).toBe('decimal(65,30)')
    expect(byName.ratio?.[0]).toBe('double')
    expect(byName.inPrint?.[0]).toBe('tinyint(1)')
    expect(byName.status?.[0]).toBe("enum('DRAFT','live')")
    expect(byName.status?.[2]).toBe("'DRAFT'")
    expect(byName.meta?.[1]).toBe('YES')
    expect(byName.cover?.[0]).toBe('longblob')
    expect(byName.createdAt?.[0]).toBe('datetime(3)')
    expect(String(byName.createdAt?.[2])).toMatch(/current_timestamp\(3\)/i)

    const tables = await query(
      'SELECT TABLE_NAME, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME'
    )
    expect(tables).toEqual([
      ['Author', 'utf8mb4_unicode_ci'],
      ['books', 'utf8mb4_unicode_ci'],
    ])
    const indexes = await query(
      'SELECT INDEX_NAME, NON_UNIQUE, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() GROUP BY TABLE_NAME, INDEX_NAME, NON_UNIQUE ORDER BY INDEX_NAME'
    )
    expect(indexes.map(([name, nonUnique, cols]) => [name, Number(nonUnique), cols])).toEqual([
      ['Author_email_key', 0, 'email'],
      ['books_authorId_fkey', 1, 'authorId'],
      ['books_createdAt_id_idx', 1, 'createdAt,id'],
      ['PRIMARY', 0, 'id'],
      ['PRIMARY', 0, 'id'],
    ])
    expect(
      await query(
        'SELECT CONSTRAINT_NAME, TABLE_NAME, REFERENCED_TABLE_NAME, DELETE_RULE, UPDATE_RULE FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE()'
      )
    ).toEqual([['books_authorId_fkey', 'books', 'Author', 'SET NULL', 'CASCADE']])
  })

  it('refuses a database whose tables differ from the schema, naming the difference', async () => {
    const url = await freshDatabase()
    const schemaPath = await schemaFile('schema.prisma', SCHEMA)
    await pushSchema({ schemaPath, url })
    const changed = await schemaFile(
      'changed.prisma',
      SCHEMA.replace('  email String  @unique', '  email String  @unique\n  name  String?').replace(
        'model Book {',
        'model Loan {\n  id Int @id\n}\n\nmodel Book {'
      )
    )
    await expect(pushSchema({ schemaPath: changed, url })).rejects.toThrow(
      /missing tables: Loan[\s\S]*table Author has columns \(id, email\), the schema \(id, email, name\)/
    )
  })

  it('removes the tables it made when a statement fails', async () => {
    const url = await freshDatabase()
    const broken = await schemaFile(
      'broken.prisma',
      SCHEMA.replace(
        '  ratio     Float',
        '  ratio     Float @default(dbgenerated("no_such_function("))'
      )
    )
    await expect(pushSchema({ schemaPath: broken, url })).rejects.toThrow()
    expect(
      await query(
        'SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()'
      )
    ).toEqual([])
  })
})
