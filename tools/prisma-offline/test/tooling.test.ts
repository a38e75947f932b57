// The offline Prisma tooling: the CLI wrapper (src/prisma.mjs) with the wasm schema engine shim
// (src/schema-engine.mjs), pushSchema (src/push-schema.mjs) and schema copies for another
// provider (src/schema-copy.mjs).
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pushSchema } from '../src/push-schema.mjs'
import { rewriteSchema } from '../src/schema-copy.mjs'

const run = promisify(execFile)
const prismaWrapper = fileURLToPath(new URL('../src/prisma.mjs', import.meta.url))

const SCHEMA = `generator client {
  provider = "prisma-client"
  output   = "./client"
}

datasource db {
  provider = "sqlite"
}

model Author {
  id    Int     @id @default(autoincrement())
  email String  @unique
  name  String?
  books Book[]
}

model Book {
  id       Int    @id @default(autoincrement())
  title    String
  authorId Int
  author   Author @relation(fields: [authorId], references: [id])
}
`

let dir: string
let schemaPath: string

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-tooling-'))
  schemaPath = path.join(dir, 'schema.prisma')
  await writeFile(schemaPath, SCHEMA)
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Runs the real Prisma CLI through the wrapper, in `cwd`. */
function prisma(args: string[], cwd: string) {
  return run(process.execPath, [prismaWrapper, ...args], { cwd })
}

/** Table name → column names, read straight from SQLite. */
function describeTables(file: string): Record<string, string[]> {
  const db = new Database(file, { readonly: true })
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
      )
      .all() as Array<{ name: string }>
    return Object.fromEntries(
      tables.map(({ name }) => {
        const columns = db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string }>
        return [name, columns.map((column) => column.name)]
      })
    )
  } finally {
    db.close()
  }
}

describe('prisma CLI offline (src/prisma.mjs)', () => {
  it('generates the client with --schema and no config file', async () => {
    const { stdout } = await prisma(['generate', '--schema', schemaPath], dir)
    expect(stdout).toContain('Generated Prisma Client')
    for (const file of ['client.ts', 'models/Author.ts', 'models/Book.ts']) {
      expect(existsSync(path.join(dir, 'client', file)), file).toBe(true)
    }
  })

  it('runs db push through the wasm schema engine shim', async () => {
    const project = await mkdtemp(path.join(dir, 'cli-'))
    await writeFile(path.join(project, 'schema.prisma'), SCHEMA)
    // No import of prisma/config: it would not resolve from a temporary folder.
    await writeFile(
      path.join(project, 'prisma.config.ts'),
      "export default { schema: 'schema.prisma', datasource: { url: 'file:./cli.db' } }\n"
    )
    const first = await prisma(['db', 'push'], project)
    expect(first.stdout).toContain('Your database is now in sync with your Prisma schema')
    expect(describeTables(path.join(project, 'cli.db'))).toEqual({
      Author: ['id', 'email', 'name'],
      Book: ['id', 'title', 'authorId'],
    })
    const second = await prisma(['db', 'push'], project)
    expect(second.stdout).toContain('already in sync')
  })

  it('writes the SQL of migrate diff --script to stdout and to --output', async () => {
    const project = await mkdtemp(path.join(dir, 'diff-'))
    await writeFile(path.join(project, 'schema.prisma'), SCHEMA)
    await writeFile(
      path.join(project, 'prisma.config.ts'),
      "export default { schema: 'schema.prisma', datasource: { url: 'file:./diff.db' } }\n"
    )
    const diff = ['migrate', 'diff', '--from-empty', '--to-schema', 'schema.prisma', '--script']
    const { stdout } = await prisma(diff, project)
    expect(stdout).toContain('CREATE TABLE "Author"')
    expect(stdout).toContain('CREATE TABLE "Book"')
    await prisma([...diff, '--output', 'init.sql'], project)
    const script = await readFile(path.join(project, 'init.sql'), 'utf8')
    const db = new Database(path.join(project, 'applied.db'))
    try {
      db.exec(script)
    } finally {
      db.close()
    }
    expect(describeTables(path.join(project, 'applied.db'))).toEqual({
      Author: ['id', 'email', 'name'],
      Book: ['id', 'title', 'authorId'],
    })
  })
})

