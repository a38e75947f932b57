/**
 * The options of Prisma's `prisma-client` generator that change file names or module format
 * (`generatedFileExtension`, `importFileExtension`, `moduleFormat`, `runtime`): with each, the
 * real `prisma generate` writes routes that a strict `tsc` compiles (declarations included) and
 * that answer over HTTP, compiled by `tsc` and run by Node as a user's project would be.
 */
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)
/** The offline Prisma CLI wrapper (tools/prisma-offline). */
const PRISMA = require.resolve('@prisma-hydra/prisma-offline/prisma')
const TSC = require.resolve('typescript/bin/tsc')
const TSX = require.resolve('tsx/cli')
/** The repository's strict compiler options. */
const BASE_TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url))

interface Case {
  name: string
  /** Lines added to the `prisma-client` block. */
  client: string[]
  /** The package's module type: the client's `moduleFormat` must match it. */
  type: 'module' | 'commonjs'
  /** The generated files' extension, and the one relative imports carry. */
  fileExtension: 'ts' | 'mts' | 'cts'
  importExtension: string
  compilerOptions?: Record<string, unknown>
  /** How the project runs: compiled by tsc then Node, through tsx (a bundler's resolution), or not (another runtime). */
  run: 'compiled' | 'tsx' | 'none'
}

const CASES: Case[] = [
  {
    name: 'mts',
    client: ['generatedFileExtension = "mts"', 'importFileExtension = "mjs"', 'runtime = "nodejs"'],
    type: 'module',
    fileExtension: 'mts',
    importExtension: '.mjs',
    run: 'compiled',
  },
  {
    name: 'cts',
    client: ['generatedFileExtension = "cts"', 'moduleFormat = "cjs"'],
    type: 'commonjs',
    fileExtension: 'cts',
    importExtension: '.cjs',
    compilerOptions: { verbatimModuleSyntax: false },
    run: 'compiled',
  },
  {
    name: 'cjs',
    client: ['moduleFormat = "cjs"', 'importFileExtension = "js"', 'runtime = "bun"'],
    type: 'commonjs',
    fileExtension: 'ts',
    importExtension: '.js',
    compilerOptions: { verbatimModuleSyntax: false },
    run: 'compiled',
  },
  {
    name: 'bundler',
    client: ['importFileExtension = ""', 'moduleFormat = "esm"'],
    type: 'module',
    fileExtension: 'ts',
    importExtension: '',
    compilerOptions: { module: 'preserve', moduleResolution: 'bundler', noEmit: true },
    run: 'tsx',
  },
  {
    name: 'deno',
    client: ['runtime = "deno"'],
    type: 'module',
    fileExtension: 'ts',
    importExtension: '.ts',
    compilerOptions: { allowImportingTsExtensions: true, noEmit: true },
    run: 'none',
  },
  {
    name: 'workerd',
    client: ['runtime = "workerd"'],
    type: 'module',
    fileExtension: 'ts',
    importExtension: '.js',
    run: 'none',
  },
]

const MODELS = `
/// @pagination(itemsPerPage: 2)
model Book {
  id    Int    @id
  title String
}
`

/** The project's entry: three books, then page 2 of the collection over HTTP. */
function main(extension: string): string {
  return `import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaClient } from './client/client${extension}'
import { createHydraApp } from './hydra/index${extension}'

async function main(): Promise<void> {
  const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: process.argv[2] ?? '' }) })
  await prisma.book.createMany({ data: [1, 2, 3].map((id) => ({ id, title: \`Book \${id}\` })) })
  const response = await createHydraApp({ prisma }).request('/books?page=2')
  const body = (await response.json()) as { 'hydra:member': { title: string }[] }
  console.log(JSON.stringify({ status: response.status, titles: body['hydra:member'].map((book) => book.title) }))
  await prisma.$disconnect()
}

void main()
`
}

let root: string

beforeAll(async () => {
  // Inside the app, so that the project resolves the app's dependencies as a user's would.
  const parent = fileURLToPath(new URL('./output/', import.meta.url))
  await mkdir(parent, { recursive: true })
  root = await mkdtemp(path.join(parent, 'client-options-'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

/** Each command's bound: a generate or a type-check took up to 45 s beside the rest of CI. */
const COMMAND_LIMIT_MS = 120_000
/** A case's: its generate, type-check, tables and run, each within its own bound. */
const CASE_LIMIT_MS = 4 * COMMAND_LIMIT_MS

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [command, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: COMMAND_LIMIT_MS,
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

describe.each(CASES)('prisma-client options, case $name', (testCase) => {
  it('generates routes that compile and run', { timeout: CASE_LIMIT_MS }, async () => {
    const folder = path.join(root, testCase.name)
    await mkdir(folder)
    const client = testCase.client.map((line) => `\n  ${line}`).join('')
    await writeFile(
      path.join(folder, 'schema.prisma'),
      `generator client {\n  provider = "prisma-client"\n  output   = "./client"${client}\n}\n\ngenerator hydra {\n  provider = "prisma-hydra"\n  output   = "./hydra"\n}\n\ndatasource db {\n  provider = "sqlite"\n}\n${MODELS}`
    )
    await writeFile(
      path.join(folder, 'package.json'),
      `${JSON.stringify({ type: testCase.type })}\n`
    )
    await writeFile(
      path.join(folder, 'tsconfig.json'),
      JSON.stringify({
        extends: BASE_TSCONFIG,
        compilerOptions: {
          outDir: 'out',
          rootDir: '.',
          sourceMap: false,
          ...testCase.compilerOptions,
        },
        include: ['**/*.ts', '**/*.mts', '**/*.cts'],
        exclude: ['out'],
      })
    )
    const entry = `main.${testCase.fileExtension}`
    await writeFile(path.join(folder, entry), main(testCase.importExtension))

    const generated = run(PRISMA, ['generate', '--schema', 'schema.prisma'], folder)
    expect(generated.status, generated.output).toBe(0)
    expect((await readdir(path.join(folder, 'hydra'))).sort()).toEqual([
      `book.${testCase.fileExtension}`,
      `compiled-models.${testCase.fileExtension}`,
      `index.${testCase.fileExtension}`,
      `inverse-links.${testCase.fileExtension}`,
    ])

    const compiled = run(TSC, ['-p', 'tsconfig.json'], folder)
    expect(compiled.status, compiled.output).toBe(0)
    if (testCase.run === 'none') return

    const url = `file:${path.join(folder, 'books.db')}`
    await pushSchema({ schemaPath: path.join(folder, 'schema.prisma'), url })
    const compiledEntry = path.join('out', entry.replace(/ts$/, 'js'))
    const served =
      testCase.run === 'compiled'
        ? run(compiledEntry, [url], folder)
        : run(TSX, [entry, url], folder)
    expect(served.status, served.output).toBe(0)
    expect(JSON.parse(served.output.trim().split('\n').at(-1) ?? '')).toEqual({
      status: 200,
      titles: ['Book 3'],
    })
  })
})
