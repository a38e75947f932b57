/**
 * docs/runtime-bun-deno.md's own server entry on a database that cannot be used: its `file=`
 * blocks (`src/prisma.ts` on libsql, `src/server.ts` with the start-up check) written in a folder
 * of the example over its generated code, started by the page's own commands (`step=start-bun`,
 * `step=start-deno`), stop with the one line the page promises, naming the database and the
 * reason, and exit code 1: no stack, no excerpt of the source. It touches no database of the
 * suite (its own SQLite file cannot be opened): it runs in the `sqlite` project alone.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fencedBlocks, fileOf } from './support/doc-snippets.js'

const APP = fileURLToPath(new URL('..', import.meta.url))
const PAGE = 'docs/runtime-bun-deno.md'
/** The commands npm links for the workspace (bun, deno). */
const BIN = path.join(APP, '..', 'node_modules', '.bin')

let project: string
let commands: Map<string, string>

beforeAll(async () => {
  const blocks = fencedBlocks(PAGE, await readFile(path.join(APP, '..', PAGE), 'utf8'))
  const output = path.join(APP, 'test-output')
  await mkdir(output, { recursive: true })
  project = await mkdtemp(path.join(output, 'bun-deno-entry-'))
  await mkdir(path.join(project, 'src'))
  await writeFile(path.join(project, 'package.json'), '{ "type": "module" }\n')
  await symlink(path.join(APP, 'src/generated'), path.join(project, 'src/generated'), 'dir')
  for (const block of blocks) {
    const file = fileOf(block)
    if (file?.startsWith('src/')) await writeFile(path.join(project, file), block.code)
  }
  commands = new Map(
    blocks.flatMap((block) => {
      const step = block.attributes.find((word) => word.startsWith('step='))?.slice(5)
      return step ? [[step, block.code.trim()] as const] : []
    })
  )
})

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true })
})

/** Runs the page's command of `step` in the project, with `env`; its exit code and output. */
function run(
  step: string,
  env: NodeJS.ProcessEnv
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const command = commands.get(step)
  if (!command) throw new Error(`${PAGE} has no block marked step=${step}`)
  // `npx bun ...` as the page writes it, run from the workspace's own binaries.
  const [bin = '', ...args] = command.replace(/^npx /, '').split(/\s+/)
  return new Promise((resolve) => {
    execFile(
      path.join(BIN, bin),
      args,
      { cwd: project, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error.code as number | undefined) ?? null) : 0, stdout, stderr })
    )
  })
}

describe(`${PAGE}'s server entry`, () => {
  it.each(['start-bun', 'start-deno'])(
    'stops on %s with one line naming the database and the reason',
    async (step) => {
      // A folder that does not exist: libsql cannot open the file, and the check's SELECT 1 fails.
      const url = `file:${path.join(project, 'missing', 'dev.db')}`
      const { code, stdout, stderr } = await run(step, { DATABASE_URL: url, PORT: '0' })
      expect(code, `${stdout}${stderr}`).toBe(1)
      const lines = stderr.split('\n').filter((line) => line.trim() !== '')
      expect(lines, stderr).toHaveLength(1)
      expect(lines[0]).toMatch(new RegExp(`^The database ${url} cannot be used: .+`))
    },
    90_000
  )

  it.each(['start-bun', 'start-deno'])(
    'names the default database on %s when DATABASE_URL is unset, as Node does',
    async (step) => {
      // ./dev.db a folder: libsql cannot open it as a file.
      await mkdir(path.join(project, 'dev.db'), { recursive: true })
      const { code, stdout, stderr } = await run(step, { DATABASE_URL: undefined, PORT: '0' })
      expect(code, `${stdout}${stderr}`).toBe(1)
      const lines = stderr.split('\n').filter((line) => line.trim() !== '')
      expect(lines, stderr).toHaveLength(1)
      expect(lines[0]).toMatch(/^The database file:\.\/dev\.db cannot be used: .+/)
    },
    90_000
  )
})
