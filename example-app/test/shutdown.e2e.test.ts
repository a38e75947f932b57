/**
 * Stopping the server (docs/deployment.md#stopping-the-server): `SIGTERM` reaches a server while a
 * page is in flight, its read waiting on a table another connection holds; the server stops
 * accepting, the table is freed, and the page is answered `200` in full before the process exits
 * with code 0.
 * The example app on Node, Bun and Deno (`src/main.ts`), and a server written from the docs' own
 * block, run as it is but for its imports. On PostgreSQL and MariaDB, whose drivers wait for the
 * server without holding the process: a read SQLite makes wait holds the whole process, signals
 * included.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { fencedBlocks } from './support/doc-snippets.js'
import { TEST_DATABASE } from './support/harness.js'
import { type Exit, runtimePresent, startExample } from './support/runtime-servers.js'
import { pause, seededDatabase } from './support/seeded-database.js'
import { holdTablesOn, readsRunning } from './support/table-lock.js'

const APP = fileURLToPath(new URL('..', import.meta.url))
const DEPLOYMENT = fileURLToPath(new URL('../../docs/deployment.md', import.meta.url))
/** The page in flight: a full page of books with its count. */
const PAGE = '/books?page=2'

const seeded = seededDatabase(TEST_DATABASE !== 'sqlite')
const opened: Array<() => Promise<void>> = []

afterAll(async () => {
  for (const close of opened.reverse()) await close()
})

/** Another connection holding `Book` until `release` (test/support/table-lock.ts). */
const holdBooks = () => holdTablesOn(seeded.database.url, ['Book'], TEST_DATABASE)

/** Polls until a statement reading `Book` runs on the server; false after five seconds. */
async function pageWaitsOnTheTable(): Promise<boolean> {
  for (let tries = 0; tries < 100; tries++) {
    if ((await readsRunning(seeded.prisma, 'Book', TEST_DATABASE)) > 0) return true
    await pause(50)
  }
  return false
}

/**
 * Polls `origin` with new connections until one is refused: the server has ended its drain and
 * listens no more. False after twenty seconds.
 */
async function refusesConnections(origin: string): Promise<boolean> {
  for (let tries = 0; tries < 100; tries++) {
    const refused = await fetch(`${origin}/ready`, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => {
        await response.arrayBuffer()
        return false
      },
      (error: Error) => (error.cause as { code?: string } | undefined)?.code === 'ECONNREFUSED'
    )
    if (refused) return true
    await pause(200)
  }
  return false
}

/**
 * Asks `origin` for the page while `Book` is held, calls `stop` (a signal) once the page's read
 * waits on the server, frees the table (`across` `'stop'`: once the server listens no more, the
 * page in flight across the stop itself; `'drain'`: half a second later, while the server drains,
 * listening still), and returns the page's status and body, read whole, and
 * whether the process had exited before the table was freed; and the same page asked before,
 * with nothing held (`whole`).
 */
async function pageAcrossStop(
  origin: string,
  stop: () => void,
  exited: () => boolean,
  across: 'drain' | 'stop'
): Promise<{ status: number; body: string; exitedEarly: boolean; whole: string }> {
  // The page as the server answers it when nothing waits.
  const whole = await (await fetch(`${origin}${PAGE}`)).text()
  const books = await holdBooks()
  let answer: Promise<{ status: number; body: string }>
  try {
    answer = fetch(`${origin}${PAGE}`).then(async (response) => ({
      status: response.status,
      body: await response.text(),
    }))
    // Settled without waiting: a rejection (a reset connection) is read below.
    answer.catch(() => {})
    expect(await pageWaitsOnTheTable()).toBe(true)
    stop()
    if (across === 'stop') expect(await refusesConnections(origin)).toBe(true)
    else await pause(500)
  } finally {
    await books.release()
  }
  const exitedEarly = exited()
  return { ...(await answer), exitedEarly, whole }
}

/**
 * The example's runtimes this project starts (Bun and Deno run PostgreSQL's driver as Node does),
 * each with the signal sent and what the page is in flight across: SIGTERM drains for 5 s, as long
 * as the table's lock may be waited for, so the page across the stop is SIGINT's, which does not
 * drain.
 */
type Case = readonly ['node' | 'bun' | 'deno', string, 'drain' | 'stop']
const RUNTIMES = (
  TEST_DATABASE === 'postgresql' ? (['node', 'bun', 'deno'] as const) : (['node'] as const)
).filter((runtime) => runtimePresent(runtime, 'shutdown.e2e'))
const CASES: Case[] = RUNTIMES.flatMap((runtime): Case[] => [
  [runtime, 'SIGTERM', 'drain'],
  [runtime, 'SIGINT', 'stop'],
  // Ctrl-C during SIGTERM's drain ends it: were it waited for, the page's wait for the lock
  // would end first (503).
  [runtime, 'SIGTERM,SIGINT', 'stop'],
])

