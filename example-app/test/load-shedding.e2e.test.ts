/**
 * Early shedding on PostgreSQL and MariaDB, on both engines (docs/deployment.md#shedding-load):
 * while the app's earlier requests still wait on a table another connection holds
 * (support/table-lock.ts), long after their own 503, the database has ended none of their reads
 * for a whole budget. A request that comes then cannot be served within its budget: it is
 * answered 503 with `Retry-After` at once, not at the end of its budget, and once the table is
 * free the app serves again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { holdTablesOn, readsRunning } from './support/table-lock.js'

const server = TEST_DATABASE !== 'sqlite'
/** The app's budget of a request. */
const BUDGET = 2000
/** What an answer given at once may take on a loaded machine: far below the budget. */
const AT_ONCE = 600
const RETRY_AFTER = 2
/** The driver's own bounds: longer than anything here, so that the held reads wait on. */
const LONG = 60_000
/** The requests left waiting on the held table: more than a few stuck reads. */
const WAITING = 12

let database: TestDatabase
let direct: PrismaClient
const clients: PrismaClient[] = []
const origins: Record<'prisma' | 'compiled', string> = { prisma: '', compiled: '' }
const closes: Array<() => Promise<void>> = []

beforeAll(async () => {
  if (!server) return
  database = await emptyDatabase()
  direct = createPrismaClient(database.url)
  await prepareDatabase(direct, database.url)
  const timeouts = { query: BUDGET, transactionMaxWait: LONG, retryAfter: RETRY_AFTER }
  for (const engine of ['prisma', 'compiled'] as const) {
    // A client of its own each: the load of one engine's reads is not the other's.
    const bounds = { connect: LONG, statement: LONG, lock: LONG, query: LONG }
    const client = createPrismaClient(database.url, bounds)
    clients.push(client)
    const started = await startServer(createApp(client, { timeouts, engine }).fetch)
    origins[engine] = started.origin
    closes.push(started.close)
  }
})

afterAll(async () => {
  for (const close of closes) await close()
  for (const client of clients) await client.$disconnect()
  await direct?.$disconnect()
  await database?.remove()
})

/** GETs `url`: its status, `Retry-After` and milliseconds from the send to the last byte. */
async function timed(
  url: string
): Promise<{ status: number; retryAfter: string | null; ms: number }> {
  const sent = performance.now()
  const response = await fetch(url)
  await response.arrayBuffer()
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    ms: performance.now() - sent,
  }
}

const outage = { status: 503, retryAfter: String(RETRY_AFTER) }

describe.skipIf(!server)(`shedding load (${TEST_DATABASE})`, () => {
  it.each(['prisma', 'compiled'] as const)(
    '%s: reads stuck for a whole budget: the next requests are answered 503 at once',
    async (engine) => {
      const origin = origins[engine]
      const books = await holdTablesOn(database.url, ['Book'], TEST_DATABASE)
      try {
        const stuck = await Promise.all(
          Array.from({ length: WAITING }, (_, i) => timed(`${origin}/books/${(i % 5) + 1}`))
        )
        for (const answer of stuck) expect(answer).toMatchObject(outage)
        // Their reads still wait on the table (or in the pool's queue), and a moment later none
        // has ended for a whole budget since the first began (a little after its request came).
        expect(await readsRunning(direct, 'Book', TEST_DATABASE)).toBeGreaterThan(0)
        await new Promise((resolve) => setTimeout(resolve, 300))
        const shed = await Promise.all(
          ['/books/1', '/books?page=2', '/books/popular'].map((path) => timed(`${origin}${path}`))
        )
        for (const answer of shed) {
          expect(answer).toMatchObject(outage)
          expect(answer.ms).toBeLessThan(AT_ONCE)
        }
      } finally {
        await books.release()
      }
      // The held reads end with the lock: the app serves again.
      for (let attempt = 0; ; attempt++) {
        const answer = await timed(`${origin}/books/1`)
        if (answer.status === 200) break
        expect(answer).toMatchObject(outage)
        if (attempt === 50) throw new Error('not served again')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  )
})
