/**
 * docs/runtime-bun-deno.md's own server entry on a database that cannot be used: its `file=`
 * blocks (`src/prisma.ts` on libsql, `src/server.ts` with the start-up check) written in a folder
 * of the example over its generated code, started by the page's own commands (`step=start-bun`,
 * `step=start-deno`), stop with the one line the page promises, naming the database and the
 * reason, and exit code 1: no stack, no excerpt of the source. Served on a seeded SQLite file of
 * its own, the same entry stops on `SIGTERM` without losing a request of clients that keep their
 * connections alive (the page's promise, as docs/deployment.md#stopping-the-server makes it on
 * Node), and exits promptly. It touches no database of the suite: it runs in the `sqlite` project
 * alone.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { Agent } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { fencedBlocks, fileOf } from './support/doc-snippets.js'
import { freePort } from './support/free-port.js'
import { askKeptAlive } from './support/keep-alive-request.js'

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

/** The page's command of `step`: the binary npm links for it, and its arguments. */
function commandOf(step: string): [string, string[]] {
  const command = commands.get(step)
  if (!command) throw new Error(`${PAGE} has no block marked step=${step}`)
  // `npx bun ...` as the page writes it, run from the workspace's own binaries.
  const [bin = '', ...args] = command.replace(/^npx /, '').split(/\s+/)
  return [path.join(BIN, bin), args]
}

/** Runs the page's command of `step` in the project, with `env`; its exit code and output. */
function run(
  step: string,
  env: NodeJS.ProcessEnv
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [bin, args] = commandOf(step)
  return new Promise((resolve) => {
    execFile(
      bin,
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

/** A page read with its count, so that each answer reads the database. */
const PAGE_PATH = '/api/books?page=2'
const CLIENTS = 40

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/** The page's command of `step` started on `port` over the SQLite file at `url`, once it answers. */
async function serving(step: string, port: number, url: string): Promise<ChildProcess> {
  const [bin, args] = commandOf(step)
  // A free port: the entry reads PORT on both runtimes.
  const child = spawn(bin, args, {
    cwd: project,
    env: { ...process.env, DATABASE_URL: url, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null)
      throw new Error(`${step} exited with ${child.exitCode}:\n${output}`)
    if (waited > 60_000) throw new Error(`${step}: not answering after 60 s:\n${output}`)
    const answered = await fetch(`http://127.0.0.1:${port}${PAGE_PATH}`).then(
      (response) => response.status,
      () => undefined
    )
    if (answered === 200) return child
    await pause(100)
  }
}

/**
 * Each client's answers on its connection kept alive (Bun and Deno write no `Connection` on
 * them), then answers closing their connections, then the refusal of a new connection (or its
 * reset, when it was opened as the server stopped): never a request lost on a reused connection.
 */
const EXPECTED =
  /^(200 (keep-alive|undefined)\n)+(200 close\n)+(ECONNREFUSED|ECONNRESET) on a new socket$/

describe(`${PAGE}'s server entry stopping`, () => {
  let url: string

  beforeAll(async () => {
    url = `file:${path.join(project, 'stopping.db')}`
    const seeded = createPrismaClient(url)
    await prepareDatabase(seeded, url)
    await seeded.$disconnect()
  }, 60_000)

  it.each(['start-bun', 'start-deno'])(
    'loses no request of a reused connection on %s, and exits within 3 s of SIGTERM',
    async (step) => {
      const port = await freePort()
      const child = await serving(step, port, url)
      const exited = new Promise<number>((resolve) => child.on('exit', () => resolve(Date.now())))
      const seen = Array.from({ length: CLIENTS }, (): string[] => [])
      let signalled = 0
      try {
        const clients = seen.map(async (answers) => {
          const agent = new Agent({ keepAlive: true, maxSockets: 1 })
          for (let asked = 0; asked < 5_000; asked++) {
            const answer = await askKeptAlive(`http://127.0.0.1:${port}${PAGE_PATH}`, agent)
            answers.push(answer)
            if (!answer.startsWith('200 ')) break
          }
          agent.destroy()
        })
        while (seen.some((answers) => answers.length === 0)) await pause(20)
        await pause(300)
        signalled = Date.now()
        child.kill('SIGTERM')
        await Promise.all(clients)
        const stopped = await Promise.race([exited, pause(10_000).then(() => undefined)])
        expect(stopped, 'the process was still running 10 s after SIGTERM').toBeDefined()
        expect((stopped as number) - signalled).toBeLessThan(3_000)
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      }
      const unexpected = seen.filter((answers) => !EXPECTED.test(answers.join('\n')))
      // The last answers of each client that saw otherwise: what it lost, and how.
      expect(unexpected.map((answers) => answers.slice(-3))).toEqual([])
    },
    120_000
  )
})
