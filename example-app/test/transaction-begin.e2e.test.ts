/**
 * On MariaDB, a transaction at an isolation level begins in one round trip through a shared
 * adapter (docs/performance.md#one-statement-begin): the `SET TRANSACTION ISOLATION LEVEL …` and
 * the `BEGIN` behind it go before the server answers the first. Seen from a TCP proxy of the
 * test's own (support/tcp-proxy.ts) that holds the server's answer to the `SET` until the `BEGIN`
 * comes or a bound passes: the page-and-count transaction of a request and the application's own
 * `$transaction` send both at once; Prisma's adapter as it is waits for the answer.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { EMBEDS_SCHEMA, embedsApp } from './support/embeds-app.js'
import {
  createAdapter,
  freshDatabase,
  get,
  startServer,
  TEST_DATABASE,
  type TestDatabase,
} from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js'

const SET = 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ'
/** How long the proxy holds the answer to the `SET`: far above a pipelined `BEGIN`'s delay. */
const HOLD = 3_000
/**
 * The page's isolation level on MariaDB, for a `$transaction` of the test's own. The type-check
 * reads the fixture's SQLite client, which names `Serializable` alone.
 */
const REPEATABLE_READ = 'RepeatableRead' as 'Serializable'

let database: TestDatabase
let proxy: TcpProxy
const closers: Array<() => Promise<void>> = []

/** A client of the fixture through the proxy, its adapter shared or Prisma's as it is. */
function clientOf(shared: boolean): {
  prisma: PrismaClient
  adapter: ReturnType<typeof createAdapter>
} {
  const url = new URL(database.url)
  url.host = proxy.address
  const made = createAdapter(url.toString())
  const adapter = shared ? shareAdapter(made) : made
  const prisma = new PrismaClient({ adapter })
  closers.push(() => prisma.$disconnect())
  return { prisma, adapter }
}

describe.skipIf(TEST_DATABASE !== 'mysql')('a transaction begun in one round trip', () => {
  beforeAll(async () => {
    database = await freshDatabase(EMBEDS_SCHEMA)
    const target = new URL(database.url)
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 3306) })
    const seeding = new PrismaClient({ adapter: createAdapter(database.url) })
    await seedLibrary(seeding)
    await seeding.$disconnect()
  }, 120_000)

  afterAll(async () => {
    for (const close of closers) await close()
    await proxy?.close()
    await database?.remove()
  })

  it('a page with its count: SET TRANSACTION and BEGIN go together', async () => {
    const { prisma, adapter } = clientOf(true)
    const app = embedsApp('transaction begin', { prisma, adapter, engine: 'prisma' })
    const { origin, close } = await startServer(app.fetch)
    closers.push(close)
    const sent = proxy.sentBeforeAnswer(SET, 'BEGIN', HOLD)
    const response = await get(origin, '/loans')
    expect(response.status).toBe(200)
    expect(await sent).toBe(true)
  })

  it("the application's own $transaction at a level: the same", async () => {
    const { prisma } = clientOf(true)
    const sent = proxy.sentBeforeAnswer(SET, 'BEGIN', HOLD)
    const count = await prisma.$transaction((tx) => tx.book.count(), {
      isolationLevel: REPEATABLE_READ,
    })
    expect(count).toBeGreaterThan(0)
    expect(await sent).toBe(true)
  })

  it("Prisma's adapter as it is waits for the SET's answer before its BEGIN", async () => {
    const { prisma } = clientOf(false)
    const sent = proxy.sentBeforeAnswer(SET, 'BEGIN', HOLD)
    // The start waits for the held answer: past Prisma's own 2 s wait for a start.
    await prisma.$transaction((tx) => tx.book.count(), {
      isolationLevel: REPEATABLE_READ,
      maxWait: 4 * HOLD,
    })
    expect(await sent).toBe(false)
  })
})
