/**
 * An abandoned request's statement ends on the server (docs/deployment.md#timeouts), on both
 * engines, on PostgreSQL (`statement_timeout`) and MariaDB (`max_statement_time`, which the
 * example's pool sets on each of its connections: failFastPool's `statementTimeout`). Another
 * connection holds the table a page reads; the page's request is answered `503` at the end of the
 * app's budget, while its read still waits on the server; the server then ends that read at the
 * driver's statement limit, the table still held, as the server's own list of running statements
 * shows (`information_schema.PROCESSLIST`, `pg_stat_activity`). Without the limit the read waits
 * on.
 * SQLite has no server: its reads take turns instead (loop-turns.e2e.test.ts).
 *
 * On MariaDB the limit is the first command of each connection, ahead of the statement the pool
 * opened it for: items asked of a fresh app while their table is held, each on a connection the
 * pool opens for it, are all ended at the limit (set once the connection was handed out, the limit
 * came after the item's read, which waited on). A connection lost while its limit is set (a proxy
 * cuts it at that command) is closed without an unhandled rejection, and the pool serves on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { type DriverTimeouts, withSettings } from '../src/adapter.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { holdTablesOn, readsRunning } from './support/table-lock.js'
import { startTcpProxy } from './support/tcp-proxy.js'

/** The app's budget: the page's request is answered 503 long before the statement limit. */
const BUDGET = 400
/** The driver's statement limit. */
const STATEMENT = 1500
/** A page that reads the held table (with its count). */
const PAGE = '/books?page=2'

let database: TestDatabase
let seeded: PrismaClient
const opened: Array<() => Promise<void>> = []

beforeAll(async () => {
  if (TEST_DATABASE === 'sqlite') return
  database = await emptyDatabase()
  seeded = createPrismaClient(database.url)
  await prepareDatabase(seeded, database.url)
})

afterAll(async () => {
  for (const close of opened.reverse()) await close()
  await seeded?.$disconnect()
  await database?.remove()
})

/** Statements reading `Book` running on the server now, but the asker's own. */
const booksRead = () => readsRunning(seeded, 'Book', TEST_DATABASE)

/**
 * Polls the server's process list until `count` connections were seen reading `Book` (MariaDB);
 * false if they were not within `milliseconds`.
 */
