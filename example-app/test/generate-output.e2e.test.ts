/**
 * Generation is all or nothing: the real `prisma generate` writes every route module or none,
 * says so when it writes none, and leaves no module of an earlier run behind.
 */
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'

/** The offline Prisma CLI wrapper (tools/prisma-offline). */
const PRISMA = createRequire(import.meta.url).resolve('@prisma-hydra/prisma-offline/prisma')
let folder: string

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-output-'))
})

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

function header(clientOptions = ''): string {
  return `generator client {
  provider = "prisma-client"
  output   = "./client"${clientOptions}
}

generator hydra {
  provider = "prisma-hydra"
  output   = "./hydra"
}

datasource db {
  provider = "sqlite"
}
`
}

const BOOK = '/// @pagination\nmodel Book {\n  id Int @id\n}\n'

/** Runs the real `prisma generate` on `models` under `header`; returns its exit and output. */
async function generate(name: string, models: string, clientOptions = '') {
  const schema = path.join(folder, `${name}.prisma`)
  await writeFile(schema, `${header(clientOptions)}\n${models}`)
  const result = spawnSync(process.execPath, [PRISMA, 'generate', '--schema', schema], {
    cwd: folder,
    encoding: 'utf8',
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** The output folder's files with their contents. */
async function routes(): Promise<Record<string, string>> {
  const hydra = path.join(folder, 'hydra')
  const names = (await readdir(hydra)).sort()
  return Object.fromEntries(
    await Promise.all(
      names.map(async (name) => [name, await readFile(path.join(hydra, name), 'utf8')])
    )
  )
}

it('keeps the previous routes when a generation fails, and says so', async () => {
  const first = await generate('first', BOOK)
  expect(first.status, first.output).toBe(0)
  await writeFile(path.join(folder, 'hydra', 'notes.md'), 'kept\n')
  const before = await routes()
  expect(Object.keys(before)).toEqual([
    'book.ts',
    'compiled-models.ts',
    'index.ts',
    'inverse-links.ts',
    'notes.md',
  ])

  const failed = await generate(
    'failed',
    `${BOOK}\n/// @pagination(itemsPerPag: 5)\nmodel Review {\n  id Int @id\n}\n`
  )
  expect(failed.status).not.toBe(0)
  expect(failed.output).toContain('option "itemsPerPag": unknown option')
  expect(failed.output).toContain(
    'prisma-hydra wrote nothing: ./hydra keeps the routes of the last successful generation.'
  )
  expect(await routes()).toEqual(before)
  // No staging folder is left beside the output.
  expect((await readdir(folder)).filter((name) => name.startsWith('.hydra'))).toEqual([])
})

it('replaces the module of a renamed model and keeps files that are not its own', async () => {
  expect((await generate('before-rename', BOOK)).status).toBe(0)
  await writeFile(path.join(folder, 'hydra', 'notes.md'), 'kept\n')
  const renamed = await generate('after-rename', BOOK.replace('Book', 'Volume'))
  expect(renamed.status, renamed.output).toBe(0)
  const after = await routes()
  expect(Object.keys(after)).toEqual([
    'compiled-models.ts',
    'index.ts',
    'inverse-links.ts',
    'notes.md',
    'volume.ts',
  ])
  expect(after['index.ts']).toContain('createVolumeApp')
  expect(after['index.ts']).not.toContain('Book')
  expect(after['notes.md']).toBe('kept\n')
})

it('writes nothing when the client block has an option Prisma refuses', async () => {
  const fresh = path.join(folder, 'hydra')
  await rm(fresh, { recursive: true, force: true })
  const failed = await generate('bad-runtime', BOOK, '\n  runtime  = "bogus"')
  expect(failed.status).not.toBe(0)
  expect(failed.output).toContain(
    'prisma-hydra cannot follow the generator "client" (prisma-client), which Prisma refuses:\n  - option "runtime" is "bogus"; Prisma accepts "nodejs", "deno", "bun", "workerd", "cloudflare", "vercel-edge", "edge-light"'
  )
  expect(failed.output).toContain('prisma-hydra wrote nothing: ./hydra was not created.')
  await expect(readdir(fresh)).rejects.toThrow(/ENOENT/)
})

it('resolves config and output of a multi-file schema from the file declaring the block', async () => {
  const schemaFolder = path.join(folder, 'multi', 'prisma', 'schema')
  await mkdir(schemaFolder, { recursive: true })
  await writeFile(
    path.join(schemaFolder, 'main.prisma'),
    `generator client {\n  provider = "prisma-client"\n  output   = "../../generated/prisma"\n}\n\ngenerator hydra {\n  provider = "prisma-hydra"\n  output   = "../../generated/hydra"\n  config   = "./platform.yaml"\n}\n\ndatasource db {\n  provider = "sqlite"\n}\n`
  )
  await writeFile(path.join(schemaFolder, 'book.prisma'), BOOK)
  await writeFile(
    path.join(schemaFolder, 'platform.yaml'),
    'platform:\n  defaults:\n    pagination_items_per_page: 7\n'
  )
  const result = spawnSync(process.execPath, [PRISMA, 'generate', '--schema', 'prisma/schema'], {
    cwd: path.join(folder, 'multi'),
    encoding: 'utf8',
  })
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0)
  const book = await readFile(path.join(folder, 'multi', 'generated', 'hydra', 'book.ts'), 'utf8')
  expect(book).toContain('itemsPerPage: 7')
})
