/**
 * The example behind a real PgBouncer in transaction mode (docs/deployment.md#poolers), with the
 * configuration the page gives and no `ignore_startup_parameters`: it starts (its URL saying
 * `pgbouncer=true`, it sends the server no startup parameter, which PgBouncer would refuse), says
 * at start when the server's own statement and lock limits are not in force, and with them set on
 * the database as the page says, a page under another connection's table lock is answered `503`
 * at the lock limit, with no statement of the app left running on the server a second later.
 * PostgreSQL only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { pgbouncerPresent, startPgbouncer } from './support/pgbouncer.js'
import { startExample } from './support/runtime-servers.js'
import { holdTablesOn, readsRunning } from './support/table-lock.js'

const runs = TEST_DATABASE === 'postgresql' && pgbouncerPresent('pgbouncer.e2e')

/** The example's lock limit (src/adapter.ts), set on the database as deployment.md says. */
const LOCK = 5_000
/** The app's budget of a request: the lock limit answers first. */
const BUDGET = 10_000
const NOT_IN_FORCE = /statement_timeout and lock_timeout are not in force behind the pooler/

let database: TestDatabase
let seeded: PrismaClient

beforeAll(async () => {
  if (!runs) return
  database = await emptyDatabase()
  seeded = createPrismaClient(database.url)
  await prepareDatabase(seeded, database.url)
})

afterAll(async () => {
  await seeded?.$disconnect()
  await database?.remove()
})

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/** The example on Node behind a new PgBouncer in transaction mode; stopped by `stop`. */
async function behindPgbouncer() {
  const bouncer = await startPgbouncer(database.url, { mode: 'transaction', poolSize: 4 })
  try {
    const url = new URL(bouncer.url)
    url.searchParams.set('pgbouncer', 'true')
    const server = await startExample('node', url.href, { DIRECT_DATABASE_URL: database.url })
    return {
      server,
      stop: async () => {
        await server.stop()
        await bouncer.stop()
      },
    }
  } catch (error) {
    await bouncer.stop()
    throw error
  }
}

describe.runIf(runs)('behind PgBouncer in transaction mode', () => {
  it('starts, and says that the server sets no statement or lock limit', async () => {
    const { server, stop } = await behindPgbouncer()
    try {
      expect(server.output()).toMatch(NOT_IN_FORCE)
      expect((await fetch(`${server.origin}/books?page=2`)).status).toBe(200)
    } finally {
      await stop()
    }
  }, 120_000)

  it('answers under a table lock at the lock limit, leaving no statement running', async () => {
    const name = new URL(database.url).pathname.slice(1)
    await seeded.$executeRawUnsafe(`ALTER DATABASE "${name}" SET statement_timeout = '10000ms'`)
    await seeded.$executeRawUnsafe(`ALTER DATABASE "${name}" SET lock_timeout = '${LOCK}ms'`)
    const { server, stop } = await behindPgbouncer()
    try {
      expect(server.output()).not.toMatch(NOT_IN_FORCE)
      const books = await holdTablesOn(database.url, ['Book'], TEST_DATABASE)
      try {
        const started = Date.now()
        const answer = await fetch(`${server.origin}/books?page=2`)
        const took = Date.now() - started
        expect(answer.status).toBe(503)
        expect(took).toBeGreaterThanOrEqual(LOCK - 100)
        expect(took).toBeLessThan(BUDGET)
        await pause(1_000)
        expect(await readsRunning(seeded, 'Book', TEST_DATABASE)).toBe(0)
      } finally {
        await books.release()
      }
      expect((await fetch(`${server.origin}/books?page=2`)).status).toBe(200)
    } finally {
      await stop()
      // The database's settings would outlast the test: the others must not depend on its order.
      await seeded.$executeRawUnsafe(`ALTER DATABASE "${name}" RESET statement_timeout`)
      await seeded.$executeRawUnsafe(`ALTER DATABASE "${name}" RESET lock_timeout`)
    }
  }, 120_000)
})
