/**
 * A bad annotation fails the real `prisma generate`: non-zero exit, every problem listed, each
 * naming the model and the option, with a suggestion.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'

/** The offline Prisma CLI wrapper (tools/prisma-offline). */
const PRISMA = createRequire(import.meta.url).resolve('@prisma-hydra/prisma-offline/prisma')
let folder: string

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-generate-'))
})

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

function generate(schema: string) {
  return spawnSync(process.execPath, [PRISMA, 'generate', '--schema', schema], {
    cwd: folder,
    encoding: 'utf8',
  })
}

const HEADER = `
generator client {
  provider = "prisma-client"
  output   = "./client"
}

generator hydra {
  provider = "prisma-hydra"
  output   = "./hydra"
}

datasource db {
  provider = "sqlite"
}
`

it('fails on a typo and names the model, the option and the fix', async () => {
  const schema = path.join(folder, 'typo.prisma')
  await writeFile(
    schema,
    `${HEADER}
/// @pagination(itemsPerPag: 5)
model Book {
  id Int @id
}

/// @pagination(partial: "yes")
/// @operation(name: "recent", path: "/reviews/recent", order: { createdAt: "newest" })
model Review {
  id        Int      @id
  createdAt DateTime
}
`
  )
  const result = generate(schema)
  const output = `${result.stdout}${result.stderr}`
  expect(result.status).not.toBe(0)
  expect(output).toContain('prisma-hydra found 3 problems in the schema')
  expect(output).toContain(
    'error: Model "Book", @pagination, option "itemsPerPag": unknown option. Did you mean "itemsPerPage"?'
  )
  expect(output).toContain(
    'error: Model "Review", @pagination, option "partial": must be true or false, got "yes"'
  )
  expect(output).toContain(
    'error: Model "Review", @operation(name: "recent"), option "order": direction of "createdAt" must be "asc" or "desc", got "newest"'
  )
})

it('succeeds on a valid schema and writes one module per served model', async () => {
  const schema = path.join(folder, 'valid.prisma')
  await writeFile(
    schema,
    `${HEADER}\n/// @pagination(itemsPerPage: 5)\nmodel Book {\n  id Int @id\n}\n\nmodel User {\n  id Int @id\n}\n`
  )
  const result = generate(schema)
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0)
  const index = await readFile(path.join(folder, 'hydra', 'index.ts'), 'utf8')
  expect(index).toContain("from '../client/client.js'")
  expect(index).toContain('createBookApp')
  expect(index).not.toContain('User')
})
