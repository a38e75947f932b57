// `prisma-hydra init` writes the files the docs show, to the byte: getting-started.md's project
// in an empty folder, and the entries of runtime-bun-deno.md and runtime-workers.md when asked.
// The docs' walk-throughs are what the clean-project test runs, so these files are tested there.

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { docLink } from '../../src/init/doc-links.js'
import { docBlocks, init, packageJson, projectFolder, readFiles, writeFiles } from './support.js'

const gettingStarted = docBlocks('getting-started.md')

/** The scripts a step of `npm pkg set scripts.<name>=<command> ...` sets. */
function scriptsOfStep(step: string | undefined): Record<string, string> {
  const scripts: Record<string, string> = {}
  for (const match of (step ?? '').matchAll(/scripts\.(\w+)=("[^"]*"|\S+)/g))
    scripts[match[1] as string] = (match[2] as string).replace(/^"|"$/g, '')
  return scripts
}

/** Expects each file of `written` named in `docFiles` to be the doc's block. */
function expectDocFiles(
  written: Record<string, string>,
  docFiles: Map<string, string>,
  paths: string[]
) {
  for (const file of paths) {
    expect(docFiles.has(file), `the doc has a block marked file=${file}`).toBe(true)
    expect(written[file], file).toBe(docFiles.get(file))
  }
}

const PROJECT_FILES = [
  'prisma/schema.prisma',
  'prisma.config.ts',
  'src/prisma.ts',
  'src/server.ts',
  'src/seed.ts',
  'tsconfig.json',
]

describe('prisma-hydra init in a folder without a Prisma schema', () => {
  it("writes getting-started.md's project, and its scripts into a package.json of its own", () => {
    const folder = projectFolder()
    const result = init(folder)
    expect(result.code).toBe(0)
    const written = readFiles(folder)
    expect(Object.keys(written)).toEqual(['package.json', ...PROJECT_FILES].sort())
    expectDocFiles(written, gettingStarted.files, PROJECT_FILES)
    expect(packageJson(folder)).toEqual({
      name: 'my-api',
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: scriptsOfStep(gettingStarted.steps.get('scripts')),
    })
    for (const file of PROJECT_FILES) expect(result.out).toContain(`created ${file}`)
    expect(result.out).toContain('npx prisma generate')
  })

  it("adds the same scripts to npm's package.json, keeping its own", () => {
    const folder = projectFolder()
    writeFiles(folder, {
      'package.json': `${JSON.stringify({ name: 'my-api', type: 'module', scripts: { test: 'vitest' } }, null, 2)}\n`,
    })
    expect(init(folder).code).toBe(0)
    expectDocFiles(readFiles(folder), gettingStarted.files, PROJECT_FILES)
    expect(packageJson(folder).scripts).toEqual({
      test: 'vitest',
      ...scriptsOfStep(gettingStarted.steps.get('scripts')),
    })
  })
})

describe('prisma-hydra init --runtime', () => {
  const bunDeno = docBlocks('runtime-bun-deno.md')
  const workers = docBlocks('runtime-workers.md')

  it.each(['bun', 'deno'])("%s: runtime-bun-deno.md's client and server entry", (runtime) => {
    const folder = projectFolder()
    expect(init(folder, 'init', '--runtime', runtime).code).toBe(0)
    const written = readFiles(folder)
    expectDocFiles(written, bunDeno.files, ['src/prisma.ts', 'src/server.ts'])
    expectDocFiles(written, gettingStarted.files, ['prisma/schema.prisma', 'src/seed.ts'])
    const start = bunDeno.steps.get(`start-${runtime}`)?.trim().replace(/^npx /, '')
    expect(packageJson(folder).scripts?.start).toBe(start)
  })

  it("workers: runtime-workers.md's script, Worker entry, wrangler.jsonc and seed SQL", () => {
    const folder = projectFolder()
    expect(init(folder, 'init', '--runtime', 'workers').code).toBe(0)
    const written = readFiles(folder)
    expectDocFiles(written, workers.files, [
      'scripts/workers-schema.mjs',
      'src/worker.ts',
      'wrangler.jsonc',
      'seed.sql',
    ])
    expect(written['src/server.ts']).toBeUndefined()
    const scripts = packageJson(folder).scripts ?? {}
    const generate = workers.steps.get('generate')?.trim().split('\n') ?? []
    expect(scripts.generate).toBe(generate.map((line) => line.replace(/^npx /, '')).join(' && '))
    expect(scripts.start).toBe(workers.steps.get('start-workers')?.trim().replace(/^npx /, ''))
    expect(scripts.seed).toBe(workers.steps.get('seed')?.trim().replace(/^npx /, ''))
  })
})

describe('the links init prints', () => {
  const sources = fileURLToPath(new URL('../../src/init/', import.meta.url))
  const docs = fileURLToPath(new URL('../../../docs/', import.meta.url))
  const links = readdirSync(sources).flatMap((file) => [
    ...readFileSync(`${sources}${file}`, 'utf8').matchAll(/docLink\('([^']+)'(?:, '([^']+)')?\)/g),
  ])

  it.each(links.map((match) => [match[1] as string, match[2]]))(
    'lead to a page and a section of the docs: %s, %s',
    (page, heading) => {
      expect(existsSync(`${docs}${page}`)).toBe(true)
      if (heading === undefined) return
      const headings = [...readFileSync(`${docs}${page}`, 'utf8').matchAll(/^#+ (.*)$/gm)]
      expect(headings.map((h) => docLink(page, h[1]))).toContain(docLink(page, heading))
    }
  )

  it('are found in the sources', () => {
    expect(links.length).toBeGreaterThanOrEqual(8)
  })
})
