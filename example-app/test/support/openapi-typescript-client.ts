/**
 * A client of a served OpenAPI document as its users write one (docs/openapi.md): `client.ts` in
 * the folder `source` (excluded from the suite's own type check; copied whole, beside any module
 * it imports) imports its types from `./schema.js`, which
 * openapi-typescript's CLI writes from the document; tsc checks the client with them, then the
 * test imports and runs it. Each call works in a folder of its own under test/output: a test file
 * runs on every database at once, and one run's types must not be another's.
 */
import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const OUTPUT = fileURLToPath(new URL('../output/', import.meta.url))
const TSCONFIG = fileURLToPath(new URL('../../../tsconfig.json', import.meta.url))

/**
 * The module of `source`'s client, type-checked against the types openapi-typescript writes of
 * the document at `documentUrl` (typed `M` by the caller: the suite's type check does not follow
 * it into types that only exist once this has run), and how to remove its folder.
 */
export async function openapiTypescriptClient<M>(
  source: URL,
  documentUrl: string
): Promise<{ module: M; remove: () => Promise<void> }> {
  await mkdir(OUTPUT, { recursive: true })
  const folder = await mkdtemp(path.join(OUTPUT, 'openapi-client-'))
  const remove = () => rm(folder, { recursive: true, force: true })
  try {
    await cp(source, folder, { recursive: true })
    const tsconfig = { extends: TSCONFIG, compilerOptions: { noEmit: true } }
    await writeFile(path.join(folder, 'tsconfig.json'), JSON.stringify(tsconfig))
    const schema = path.join(folder, 'schema.d.ts')
    await installedTypes(documentUrl, schema)
    await run('npx', ['--no-install', 'tsc', '-p', folder])
    return { module: (await import(path.join(folder, 'client.ts'))) as M, remove }
  } catch (error) {
    await remove()
    throw error
  }
}

const OPENAPI_DOC = fileURLToPath(new URL('../../../docs/openapi.md', import.meta.url))

/**
 * Runs docs/openapi.md's openapi-typescript command (its `sh` block naming openapi-typescript) on
 * the document at `documentUrl`, writing `file`, in `file`'s folder: the page's URL and output
 * replaced, nothing else.
 */
export async function documentedTypes(documentUrl: string, file: string): Promise<void> {
  const markdown = await readFile(OPENAPI_DOC, 'utf8')
  const command = /```sh\n(npx [^\n]*openapi-typescript [^\n]*)\n```/.exec(markdown)?.[1]
  if (!command) throw new Error('docs/openapi.md has no sh block running openapi-typescript')
  const [npx = '', ...args] = command
    .replace('http://localhost:3000/openapi.json', documentUrl)
    .replace('src/api.d.ts', file)
    .split(/\s+/)
  await run(npx, args, { cwd: path.dirname(file) })
}

/** The types the openapi-typescript the repository installs writes of `documentUrl`, at `file`. */
export async function installedTypes(documentUrl: string, file: string): Promise<void> {
  await run('npx', ['--no-install', 'openapi-typescript', documentUrl, '-o', file])
}
