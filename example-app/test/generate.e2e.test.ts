/**
 * A bad annotation fails the real `prisma generate`: non-zero exit, every problem listed, each
 * naming the model and the option, with a suggestion.
 */
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
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

/** The full message of a failed generation, whatever stream Prisma wrote it to. */
function failure(result: ReturnType<typeof generate>): string {
  expect(result.status, `${result.stdout}${result.stderr}`).not.toBe(0)
  return `${result.stdout}${result.stderr}`
}

const BOOK = '/// @pagination\nmodel Book {\n  id Int @id\n}\n'
const DATASOURCE = 'datasource db {\n  provider = "sqlite"\n}\n'

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
  expect(output).toContain('prisma-hydra found 3 errors in the schema')
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

it('refuses a property filter whose parameter another filter reads, naming the option', async () => {
  const schema = path.join(folder, 'properties-clash.prisma')
  await writeFile(
    schema,
    `${HEADER}
/// @pagination
/// @filter(search: { properties: "exact" }, properties: true)
model Paper {
  id         Int    @id
  title      String
  properties String
}
`
  )
  const output = failure(generate(schema))
  expect(output).toContain(
    'error: Model "Paper", @filter, option "properties": the property filter\'s parameter "properties" is also the parameter of the search filter on field "properties" (properties=…, properties[]=…): one parameter would mean two things; give the property filter a parameter of its own with properties: { parameterName: "..." }'
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

it('warns about the foreign key of a relation to a model that is not served', async () => {
  const schema = path.join(folder, 'unserved.prisma')
  await writeFile(
    schema,
    `${HEADER}\n/// @pagination\nmodel Product {\n  id         Int      @id\n  supplierId Int\n  supplier   Supplier @relation(fields: [supplierId], references: [id])\n}\n\nmodel Supplier {\n  id       Int       @id\n  products Product[]\n}\n`
  )
  const result = generate(schema)
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0)
  expect(`${result.stdout}${result.stderr}`).toContain(
    'prisma-hydra warning: Model "Product", field "supplierId": is the foreign key of relation "supplier" to Supplier, which is not served: it is shown as a plain field holding Supplier\'s key. Hide it (/// @hidden), serve Supplier (/// @pagination) to show the relation as a link, or keep it as a field of the API with /// @property'
  )
})

it('warns about an annotated model that Prisma ignores', async () => {
  const schema = path.join(folder, 'ignored.prisma')
  await writeFile(
    schema,
    `${HEADER}\n${BOOK}\n/// A legacy table.\n/// @pagination(itemsPerPage: 5)\nmodel Legacy {\n  id Int @id\n\n  @@ignore\n}\n`
  )
  const result = generate(schema)
  const output = `${result.stdout}${result.stderr}`
  expect(result.status, output).toBe(0)
  expect(output).toContain(
    'prisma-hydra warning: Model "Legacy", @pagination: the model is ignored by Prisma (@@ignore): it has no client delegate, so it is not served; remove @@ignore to serve it, or the annotation'
  )
  expect(output).not.toContain('Model "Book", @pagination: the model is ignored')
})

it("refuses Prisma 6's prisma-client-js client with the block to paste", async () => {
  // prisma-client-js needs @prisma/client next to the schema: a folder inside the app, which
  // git ignores. Its own output is set so that it writes nothing to node_modules.
  const parent = fileURLToPath(new URL('./output/', import.meta.url))
  await mkdir(parent, { recursive: true })
  const inside = await mkdtemp(path.join(parent, 'generate-'))
  try {
    const schema = path.join(inside, 'schema.prisma')
    await writeFile(
      schema,
      `generator client {\n  provider     = "prisma-client-js"\n  output       = "./client-js"\n  moduleFormat = "cjs"\n}\n\ngenerator hydra {\n  provider = "prisma-hydra"\n  output   = "../src/generated/hydra"\n}\n\n${DATASOURCE}\n${BOOK}`
    )
    const output = failure(generate(schema))
    expect(output).toContain(
      `prisma-hydra needs Prisma 7's "prisma-client" generator with an output folder: the routes it writes import the client from there. The generator "client" uses "prisma-client-js" (Prisma 6's client), which they cannot import. Replace that block with:

generator client {
  provider            = "prisma-client"
  output              = "./client-js"
  moduleFormat        = "cjs"
  importFileExtension = "js"
}

and import PrismaClient from the client.js of that folder instead of "@prisma/client".`
    )
    expect(output).not.toContain('requires generator')
  } finally {
    await rm(inside, { recursive: true, force: true })
  }
})

it('asks for a prisma-client generator when the schema has none', async () => {
  const schema = path.join(folder, 'no-client.prisma')
  await writeFile(
    schema,
    `generator hydra {\n  provider = "prisma-hydra"\n  output   = "./api/hydra"\n}\n\n${DATASOURCE}\n${BOOK}`
  )
  expect(failure(generate(schema))).toContain(
    `prisma-hydra needs Prisma 7's "prisma-client" generator with an output folder in the same schema: the routes it writes import the client from there. Add this block:

generator client {
  provider            = "prisma-client"
  output              = "./api/prisma"
  importFileExtension = "js"
}`
  )
})

it('refuses a generator block without output, suggesting one beside the client', async () => {
  const schema = path.join(folder, 'no-output.prisma')
  await writeFile(
    schema,
    `generator db {\n  provider = "prisma-client"\n  output   = "./out/prisma"\n}\n\ngenerator routes {\n  provider = "prisma-hydra"\n}\n\n${DATASOURCE}\n${BOOK}`
  )
  expect(failure(generate(schema))).toContain(
    `prisma-hydra needs an output folder for the routes it writes: add "output" to the generator "routes":

generator routes {
  provider = "prisma-hydra"
  output   = "./out/hydra"
}`
  )
  await expect(readFile(path.join(folder, 'generated', 'hydra', 'index.ts'))).rejects.toThrow()
})
