/**
 * Every line the runtime logs goes through the app's logger (docs/operations.md#logger), none to
 * the console: an outage episode of the database (reached through a TCP proxy of the test's own,
 * support/tcp-proxy.ts, cut and resumed; PostgreSQL and MariaDB) seen line by line, with the
 * readiness route's answers during it, and a streamed collection it cuts in the middle; and a failure of one of the app's own routes (every
 * database).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js'

/** One route of each kind that reads the database: item, page, sub-collection, custom handler. */
const ROUTES = ['/books/1', '/books?page=2', '/authors/1/books', '/genres']
const DEFAULT_PORTS = { postgresql: 5432, mysql: 3306, sqlite: 0 }
const server = TEST_DATABASE !== 'sqlite'

interface Logged {
  level: string
  message: string
  fields: Record<string, unknown>
}

const records: Logged[] = []
const consoleLines: unknown[][] = []
let database: TestDatabase
let direct: PrismaClient
let proxied: PrismaClient
let proxy: TcpProxy | undefined
let origin: string
let close: () => Promise<void>

beforeAll(async () => {
  database = await emptyDatabase()
  direct = createPrismaClient(database.url)
  await prepareDatabase(direct, database.url)
  let url = database.url
  if (server) {
    const target = new URL(database.url)
    proxy = await startTcpProxy({
      host: target.hostname,
      port: Number(target.port || DEFAULT_PORTS[TEST_DATABASE]),
    })
    const through = new URL(database.url)
    through.host = proxy.address
    url = through.toString()
  }
  proxied = createPrismaClient(url, { connect: 2000, statement: 3000, query: 4000 })
  const app = createApp(proxied, {
    timeouts: { query: 2500, retryAfter: 2, transactionMaxWait: 2000 },
    logger: (record) => records.push(record),
    // A streamed collection reads a row per query: a cut meets it mid-stream.
    batchSize: 1,
  })
  // A route of the app's own that fails: its 500 is logged through the same logger.
  app.get('/failing', () => {
    throw new Error('a bug in a route of the app')
  })
  ;({ origin, close } = await startServer(app.fetch))
  // Anything written to the console by the runtime would land here.
  vi.spyOn(console, 'error').mockImplementation((...line) => void consoleLines.push(line))
  vi.spyOn(console, 'warn').mockImplementation((...line) => void consoleLines.push(line))
})

afterAll(async () => {
  vi.restoreAllMocks()
  await close?.()
  await proxied?.$disconnect()
  await proxy?.close()
  await direct?.$disconnect()
  await database?.remove()
})

async function statuses(paths: readonly string[]): Promise<number[]> {
  return Promise.all(
    paths.map(async (path) => {
      const response = await fetch(`${origin}${path}`)
      await response.arrayBuffer()
      return response.status
    })
  )
}

/** Polls until every route answers 200 again; the 503s answered meanwhile. */
async function recovery(): Promise<number> {
  const started = performance.now()
  let unavailable = 0
  for (;;) {
    const answers = await statuses([...ROUTES, '/ready'])
    unavailable += answers.filter((status) => status === 503).length
    if (answers.every((status) => status === 200)) return unavailable
    if (performance.now() - started > 20000) throw new Error(`no recovery within 20 s: ${answers}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe(`the app's logger (${TEST_DATABASE})`, () => {
  it("takes a failure of one of the app's routes, with its error, and the console none", async () => {
    await recovery()
    records.length = 0
    const response = await fetch(`${origin}/failing`)
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ status: 500 })
    expect(records).toEqual([
      {
        level: 'error',
        message: 'GET /failing failed; answering 500',
        fields: {
          event: 'server.error',
          method: 'GET',
          path: '/failing',
          error: expect.objectContaining({ message: 'a bug in a route of the app' }),
        },
      },
    ])
    expect(consoleLines).toEqual([])
  })

  it.skipIf(!server)('takes an outage episode line by line, and the console none', async () => {
    await recovery()
    records.length = 0
    proxy?.cut()
    let answered = 0
    try {
      for (let round = 0; round < 3; round++) {
        const answers = await statuses([...ROUTES, '/ready'])
        expect(answers).toEqual([...ROUTES, '/ready'].map(() => 503))
        answered += answers.length
      }
      const ready = await fetch(`${origin}/ready`)
      expect(ready.headers.get('Retry-After')).toBe('5')
      expect(await ready.json()).toMatchObject({ status: 503 })
      answered++
    } finally {
      proxy?.resume()
    }
    await recovery()
    expect(records, 'one record when the outage starts, one when it ends').toEqual([
      {
        level: 'error',
        message: expect.stringMatching(
          /^the database is unavailable \(.+\); answering 503 until it answers again$/
        ),
        fields: { event: 'outage.start', database: 'the database', reason: expect.any(String) },
      },
      {
        level: 'info',
        message: expect.stringMatching(
          /^the database answers again after [0-9.]+ s \(\d+ requests answered 503\)$/
        ),
        fields: {
          event: 'outage.end',
          database: 'the database',
          seconds: expect.any(Number),
          requests: expect.any(Number),
        },
      },
    ])
    // Every 503 of the episode is counted in it (the recovery's own polls may add more).
    expect(records[1]?.fields.requests).toBeGreaterThanOrEqual(answered)
    expect(consoleLines).toEqual([])
  })

  it.skipIf(!server)(
    'takes a stream cut by an outage as one stream.error, counted as no 503, and the console none',
    async () => {
      await recovery()
      records.length = 0
      const response = await fetch(`${origin}/loans?pagination=false`)
      expect(response.status).toBe(200)
      const reader = (response.body as ReadableStream<Uint8Array>).getReader()
      const first = await reader.read()
      expect(new TextDecoder().decode(first.value)).toMatch(/^\{"@context":"\/contexts\/Loan"/)
      proxy?.cut()
      try {
        // The body never ends as a whole collection: the connection is cut.
        await expect(readToEnd(reader)).rejects.toThrow()
      } finally {
        proxy?.resume()
      }
      const unavailable = await recovery()
      expect(records.map((record) => record.fields.event)).toEqual([
        'outage.start',
        'stream.error',
        'outage.end',
      ])
      expect(records[1]).toEqual({
        level: 'error',
        message: 'GET /loans failed after its streamed response began; cutting the connection',
        fields: {
          event: 'stream.error',
          method: 'GET',
          path: '/loans',
          error: expect.any(Error),
        },
      })
      // The episode's 503s are the recovery's alone: the stream was answered 200, then cut.
      expect(records[2]?.fields.requests).toBe(unavailable)
      expect(consoleLines).toEqual([])
    }
  )

  it('answers the readiness probe 200 while the database answers', async () => {
    const response = await fetch(`${origin}/ready`)
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(await response.json()).toEqual({ status: 'ready' })
  })
})

/** Reads a body to its end. */
async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  for (;;) if ((await reader.read()).done) return
}