describe('pushSchema (src/push-schema.mjs)', () => {
  it('creates the tables, columns, unique index and foreign key', async () => {
    const file = path.join(dir, 'push.db')
    const result = await pushSchema({ schemaPath, url: `file:${file}` })
    expect(result.executedSteps).toBeGreaterThan(0)
    expect(describeTables(file)).toEqual({
      Author: ['id', 'email', 'name'],
      Book: ['id', 'title', 'authorId'],
    })
    const db = new Database(file, { readonly: true })
    try {
      const indexes = db.prepare('PRAGMA index_list("Author")').all() as Array<{
        name: string
        unique: number
      }>
      expect(indexes).toContainEqual(
        expect.objectContaining({ name: 'Author_email_key', unique: 1 })
      )
      const foreignKeys = db.prepare('PRAGMA foreign_key_list("Book")').all() as Array<{
        table: string
        from: string
        to: string
      }>
      expect(foreignKeys).toEqual([
        expect.objectContaining({ table: 'Author', from: 'authorId', to: 'id' }),
      ])
    } finally {
      db.close()
    }
  })

  it('is idempotent: pushing the same schema twice executes nothing the second time', async () => {
    const url = `file:${path.join(dir, 'twice.db')}`
    const first = await pushSchema({ schemaPath, url })
    const second = await pushSchema({ schemaPath, url })
    expect(first.executedSteps).toBeGreaterThan(0)
    expect(second).toEqual({ executedSteps: 0, warnings: [] })
  })

  it('throws when the engine reports a change it cannot execute', async () => {
    const file = path.join(dir, 'unexecutable.db')
    await pushSchema({ schemaPath, url: `file:${file}` })
    const db = new Database(file)
    db.prepare('INSERT INTO "Author" ("email") VALUES (?)').run('ada@example.org')
    db.close()
    const changed = path.join(dir, 'required-column.prisma')
    await writeFile(changed, SCHEMA.replace('name  String?', 'name  String?\n  born  Int'))
    await expect(pushSchema({ schemaPath: changed, url: `file:${file}` })).rejects.toThrow(
      /cannot be executed[\s\S]*required column `born`/
    )
  })

  it('throws on an invalid schema', async () => {
    const invalid = path.join(dir, 'invalid.prisma')
    await writeFile(invalid, SCHEMA.replace('String?', 'Strin?'))
    await expect(
      pushSchema({ schemaPath: invalid, url: `file:${path.join(dir, 'invalid.db')}` })
    ).rejects.toThrow(/Strin/)
  })
})

describe('rewriteSchema (src/schema-copy.mjs)', () => {
  const HYDRA = `${SCHEMA}
generator hydra {
  provider = "prisma-hydra"
  output   = "../generated/hydra"
  config   = "./platform.yaml"
}
`
  it('sets the provider and makes the generator paths absolute', () => {
    const copy = rewriteSchema(HYDRA, { provider: 'postgresql', baseDir: '/app/prisma' })
    expect(copy).toContain('provider = "postgresql"')
    expect(copy).not.toContain('provider = "sqlite"')
    expect(copy).toContain('output   = "/app/prisma/client"')
    expect(copy).toContain('output   = "/app/generated/hydra"')
    expect(copy).toContain('config   = "/app/prisma/platform.yaml"')
  })

  it('sends each output where `output` says, with the generator name', () => {
    const copy = rewriteSchema(HYDRA, {
      provider: 'postgresql',
      baseDir: '/app/prisma',
      output: (file, generator) => `${file.replace('/app/', '/pg/')}#${generator}`,
    })
    expect(copy).toContain('output   = "/pg/prisma/client#client"')
    expect(copy).toContain('output   = "/pg/generated/hydra#hydra"')
  })

  it('refuses an unknown provider and a schema without exactly one datasource', () => {
    expect(() => rewriteSchema(SCHEMA, { provider: 'oracle', baseDir: '/' })).toThrow(
      'Unknown provider "oracle"'
    )
    expect(() =>
      rewriteSchema(SCHEMA.replace(/datasource db \{[^}]*\}/, ''), {
        provider: 'postgresql',
        baseDir: '/',
      })
    ).toThrow('Expected one datasource block, found 0')
  })
})
