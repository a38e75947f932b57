// `prisma-hydra init` in a project that already uses Prisma: what it adds, read back by Prisma's
// own parser, what it leaves alone, and the projects it refuses, writing nothing.

import { readFileSync } from 'node:fs'
import path from 'node:path'
import internals from '@prisma/internals'
import { describe, expect, it } from 'vitest'
import { init, packageJson, projectFolder, readFiles, writeFiles } from './support.js'

/** The schema Prisma 7.10's `npx prisma init --datasource-provider sqlite` writes. */
const PRISMA_INIT_SCHEMA = `// This is your Prisma schema file,
// learn more about it in the docs: https://pris.ly/d/prisma-schema

// Get a free hosted Postgres database in seconds: \`npx create-db\`

generator client {
  provider = "prisma-client"
  output   = "../generated/prisma"
}

datasource db {
  provider = "sqlite"
}
`

const ESM_PACKAGE = `${JSON.stringify({ name: 'shop', type: 'module' }, null, 2)}\n`

const schemaWith = (provider: string, models = '') =>
  PRISMA_INIT_SCHEMA.replace('"sqlite"', `"${provider}"`) + models

/** A project `npx prisma init` made, with `files` besides. */
function prismaProject(files: Record<string, string> = {}) {
  const folder = projectFolder('shop')
  writeFiles(folder, {
    'package.json': ESM_PACKAGE,
    'prisma/schema.prisma': PRISMA_INIT_SCHEMA,
    '.env': 'DATABASE_URL="file:./dev.db"\n',
    ...files,
  })
  return folder
}

const schemaOf = (folder: string) => readFileSync(path.join(folder, 'prisma/schema.prisma'), 'utf8')

/** The schema's generators and models as Prisma reads them. */
async function prismaReads(schema: string) {
  const config = await internals.getConfig({ datamodel: schema })
  const dmmf = await internals.getDMMF({ datamodel: schema })
  return {
    generators: config.generators.map((g) => [g.name, g.provider.value, g.output?.value]),
    models: dmmf.datamodel.models.map((model) => [model.name, model.documentation]),
  }
}

describe('prisma-hydra init in a project npx prisma init made', () => {
  it('adds the generator beside the client, a first model, and the entries importing both', async () => {
    const folder = prismaProject()
    const result = init(folder)
    expect(result.err).toBe('')
    expect(result.code).toBe(0)
    const schema = schemaOf(folder)
    // Every line that was there is there, in order, with lines added only.
    const lines = schema.split('\n')
    let at = 0
    for (const line of PRISMA_INIT_SCHEMA.trimEnd().split('\n')) at = lines.indexOf(line, at) + 1
    expect(at).toBeGreaterThan(0)
    const read = await prismaReads(schema)
    expect(read.generators).toEqual([
      ['client', 'prisma-client', '../generated/prisma'],
      ['hydra', 'prisma-hydra', '../generated/hydra'],
    ])
    expect(read.models).toEqual([
      [
        'Book',
        'A book of the catalogue. Ten a page; clients may ask for up to 50.\n@pagination(itemsPerPage: 10, clientItemsPerPage: true, maximumItemsPerPage: 50)',
      ],
    ])
    const written = readFiles(folder)
    expect(written['src/prisma.ts']).toContain("from '../generated/prisma/client.js'")
    expect(written['src/server.ts']).toContain("from '../generated/hydra/index.js'")
    expect(JSON.parse(written['tsconfig.json'] ?? '')).toMatchObject({
      compilerOptions: { rootDir: '.', outDir: 'dist' },
      include: ['src', 'generated'],
    })
    expect(packageJson(folder).scripts).toEqual({
      build: 'tsc',
      typecheck: 'tsc --noEmit',
      start: 'node --env-file=.env dist/src/server.js',
      seed: 'node --env-file=.env dist/src/seed.js',
    })
    expect(written['prisma.config.ts']).toBeUndefined()
    expect(result.out).toContain('added to prisma/schema.prisma')
  })

  it('serves nothing it was not told to: with models and none annotated, it says what to add', async () => {
    const models = '\nmodel Customer {\n  id Int @id\n}\n\nmodel Order {\n  id Int @id\n}\n'
    const folder = prismaProject({ 'prisma/schema.prisma': schemaWith('postgresql', models) })
    const result = init(folder)
    expect(result.code).toBe(0)
    const read = await prismaReads(schemaOf(folder))
    expect(read.models).toEqual([
      ['Customer', undefined],
      ['Order', undefined],
    ])
    expect(result.out).toContain('To serve Customer, add above `model Customer {`')
    expect(result.out).toContain('/// @pagination(itemsPerPage: 30)')
    const written = readFiles(folder)
    expect(written['src/seed.ts']).toBeUndefined()
    expect(written['src/prisma.ts']).toContain("import { PrismaPg } from '@prisma/adapter-pg'")
    expect(packageJson(folder).scripts?.seed).toBeUndefined()
    expect(result.out).toContain(
      'npm install @prisma-hydra/runtime @prisma/client @prisma/adapter-pg hono @hono/node-server'
    )
  })

  it('adds no generator when the schema has one, and says nothing more once a model is served', () => {
    const schema = `${schemaWith('mysql')}
generator routes {
  provider = "prisma-hydra"
  output   = "../src/routes"
}

/// @pagination
model Customer {
  id Int @id
}
`
    const folder = prismaProject({ 'prisma/schema.prisma': schema })
    const result = init(folder)
    expect(result.code).toBe(0)
    expect(schemaOf(folder)).toBe(schema)
    expect(result.out).not.toContain('To serve')
    const written = readFiles(folder)
    expect(written['src/prisma.ts']).toContain('new PrismaMariaDb(url)')
    expect(written['src/server.ts']).toContain("from './routes/index.js'")
  })

  it('keeps the scripts and the tsconfig.json the project has, and says so', () => {
    const tsconfig = '{ "compilerOptions": { "strict": true } }\n'
    const folder = prismaProject({
      'package.json': `${JSON.stringify({ type: 'module', scripts: { build: 'tsc', start: 'node index.js' } }, null, 4)}\n`,
      'tsconfig.json': tsconfig,
    })
    const result = init(folder)
    expect(result.code).toBe(0)
    expect(packageJson(folder).scripts).toMatchObject({ build: 'tsc', start: 'node index.js' })
    expect(readFileSync(path.join(folder, 'package.json'), 'utf8')).toMatch(/^ {4}"type"/m)
    expect(readFiles(folder)['tsconfig.json']).toBe(tsconfig)
    expect(result.out).toContain('script "start" kept as it is ("node index.js")')
    expect(result.out).toContain('tsconfig.json kept as it is')
  })
})