describe.runIf(TEST_DATABASE !== 'sqlite')(
  `SIGTERM with a page in flight (${TEST_DATABASE})`,
  () => {
    it.each(CASES)(
      'is answered in full by the example on %s after %s, across its %s, then it exits',
      async (runtime, signals, across) => {
        const [signal, then] = signals.split(',') as [NodeJS.Signals, NodeJS.Signals?]
        const server = await startExample(runtime, seeded.database.url)
        let stopped: Promise<Exit> | undefined
        let exited = false
        try {
          const answer = await pageAcrossStop(
            server.origin,
            () => {
              stopped = server.stop(signal).then((exit) => {
                exited = true
                return exit
              })
              if (then) void pause(300).then(() => server.stop(then))
            },
            () => exited,
            across
          )
          expect(answer.exitedEarly).toBe(false)
          expect(answer.status, answer.body).toBe(200)
          expect(answer.body).toBe(answer.whole)
          expect(await stopped).toEqual({ code: 0, signal: null })
          expect(exited).toBe(true)
        } finally {
          await (stopped ?? server.stop())
        }
      },
      120_000
    )

    it("is answered in full by a server written from the docs' block, then it exits", async () => {
      const child = await startDocServer()
      const exit = new Promise<number | null>((resolve) => child.process.on('exit', resolve))
      let exited = false
      void exit.then(() => {
        exited = true
      })
      try {
        const answer = await pageAcrossStop(
          child.origin,
          () => child.process.kill('SIGTERM'),
          () => exited,
          // Its drain lasts as long as the table's lock may be waited for.
          'drain'
        )
        expect(answer.exitedEarly).toBe(false)
        expect(answer.status, answer.body).toBe(200)
        expect(answer.body).toBe(answer.whole)
        expect(await exit).toBe(0)
      } finally {
        if (!exited) child.process.kill('SIGKILL')
      }
    }, 60_000)
  }
)

/**
 * The block of docs/deployment.md that stops a server on `SIGTERM`, as a module of the example:
 * its generated app in place of a project's, and `prisma`, which the docs' blocks take as given,
 * the example's client of DATABASE_URL. It prints its address once it listens.
 */
async function docServerModule(): Promise<string> {
  const blocks = fencedBlocks('docs/deployment.md', await readFile(DEPLOYMENT, 'utf8'))
  const block = blocks.find(
    (candidate) => candidate.language === 'ts' && candidate.code.includes('closeGracefully(')
  )
  if (!block) throw new Error('docs/deployment.md has no block stopping a server')
  const prisma = pathToFileURL(path.join(APP, 'src/prisma.ts')).href
  return [
    `import { createPrismaClient } from '${prisma}'`,
    'const prisma = createPrismaClient(process.env.DATABASE_URL)',
    block.code.replace("'./generated/hydra/index.js'", "'#generated/hydra/index.js'"),
    "server.on('listening', () => console.log('listening on', JSON.stringify(server.address())))",
    '',
  ].join('\n')
}

/** The docs' server (docBlockModule) run by Node through tsx, on any free port, once it listens. */
async function startDocServer(): Promise<{ process: ChildProcess; origin: string }> {
  const output = path.join(APP, 'test-output')
  await mkdir(output, { recursive: true })
  const folder = await mkdtemp(path.join(output, 'shutdown-'))
  opened.push(() => rm(folder, { recursive: true, force: true }))
  const file = path.join(folder, 'server.ts')
  await writeFile(file, await docServerModule())
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
  const child = spawn(process.execPath, [`--conditions=${TEST_DATABASE}`, '--import', tsx, file], {
    cwd: APP,
    env: { ...process.env, PORT: '0', DATABASE_URL: seeded.database.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  opened.push(async () => void child.kill('SIGKILL'))
  return new Promise((resolve, reject) => {
    let printed = ''
    const timer = setTimeout(
      () => reject(new Error(`not listening after 30 s:\n${printed}`)),
      30_000
    )
    const read = (chunk: Buffer) => {
      printed += chunk.toString()
      const port = /listening on .*"port":(\d+)/.exec(printed)?.[1]
      if (!port) return
      clearTimeout(timer)
      resolve({ process: child, origin: `http://127.0.0.1:${port}` })
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${printed}`)))
  })
}
