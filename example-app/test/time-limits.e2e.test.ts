/**
 * A read the database itself ends at one of its time limits, on both engines
 * (docs/errors.md#database-outages-503): another connection holds the tables a page reads, and
 * the app's connections wait for them at most their lock limit (PostgreSQL's `lock_timeout`,
 * MySQL/MariaDB's `lock_wait_timeout`, SQLite's busy timeout: the example's driver `lock` and
 * `busy`) or their statement limit (PostgreSQL's `statement_timeout`, MariaDB's
 * `max_statement_time`; on MariaDB both are set on each of the pool's connections by failFastPool's
 * `lockTimeout` and `statementTimeout`). Each is the load of the moment, not a fault of the request: a
 * `503` problem with `Retry-After`, long before the app's own budget, and the outage log names the
 * database's own reason. Served again once the tables are free.
 */
import type { HydraLogger } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import type { DriverTimeouts } from '../src/adapter.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { holdTables } from './support/table-lock.js'

/** The app's own budget: every answer below comes long before it. */
const BUDGET = 8000
const RETRY_AFTER = 3
/** A page of each kind that reads the held tables: full (page and count), partial, an item. */
const PATHS = ['/books?page=2', '/reviews?page=2', '/books/1']

interface Limit {
  name: string
  /** The driver's own bounds (the example's createAdapter). */
  driver: DriverTimeouts
  /** The database's reason, as the outage log writes it. */
  reason: RegExp
}

const LIMITS: Record<typeof TEST_DATABASE, Limit[]> = {
  postgresql: [
    {
      name: "a lock waited for past lock_timeout (the driver's lock)",
      driver: { lock: 300 },
      reason: /lock timeout/,
    },
    {
      name: 'a statement past statement_timeout',
      driver: { statement: 300 },
      reason: /statement timeout/,
    },
  ],
  mysql: [
    {
      name: "a lock waited for past lock_wait_timeout (the pool's lockTimeout)",
      driver: { lock: 1000 },
      reason: /Lock wait timeout exceeded/,
    },
    {
      name: "a statement past max_statement_time (the pool's statementTimeout)",
      driver: { statement: 300 },
      reason: /max_statement_time exceeded/,
    },
  ],
  sqlite: [
    {
      name: 'a lock waited for past the busy timeout',
      driver: { busy: 300 },
      reason: /database is locked/,
    },
  ],
}

let database: TestDatabase
let seeded: PrismaClient
const opened: Array<() => Promise<void>> = []

beforeAll(async () => {
  database = await emptyDatabase()
  seeded = createPrismaClient(database.url)
  await prepareDatabase(seeded, database.url)
})

afterAll(async () => {
  for (const close of opened.reverse()) await close()
  await seeded?.$disconnect()
  await database?.remove()
})

/**
 * Another connection holding the tables of PATHS until `release`: an open transaction's
 * `ACCESS EXCLUSIVE` locks (PostgreSQL), `LOCK TABLES … WRITE` on a pool of one connection
 * (MySQL/MariaDB), an `EXCLUSIVE` transaction (SQLite).
 */
async function holdAll(): Promise<{ release: () => Promise<void> }> {
  const url = new URL(database.url)
  if (TEST_DATABASE === 'mysql') url.searchParams.set('connectionLimit', '1')
  const locker = createPrismaClient(url.toString())
  opened.push(() => locker.$disconnect())
  return holdTables(locker, ['Book', 'Review'], TEST_DATABASE)
}

describe.each(['prisma', 'compiled'] as const)(
  `the database's own time limits (%s engine, ${TEST_DATABASE})`,
  (engine) => {
    it.each(LIMITS[TEST_DATABASE])(
      '$name: 503 with Retry-After, then served again',
      async (limit) => {
        const client = createPrismaClient(database.url, limit.driver)
        const logged: Array<Parameters<HydraLogger>[0]> = []
        const server = await startServer(
          createApp(client, {
            engine,
            timeouts: { query: BUDGET, retryAfter: RETRY_AFTER },
            logger: (entry) => void logged.push(entry),
          }).fetch
        )
        opened.push(async () => {
          await server.close()
          await client.$disconnect()
        })
        for (const path of PATHS)
          expect((await fetch(`${server.origin}${path}`)).status, path).toBe(200)

        const tables = await holdAll()
        try {
          for (const path of PATHS) {
            const started = performance.now()
            const response = await fetch(`${server.origin}${path}`)
            const waited = performance.now() - started
            expect(response.status, path).toBe(503)
            expect(response.headers.get('retry-after'), path).toBe(String(RETRY_AFTER))
            expect(response.headers.get('content-type'), path).toMatch(
              /^application\/problem\+json/
            )
            // The database's limit answered, not the app's budget.
            expect(waited, path).toBeLessThan(BUDGET / 2)
          }
        } finally {
          await tables.release()
        }
        const start = logged.find((entry) => entry.fields.event === 'outage.start')
        expect(start?.fields.reason).toMatch(limit.reason)

        for (const path of PATHS)
          expect((await fetch(`${server.origin}${path}`)).status, path).toBe(200)
        expect(logged.some((entry) => entry.fields.event === 'outage.end')).toBe(true)
      }
    )
  }
)
