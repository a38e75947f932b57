/**
 * Every ```ts block of README.md and docs/*.md compiles under the strict tsconfig that
 * getting-started.md gives a project, against the example's generated code: one TypeScript
 * program over a project written from the docs (test/support/doc-snippets.ts reads the blocks).
 *
 * The project is the one getting-started.md makes: its `file=` blocks at their paths
 * (`src/prisma.ts`, `src/server.ts`...; the clean-project test compiles them against that page's
 * own schema, this one only as far as a block imports them), the example's generated code at
 * `src/generated`, and `src/api.d.ts`, the example's OpenAPI document as openapi-typescript types
 * it (openapi.md's command). Each block is a module in `src/`; the one name a block may use
 * without importing it is `prisma`, the app's Prisma client of `src/prisma.ts`.
 *
 * Another page's `file=` blocks are the project of a walk-through of its own (its schema, its
 * models), which the clean-project test follows and compiles with its own tsc
 * (tools/install-test): they are not written here, and such a page must be one it follows.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderOpenApi } from '@prisma-hydra/runtime'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hydraTypes } from '#generated/hydra/index.js'
import {
  docLine,
  fencedBlocks,
  fileOf,
  type Snippet,
  type SnippetModule,
  snippetModules,
} from './support/doc-snippets.js'

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url))
/** The page whose project the blocks live in. */
const PROJECT_PAGE = 'docs/getting-started.md'
const INSTALL_TEST = path.join(REPOSITORY, 'tools/install-test')
const GENERATED = fileURLToPath(new URL('../src/generated/', import.meta.url))
const CACHE = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url))

/** What every block may use without importing it. */
const PREAMBLE = `import type { prisma as client } from './prisma.js'

declare global {
  /** The app's Prisma client: getting-started.md's src/prisma.ts. */
  const prisma: typeof client
}
`

/**
 * A page of blocks that must not compile, read with the docs: the check must report each of its
 * errors at the page's line, a block continued included.
 */
const BROKEN = `# A broken page

\`\`\`ts
const pages: number = 'many'
\`\`\`

\`\`\`ts continues
console.log(pages.toUpperCase())
\`\`\`
`

/** The docs' pages, as the repository names them. */
async function pages(): Promise<string[]> {
  const docs = await readdir(path.join(REPOSITORY, 'docs'))
  return ['README.md', ...docs.filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]
}

let project: string
let blocks: Snippet[]
let modules: Map<string, SnippetModule>

/**
 * The project getting-started.md makes, in `folder`: its `file=` blocks, the example's generated
 * code, the preamble, and `src/api.d.ts` from the document the generated app serves at
 * `/openapi.json` (no access rules), as openapi.md's openapi-typescript command writes it.
 */
async function writeProject(folder: string): Promise<void> {
  await mkdir(path.join(folder, 'src'))
  await writeFile(path.join(folder, 'package.json'), '{ "type": "module" }\n')
  await symlink(GENERATED, path.join(folder, 'src/generated'), 'dir')
  for (const block of blocks) {
    const file = fileOf(block)
    if (!file || block.language !== 'ts' || block.doc !== PROJECT_PAGE) continue
    await mkdir(path.dirname(path.join(folder, file)), { recursive: true })
    await writeFile(path.join(folder, file), block.code)
  }
  await writeFile(path.join(folder, 'src/preamble.ts'), PREAMBLE)
  const document = renderOpenApi(
    { title: 'Library API', types: hydraTypes },
    { origin: 'http://localhost:3000', base: '' }
  )
  const types = astToString(await openapiTS(JSON.stringify(document)))
  await writeFile(path.join(folder, 'src/api.d.ts'), types)
}

