/**
 * What client-generator writes, type-checked (tsc) against what the API sends and against the
 * libraries its output imports. Both read the API through api-doc-parser's reading of the
 * documentation (the `Api` given), as client-generator does.
 */
import { execFile } from 'node:child_process'
import { readFile, symlink, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Api } from '@api-platform/api-doc-parser'
import { expect } from 'vitest'

const HYDRA = 'http://www.w3.org/ns/hydra/core#'
const require = createRequire(import.meta.url)

/** tsc's report on the project `tsconfig` describes in `dir`: empty when it type-checks. */
async function tsc(dir: string, tsconfig: Record<string, unknown>): Promise<string> {
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig))
  const bin = require.resolve('typescript/bin/tsc')
  const result = await promisify(execFile)(process.execPath, [bin, '-p', dir], {
    timeout: 60_000,
  }).catch((error: { stdout: string }) => ({ stdout: error.stdout }))
  return result.stdout
}

/**
 * Type-checks the typescript client's interfaces against every member of each collection's first
 * page as the API sends it (tsc, strict, null checks on), written as object literals so that a
 * field sent but not declared fails too. Two rules of client-generator 0.7 no documentation can
 * change (docs/hydra.md#clients-the-tests-drive) are spelled out here, from the documentation: its
 * template writes an optional field `field?: T` and never `| null`, and JSON-LD sends an absent
 * value as null, so a field the documentation does not mark `hydra:required` may also be null (a
 * required one may not); and it types `xsd:decimal` as number and `xsd:dateTime` as Date from the
 * range alone, while both are sent as text, so those are checked as strings. Every other field,
 * and `@id`, is checked as the generator typed it. `@type` is JSON-LD's, not in the interfaces.
 */
export async function typeCheckInterfaces(api: Api, output: string): Promise<void> {
  const lines = [
    '// Optional fields may be null; the fields in Text are sent as text.',
    'type AsSent<T, Text extends keyof T> = {',
    '  readonly [K in keyof T]: (K extends Text ? string : T[K]) | (undefined extends T[K] ? null : never)',
    "} & { readonly '@type': string }",
  ]
  let members = 0
  for (const resource of api.resources ?? []) {
    const name = resource.title as string
    const file = name.toLowerCase()
    const page = (await (await fetch(resource.url)).json()) as Record<string, unknown[]>
    const sent = page['hydra:member'] ?? page.member ?? []
    expect(sent.length, resource.url).toBeGreaterThan(0)
    members += sent.length
    const generated = await readFile(path.join(output, `interfaces/${file}.ts`), 'utf8')
    const asText = (resource.fields ?? []).filter((field) =>
      ['decimal', 'dateTime'].includes(field.type ?? '')
    )
    for (const field of asText) {
      const rule = field.type === 'decimal' ? 'number' : 'Date'
      expect(generated).toMatch(new RegExp(`readonly ${field.name}\\??: ${rule};`))
    }
    const keys = asText.map((field) => JSON.stringify(field.name)).join(' | ') || 'never'
    lines.push(
      `import type { ${name} } from './interfaces/${file}'`,
      `export const ${file}: ReadonlyArray<AsSent<${name}, ${keys}>> = ${JSON.stringify(sent, null, 1)}`
    )
  }
  expect(members).toBeGreaterThan(30)
  await writeFile(path.join(output, 'check.ts'), `${lines.join('\n')}\n`)
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
  }
  expect(await tsc(output, { compilerOptions, files: ['check.ts'] })).toBe('')
}

/**
 * Type-checks the `next` client as `next build` does before it builds (tsc with the tsconfig.json
 * Next.js writes for a project without one: not strict, JSX by React's runtime), against the
 * types of next, react, formik and lodash, the packages its pages import, once the edits
 * docs/hydra.md gives are made to its `types/`: the fields typed from their range alone and sent
 * as text (decimals and dates as number and Date) and the links to a collection (typed `any`, sent
 * as the collection's IRI) become `string`, each found from the documentation.
 */
export async function typeCheckNext(api: Api, output: string): Promise<void> {
  let edited = 0
  for (const resource of api.resources ?? []) {
    const name = resource.title as string
    const file = path.join(output, `types/${name.charAt(0).toUpperCase()}${name.slice(1)}.ts`)
    let text = await readFile(file, 'utf8')
    for (const field of resource.fields ?? []) {
      const sentAsText = ['decimal', 'dateTime', 'date'].includes(field.type ?? '')
      if (!sentAsText && field.range !== `${HYDRA}Collection`) continue
      const declared = new RegExp(`public ${field.name}\\?: (number|Date|any)\\b`)
      expect(text, `${name}.${field.name}`).toMatch(declared)
      text = text.replace(declared, `public ${field.name}?: string`)
      edited++
    }
    await writeFile(file, text)
  }
  expect(edited).toBeGreaterThan(5)
  await writeFile(
    path.join(output, 'next-env.d.ts'),
    '/// <reference types="next" />\n/// <reference types="next/image-types/global" />\n'
  )
  // The packages resolve from the example's own node_modules, as in a project that installs them.
  const modules = path.dirname(path.dirname(require.resolve('next/package.json')))
  await symlink(modules, path.join(output, 'node_modules'), 'dir')
  const compilerOptions = {
    target: 'es2017',
    lib: ['dom', 'dom.iterable', 'esnext'],
    allowJs: true,
    skipLibCheck: true,
    strict: false,
    noEmit: true,
    esModuleInterop: true,
    module: 'esnext',
    moduleResolution: 'bundler',
    resolveJsonModule: true,
    isolatedModules: true,
    jsx: 'react-jsx',
  }
  const include = ['next-env.d.ts', '**/*.ts', '**/*.tsx']
  expect(await tsc(output, { compilerOptions, include, exclude: ['node_modules'] })).toBe('')
}
