/**
 * A request's budget counted from its arrival, on PostgreSQL and MariaDB, on both engines
 * (docs/deployment.md#timeouts). Every connection of the app's pool is held by a `SLEEP` of the
 * test's own; the app runs, before the API, a middleware of its own that reads the caller's
 * session through the same pool, as an app keeping its sessions in its database does, with
 * `hydraArrival` first. A request then waits in the pool's queue for its session, then reads a
 * table another connection holds (support/table-lock.ts). It is answered 503 with `Retry-After`
 * within its budget from the moment the client sent it, as the client measures it (the app ends
 * its work a margin before the budget, for the answer to reach the client), whatever part of the
 * budget went to the pool's queue, to the middleware, or to the read that never ends; and so is
 * every route queued behind a pool frozen past the budget (plus MARGIN: three at once).
 */
import { hydraArrival } from '@prisma-hydra/runtime/arrival'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { holdTablesOn } from './support/table-lock.js'

const server = TEST_DATABASE !== 'sqlite'
/** The app's budget of a request. */
const BUDGET = 5000
/**
 * What answers sent together may take past their budget, from the client's send to their last
 * byte: three requests' timers and 503s at once on a loaded machine.
 */
const MARGIN = 1000
const RETRY_AFTER = 2
/** The driver's own bounds: longer than anything here, so that only the app's budget answers. */
const LONG = 60_000
/** The connections of the app's pool: node-postgres' and the `mariadb` driver's default. */
const POOL = 10

let database: TestDatabase
let direct: PrismaClient
let client: PrismaClient
/** Each engine's app, plain and behind the session check. */
const served: Record<'prisma' | 'compiled', { plain: string; session: string }> = {
  prisma: { plain: '', session: '' },
  compiled: { plain: '', session: '' },
}
const closes: Array<() => Promise<void>> = []

beforeAll(async () => {
  if (!server) return
  database = await emptyDatabase()
  direct = createPrismaClient(database.url)
  await prepareDatabase(direct, database.url)
  client = createPrismaClient(database.url, {
    connect: LONG,
    statement: LONG,
    lock: LONG,
    query: LONG,
  })
  const timeouts = { query: BUDGET, transactionMaxWait: LONG, retryAfter: RETRY_AFTER }
  for (const engine of ['prisma', 'compiled'] as const) {
    const api = createApp(client, { timeouts, engine })
    // The session check's read goes through the app's pool: a wait there counts in the budget.
    const withSession = new Hono()
      .use(hydraArrival())
      .use(async (_c, next) => {
        await client.$queryRawUnsafe('SELECT 1 AS session')
        await next()
      })
      .route('/', api)
    for (const [kind, fetch] of [
      ['plain', api.fetch],
      ['session', withSession.fetch],
    ] as const) {
      const started = await startServer(fetch)
      served[engine][kind] = started.origin
      closes.push(started.close)
    }
  }
})

afterAll(async () => {
  for (const close of closes) await close()
  await client?.$disconnect()
  await direct?.$disconnect()
  await database?.remove()
})

/** The sleeps of the test's own that the server runs now. */
async function sleepsRunning(marker: string): Promise<number> {
  const sql =
    TEST_DATABASE === 'mysql'
      ? `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '%${marker}%' AND INFO NOT LIKE '%PROCESSLIST%'`
      : `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE query LIKE '%${marker}%' AND query NOT LIKE '%pg_stat_activity%'`
  const [row] = await direct.$queryRawUnsafe<Array<{ n: bigint | number }>>(sql)
  return Number(row?.n ?? 0)
}

/**
 * Holds every connection of the app's pool with a sleep of `ms` and resolves once the server runs
 * them all; `done` settles when they end.
 */
async function freezePool(ms: number): Promise<{ done: Promise<unknown> }> {
  const marker = `frozen_${Math.random().toString(36).slice(2)}`
  const seconds = ms / 1000
  const sleep =
    TEST_DATABASE === 'mysql'
      ? `SELECT SLEEP(${seconds}) AS ${marker}`
      : `SELECT pg_sleep(${seconds}) AS ${marker}`
  const done = Promise.all(
    Array.from({ length: POOL }, () =>
      client.$queryRawUnsafe(sleep).catch((error: unknown) => error)
    )
  )
  while ((await sleepsRunning(marker)) < POOL) await new Promise((r) => setTimeout(r, 20))
  return { done }
}

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

describe.skipIf(!server)(`a request's budget from its arrival (${TEST_DATABASE})`, () => {
  it.each(['prisma', 'compiled'] as const)(
    '%s: a session read queued in the pool, then a read of a held table: 503 at the client within the budget',
    async (engine) => {
      const origin = served[engine].session
      const books = await holdTablesOn(database.url, ['Book'], TEST_DATABASE)
      try {
        // The request waits most of its budget in the pool's queue for its session, then waits on
        // the held table for its book.
        const frozen = await freezePool(BUDGET * 0.6)
        const answer = await timed(`${origin}/books/1`)
        await frozen.done
        expect(answer).toMatchObject({ status: 503, retryAfter: String(RETRY_AFTER) })
        // The budget is the client's: the answer is at the client within it.
        expect(answer.ms).toBeLessThanOrEqual(BUDGET)
      } finally {
        await books.release()
      }
    }
  )

  it.each(['prisma', 'compiled'] as const)(
    '%s: queued behind a pool frozen past the budget: 503 within the budget from the send',
    async (engine) => {
      const origin = served[engine].plain
      const frozen = await freezePool(BUDGET * 2)
      const answers = await Promise.all(
        ['/books/1', '/books?page=2', '/authors/1/books'].map((path) => timed(`${origin}${path}`))
      )
      await frozen.done
      for (const answer of answers) {
        expect(answer).toMatchObject({ status: 503, retryAfter: String(RETRY_AFTER) })
        expect(answer.ms).toBeLessThan(BUDGET + MARGIN)
      }
    }
  )
})
