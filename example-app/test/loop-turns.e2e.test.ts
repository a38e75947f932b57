/**
 * A request on a new connection while the example app serves a load on SQLite
 * (docs/deployment.md#sqlite-reads-take-turns). better-sqlite3 answers each statement before its
 * call returns, so a server that let each request read at once served, in each turn of its event
 * loop, every request it read in that turn, and accepted one new connection a turn: a connection
 * opened during the load waited for the load's connections and pages ahead of it before its
 * request was even read, a wait outside its budget, then was answered 200 however long it waited.
 * The reads take turns instead (runtime/src/database/loop-turns.ts): the new request's read waits
 * in line behind the load's, and its budget, which counts that wait, answers it 503 with
 * `Retry-After` while the load is still being served.
 *
 * The server runs in a process of its own (test/support/loop-turns-server.ts): the load's reads
 * hold its event loop, not the test's. The load reads pages whose count and page each scan
 * FILLER books (`title` containing text no book has), under a budget it never reaches; the probe
 * reads one book under PROBE_BUDGET, far less than the load's reads ahead of it take.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { Agent, get } from 'node:http'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { sendRaw } from './support/raw-http.js'

const APP = new URL('..', import.meta.url).pathname
const LOAD = 30
const FILLER = 300_000
const PROBE_BUDGET = 300
const RETRY_AFTER = 3
/** A page of the load: its count and its rows scan every book, and find none. */
const LOAD_PATH = '/load/books?title=no%20such%20title'

let database: TestDatabase
let server: ChildProcess | undefined
let origin = ''

/** Starts the server process; resolves with its origin once it listens. */
function startServer(url: string): Promise<string> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
  const child = spawn(
    process.execPath,
    ['--conditions=sqlite', '--import', tsx, 'test/support/loop-turns-server.ts'],
    {
      cwd: APP,
      env: {
        ...process.env,
        DATABASE_URL: url,
        PROBE_BUDGET: String(PROBE_BUDGET),
        RETRY_AFTER: String(RETRY_AFTER),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  )
  server = child
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(
      () => reject(new Error(`not listening after 60 s:\n${output}`)),
      60_000
    )
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const port = /listening on (\d+)/.exec(output)?.[1]
      if (port === undefined) return
      clearTimeout(timer)
      resolve(`http://127.0.0.1:${port}`)
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)))
  })
}

beforeAll(async () => {
  if (TEST_DATABASE !== 'sqlite') return
  database = await emptyDatabase()
  const prisma = createPrismaClient(database.url)
  try {
    await prepareDatabase(prisma, database.url)
    await prisma.$executeRawUnsafe(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${FILLER})
       INSERT INTO "Book" (title, isbn, genre, pages, price, publishedAt, authorId)
       SELECT 'Filler ' || i, 'filler-' || i, 'HISTORY', 100, 9.99,
         '2001-01-01T00:00:00.000+00:00', 1 FROM n`
    )
  } finally {
    await prisma.$disconnect()
  }
  origin = await startServer(database.url)
}, 120_000)

afterAll(async () => {
  loadAgent.destroy()
  if (server && server.exitCode === null) {
    server.removeAllListeners('exit')
    const exited = new Promise((resolve) => server?.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
  await database?.remove()
})

/**
 * The load's connections, opened together. Through `fetch` the load's requests reached the server
 * one a turn of its loop (each read once the one before it was served), never in a line.
 */
const loadAgent = new Agent({ keepAlive: true, maxSockets: LOAD })

/** A page of the load, on one of its connections; resolves with its status once read whole. */
function loadPage(): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get(`${origin}${LOAD_PATH}`, { agent: loadAgent }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode))
    }).on('error', reject)
  })
}

/** `path` on a connection of its own, opened now. */
function onNewConnection(path: string) {
  const { host } = new URL(origin)
  return sendRaw(origin, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
}

describe.runIf(TEST_DATABASE === 'sqlite')('a new connection during a load on SQLite', () => {
  it.each(['prisma', 'compiled'])(
    '%s engine: waiting in line past its budget answers 503 with Retry-After, before the load ends',
    async (engine) => {
      const probePath = `/${engine}/books/1`
      // Each route's queries prepared once, outside the load.
      expect(await loadPage()).toBe(200)
      expect((await onNewConnection(probePath)).status).toBe(200)

      let answered = 0
      const load = Array.from({ length: LOAD }, () =>
        loadPage().then((status) => {
          answered++
          return status
        })
      )
      // Once the first load page is answered, the server has been sent every load request.
      await Promise.race(load)
      const probe = await onNewConnection(probePath)
      const unansweredMeanwhile = LOAD - answered

      expect(probe.status).toBe(503)
      expect(probe.headers['retry-after']).toBe(String(RETRY_AFTER))
      expect(probe.headers['content-type']).toMatch(/^application\/problem\+json/)
      // Answered while the load was still being served, not after its round.
      expect(unansweredMeanwhile).toBeGreaterThan(0)
      expect(await Promise.all(load)).toEqual(Array(LOAD).fill(200))
    },
    60_000
  )
})
