/**
 * The example behind a real PgBouncer in transaction mode and in session mode
 * (docs/deployment.md#poolers), with the configuration the page gives and no
 * `ignore_startup_parameters`, reached as an app's role of its own: it starts (its URL saying
 * `pgbouncer=true`, it sends the server no startup parameter, which PgBouncer would refuse), says
 * at start when the server's own statement and lock limits are not in force, and with them set on
 * its role by the page's own statements, a page under another connection's table lock is answered
 * `503` at the lock limit, with no statement of the app left running on the server a second later.
 * Each mode's pool is sized as the page says: in session mode, every connection of the app's pool
 * holds one of PgBouncer's. PostgreSQL only.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { TEST_DATABASE } from './support/harness.js'
import {
  appRole,
  type PgbouncerOptions,
  pgbouncerPresent,
  startPgbouncer,
} from './support/pgbouncer.js'
import { startExample } from './support/runtime-servers.js'
import { pause, seededDatabase } from './support/seeded-database.js'
import { holdTablesOn, readsRunning } from './support/table-lock.js'

const runs = TEST_DATABASE === 'postgresql' && pgbouncerPresent('pgbouncer.e2e')

/** The example's lock limit (src/adapter.ts), which deployment.md sets on the app's role. */
const LOCK = 5_000
/** The app's budget of a request: the lock limit answers first. */
const BUDGET = 10_000
/** The start's line naming either limit, or both, as not in force (src/pooler.ts). */
const NOT_IN_FORCE = /_timeout (is|are) not in force behind the pooler/
/** The instances of the example before the pooler. */
const INSTANCES = 1
/** The app's pool: node-postgres's default `max`, which src/adapter.ts keeps. */
const APP_POOL = 10

/**
 * PgBouncer's pool in each mode, as deployment.md sizes it: in transaction mode smaller than the
 * app's pool (a server connection is held for a transaction only); in session mode the instances
 * times the app's pool, each connection of which holds one of PgBouncer's while it is open.
 */
const POOLS: Record<PgbouncerOptions['mode'], number> = {
  transaction: 4,
  session: INSTANCES * APP_POOL,
}

const seeded = seededDatabase(runs)

/**
 * The example on Node behind a new PgBouncer in `mode`, reaching the server as a role of its own
 * (with the page's limits set on it when `limits`); `stop` stops them and drops the role.
 */
async function behindPgbouncer(mode: PgbouncerOptions['mode'], limits: boolean) {
  const { database, prisma } = seeded
  // Roles are the server's, not a database's: named apart from every other run's.
  const name = `prisma_hydra_app_${randomUUID().slice(0, 8)}`
  const role = await appRole(prisma, database.url, name, limits)
  const closers: Array<() => Promise<unknown>> = [role.drop]
  const stop = async () => {
    for (const close of closers.reverse()) await close()
  }
  try {
    const bouncer = await startPgbouncer(role.url, { mode, poolSize: POOLS[mode] })
    closers.push(bouncer.stop)
    const url = new URL(bouncer.url)
    url.searchParams.set('pgbouncer', 'true')
    const server = await startExample('node', url.href, { DIRECT_DATABASE_URL: database.url })
    closers.push(server.stop)
    return { server, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

describe.runIf(runs).each(['transaction', 'session'] as const)(
  'behind PgBouncer in %s mode',
  (mode) => {
    it('starts, and says that the server sets no statement or lock limit', async () => {
      const { server, stop } = await behindPgbouncer(mode, false)
      try {
        expect(server.output()).toMatch(NOT_IN_FORCE)
        expect((await fetch(`${server.origin}/books?page=2`)).status).toBe(200)
      } finally {
        await stop()
      }
    }, 120_000)

    it('answers under a table lock at the lock limit, leaving no statement running', async () => {
      const { server, stop } = await behindPgbouncer(mode, true)
      try {
        expect(server.output()).not.toMatch(NOT_IN_FORCE)
        const books = await holdTablesOn(seeded.database.url, ['Book'], TEST_DATABASE)
        try {
          const started = Date.now()
          const answer = await fetch(`${server.origin}/books?page=2`)
          const took = Date.now() - started
          expect(answer.status).toBe(503)
          expect(took).toBeGreaterThanOrEqual(LOCK - 100)
          expect(took).toBeLessThan(BUDGET)
          await pause(1_000)
          expect(await readsRunning(seeded.prisma, 'Book', TEST_DATABASE)).toBe(0)
        } finally {
          await books.release()
        }
        expect((await fetch(`${server.origin}/books?page=2`)).status).toBe(200)
      } finally {
        await stop()
      }
    }, 120_000)
  }
)