async function readersSeenWithin(count: number, milliseconds: number): Promise<boolean> {
  const seen = new Set<string>()
  const until = performance.now() + milliseconds
  while (performance.now() < until) {
    const rows = await seeded.$queryRawUnsafe<Array<{ id: bigint | number }>>(
      `SELECT ID AS id FROM information_schema.PROCESSLIST
       WHERE DB = DATABASE() AND COMMAND <> 'Sleep' AND INFO LIKE '%Book%'
       AND ID <> CONNECTION_ID()`
    )
    for (const { id } of rows) seen.add(String(id))
    if (seen.size >= count) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return false
}

/** Polls booksRead until it is 0; false if it is not within `milliseconds`. */
async function readsEndWithin(milliseconds: number): Promise<boolean> {
  const until = performance.now() + milliseconds
  while (performance.now() < until) {
    if ((await booksRead()) === 0) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

/** Another connection holding `Book` until `release` (test/support/table-lock.ts). */
const holdBooks = () => holdTablesOn(database.url, ['Book'], TEST_DATABASE)

/** The example app over a client of its own with `driver` bounds, on `url`; its origin. */
async function serve(
  engine: 'prisma' | 'compiled',
  driver: DriverTimeouts,
  url = database.url
): Promise<string> {
  const client = createPrismaClient(url, driver)
  const server = await startServer(
    createApp(client, { engine, timeouts: { query: BUDGET, retryAfter: 3 } }).fetch
  )
  opened.push(async () => {
    await server.close()
    await client.$disconnect()
  })
  // Its first answers open the pool's connections, which can take longer than the budget.
  let status = 0
  for (let tries = 0; tries < 5 && status !== 200; tries++)
    status = (await fetch(`${server.origin}${PAGE}`)).status
  expect(status).toBe(200)
  return server.origin
}

describe.runIf(TEST_DATABASE !== 'sqlite').each(['prisma', 'compiled'] as const)(
  `an abandoned read (%s engine, ${TEST_DATABASE})`,
  (engine) => {
    it('is ended by the server at the statement limit after its 503', async () => {
      const origin = await serve(engine, { statement: STATEMENT, lock: 0 })
      const books = await holdBooks()
      try {
        const response = await fetch(`${origin}${PAGE}`)
        expect(response.status).toBe(503)
        expect(response.headers.get('retry-after')).toBe('3')
        // Answered, its read still waits for the table on the server...
        expect(await booksRead()).toBeGreaterThan(0)
        // ...until the server ends it, the table still held.
        expect(await readsEndWithin(STATEMENT * 4)).toBe(true)
      } finally {
        await books.release()
      }
      expect((await fetch(`${origin}${PAGE}`)).status).toBe(200)
    })

    it('waits on without a statement limit', async () => {
      const origin = await serve(engine, { statement: 0, lock: 0 })
      const books = await holdBooks()
      try {
        expect((await fetch(`${origin}${PAGE}`)).status).toBe(503)
        expect(await readsEndWithin(STATEMENT * 2)).toBe(false)
      } finally {
        await books.release()
      }
      expect(await readsEndWithin(5000)).toBe(true)
    })
  }
)

describe.runIf(TEST_DATABASE === 'mysql').each(['prisma', 'compiled'] as const)(
  'items read on connections the pool opens for them (%s engine)',
  (engine) => {
    it('never run without the statement limit', async () => {
      // Connections slow to open (a server under load), so that each item's read waits in the
      // pool for the connection opened for it, and is given it as it opens.
      const target = new URL(database.url)
      const proxy = await startTcpProxy({
        host: target.hostname,
        port: Number(target.port || 3306),
      })
      opened.push(() => proxy.close())
      proxy.slowOpen(150)
      const url = new URL(withSettings(database.url, { minimumIdle: 1 }))
      url.host = proxy.address
      const books = await holdBooks()
      try {
        const client = createPrismaClient(url.toString(), { statement: STATEMENT, lock: 0 })
        const server = await startServer(
          createApp(client, { engine, timeouts: { query: BUDGET, retryAfter: 3 } }).fetch
        )
        opened.push(async () => {
          await server.close()
          await client.$disconnect()
        })
        const items = ['/books/1', '/books/2', '/books/3', '/books/4']
        // Asked a moment apart: Prisma would read items asked in the same tick in one statement.
        const answers = await Promise.all(
          items.map(async (item, index) => {
            await new Promise((resolve) => setTimeout(resolve, index * 50))
            return fetch(`${server.origin}${item}`)
          })
        )
        expect(answers.map((answer) => answer.status)).toEqual(items.map(() => 503))
        // Each read reaches the server, waits for the table there, and is ended at the limit, the
        // table still held: none ran without it.
        expect(await readersSeenWithin(items.length, 5000)).toBe(true)
        expect(await readsEndWithin(STATEMENT * 4)).toBe(true)
      } finally {
        await books.release()
      }
    })
  }
)

describe.runIf(TEST_DATABASE === 'mysql')('a connection lost while its limit is set', () => {
  it('is closed without an unhandled rejection, and the pool serves on', async () => {
    const target = new URL(database.url)
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 3306) })
    opened.push(() => proxy.close())
    const rejections: unknown[] = []
    const onRejection = (reason: unknown) => void rejections.push(reason)
    process.on('unhandledRejection', onRejection)
    try {
      const cut = proxy.cutAtCommand('max_statement_time')
      const url = new URL(database.url)
      url.host = proxy.address
      // The first connection is lost as it sets its limit; serve() asks until a page is served.
      const origin = await serve('prisma', { statement: STATEMENT, lock: 0 }, url.toString())
      await cut
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(rejections).toEqual([])
      expect((await fetch(`${origin}/books/1`)).status).toBe(200)
    } finally {
      process.off('unhandledRejection', onRejection)
    }
  })
})