beforeAll(async () => {
  blocks = []
  for (const page of await pages())
    blocks.push(...fencedBlocks(page, await readFile(path.join(REPOSITORY, page), 'utf8')))
  await mkdir(CACHE, { recursive: true })
  project = await mkdtemp(path.join(CACHE, 'doc-snippets-'))
  await writeProject(project)
  modules = new Map()
  const broken = snippetModules(fencedBlocks('broken.md', BROKEN))
  for (const [index, module] of [...snippetModules(blocks), ...broken].entries()) {
    const file = path.join(project, 'src', `snippet-${String(index).padStart(3, '0')}.ts`)
    // `export {}`: a module even without imports, so that blocks do not share their names.
    await writeFile(file, `${module.code}export {}\n`)
    modules.set(file, module)
  }
})

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true })
})

/** The tsconfig.json of getting-started.md, read as tsc reads it. */
function compilerOptions(): ts.CompilerOptions {
  const block = blocks.find((b) => b.doc === PROJECT_PAGE && fileOf(b) === 'tsconfig.json')
  if (!block) throw new Error(`${PROJECT_PAGE} has no block marked file=tsconfig.json`)
  const { compilerOptions: json } = JSON.parse(block.code) as { compilerOptions: object }
  const { options, errors } = ts.convertCompilerOptionsFromJson(json, project)
  if (errors.length > 0)
    throw new Error(ts.flattenDiagnosticMessageText(errors[0]?.messageText, '\n'))
  if (options.strict !== true) throw new Error("getting-started.md's tsconfig.json is not strict")
  return { ...options, noEmit: true }
}

/** Where an error is: a block's page and line, or a file of the project. */
function place(diagnostic: ts.Diagnostic): string {
  const { file, start } = diagnostic
  if (!file || start === undefined) return 'the program'
  const { line } = file.getLineAndCharacterOfPosition(start)
  const module = modules.get(path.normalize(file.fileName))
  if (module) return docLine(module, line)
  const written = blocks.find(
    (b) =>
      b.doc === PROJECT_PAGE && fileOf(b) && path.join(project, fileOf(b) ?? '') === file.fileName
  )
  if (written) return `${written.doc}:${written.line + line}`
  return `${path.relative(project, file.fileName)}:${line + 1}`
}

describe("the docs' TypeScript blocks", () => {
  it('compile in strict mode, each error reported at its page and line', () => {
    const program = ts.createProgram(
      [...modules.keys(), path.join(project, 'src/preamble.ts')],
      compilerOptions()
    )
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${place(d)}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)
    // The broken page's errors, and only those: every other block compiles.
    expect(errors).toEqual([
      "broken.md:4: TS2322 Type 'string' is not assignable to type 'number'.",
      "broken.md:8: TS2339 Property 'toUpperCase' does not exist on type 'number'.",
    ])
  }, 120_000)

  it('are, on pages other than getting-started.md, files of a walk-through the clean-project test follows', async () => {
    const sources = await readdir(INSTALL_TEST)
    let followed = ''
    for (const source of sources.filter((name) => name.endsWith('.mjs')))
      followed += await readFile(path.join(INSTALL_TEST, source), 'utf8')
    const walkthroughs = new Set(
      blocks.filter((b) => fileOf(b) && b.doc !== PROJECT_PAGE).map((b) => b.doc)
    )
    expect(walkthroughs.size).toBeGreaterThan(0)
    const unfollowed = [...walkthroughs].filter((page) => !followed.includes(`'${page}'`))
    expect(unfollowed).toEqual([])
  })

  it('are all fenced `ts`, the language this test reads', () => {
    // A JavaScript file a walk-through writes and runs (`js file=scripts/x.mjs`) is the
    // clean-project test's to prove, which runs it; any other code is TypeScript, compiled here.
    const run = (b: (typeof blocks)[number]) =>
      b.language === 'js' && /\.m?js$/.test(fileOf(b) ?? '') && b.doc !== PROJECT_PAGE
    const others = blocks.filter(
      (b) => /^(typescript|tsx|jsx?|mjs|javascript)$/.test(b.language) && !run(b)
    )
    expect(others.map((b) => `${b.doc}:${b.line - 1}: ${b.language}`)).toEqual([])
  })
})