describe('prisma-hydra init refuses, and writes nothing', () => {
  it.each([
    [
      'files it would create',
      { 'src/server.ts': 'export {}\n', 'src/prisma.ts': 'export {}\n' },
      [
        'src/prisma.ts: exists; init does not overwrite files',
        'src/server.ts: exists; init does not overwrite files',
      ],
    ],
    [
      'a CommonJS package, as npm init writes it',
      { 'package.json': '{ "name": "shop", "type": "commonjs" }\n' },
      [
        'package.json: "type": "commonjs"; the server and the generated routes are ES modules: run `npm pkg set type=module`, then init again',
      ],
    ],
    [
      'a package without "type"',
      { 'package.json': '{ "name": "shop" }\n' },
      ['package.json: no "type"; the server and the generated routes are ES modules'],
    ],
    [
      "Prisma 6's client",
      {
        'prisma/schema.prisma': PRISMA_INIT_SCHEMA.replace('"prisma-client"', '"prisma-client-js"'),
      },
      ['prisma/schema.prisma: the generator "client" is Prisma 6\'s "prisma-client-js"'],
    ],
    [
      'a client without output',
      { 'prisma/schema.prisma': PRISMA_INIT_SCHEMA.replace(/ {2}output.*\n/, '') },
      ['prisma/schema.prisma: no "prisma-client" generator with an output folder'],
    ],
    [
      'a database without an adapter in the docs',
      { 'prisma/schema.prisma': schemaWith('sqlserver') },
      ['prisma/schema.prisma: the datasource\'s provider is "sqlserver"'],
    ],
    [
      'a generator already called hydra',
      {
        'prisma/schema.prisma': `${PRISMA_INIT_SCHEMA}\ngenerator hydra {\n  provider = "other"\n}\n`,
      },
      ['prisma/schema.prisma: a generator is already called "hydra"'],
    ],
  ])('%s', (_, files: Record<string, string>, lines: string[]) => {
    const folder = prismaProject(files)
    const before = readFiles(folder)
    const result = init(folder)
    expect(result.code).toBe(1)
    const printed = result.err.split('\n')
    expect(printed).toHaveLength(lines.length + 1)
    lines.forEach((line, index) => {
      expect(printed[index]).toContain(line)
    })
    expect(printed.at(-1)).toBe('prisma-hydra init wrote nothing.')
    expect(result.out).toBe('')
    expect(readFiles(folder)).toEqual(before)
  })

  it('Workers on a database that is not SQLite', () => {
    const folder = prismaProject({ 'prisma/schema.prisma': schemaWith('postgresql') })
    const before = readFiles(folder)
    const result = init(folder, 'init', '--runtime', 'workers')
    expect(result.code).toBe(1)
    expect(result.err).toContain('--runtime workers: D1 is SQLite')
    expect(readFiles(folder)).toEqual(before)
  })

  it('a schema in several files, which init does not read', () => {
    const folder = projectFolder()
    writeFiles(folder, {
      'package.json': ESM_PACKAGE,
      'prisma/schema/base.prisma': PRISMA_INIT_SCHEMA,
      'prisma.config.ts': "export default { schema: 'prisma/schema' }\n",
    })
    const before = readFiles(folder)
    const result = init(folder)
    expect(result.code).toBe(1)
    expect(result.err).toContain('prisma.config.ts, prisma/schema/base.prisma: a Prisma project')
    expect(readFiles(folder)).toEqual(before)
  })

  it('a second run, once the first has written its files', () => {
    const folder = projectFolder()
    expect(init(folder).code).toBe(0)
    const before = readFiles(folder)
    const result = init(folder)
    expect(result.code).toBe(1)
    expect(result.err.split('\n')).toEqual([
      'src/prisma.ts: exists; init does not overwrite files',
      'src/server.ts: exists; init does not overwrite files',
      'prisma-hydra init wrote nothing.',
    ])
    expect(readFiles(folder)).toEqual(before)
  })
})
