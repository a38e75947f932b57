/**
 * Two apps in one process, each over its own database (PostgreSQL or MariaDB) reached through a
 * TCP proxy of the test's own (support/tcp-proxy.ts): each app logs the outages of its own
 * database, one line when an episode starts and one when it ends, and an outage of one database
 * leaves the other app's log untouched (no line, no episode ended by the other app's successes).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js'

/** One route of each kind that reads the database: item, page, another resource, custom handler. */
const ROUTES = ['/books/1', '/books?page=2', '/reviews?page=2', '/genres']
const DEFAULT_PORTS = { postgresql: 5432, mysql: 3306, sqlite: 0 }
const server = TEST_DATABASE !== 'sqlite'

/** One app over its own database, through its own proxy. */
interface Served {
  database: TestDatabase
  direct: PrismaClient
  proxied: PrismaClient
  proxy: TcpProxy
  origin: string
  close: () => Promise<void>
}

const apps: Served[] = []

async function serveOwnDatabase(): Promise<Served> {
  const database = await emptyDatabase()
  const direct = createPrismaClient(database.url)
  await prepareDatabase(direct, database.url)
  const target = new URL(database.url)
  const proxy = await startTcpProxy({
    host: target.hostname,
    port: Number(target.port || DEFAULT_PORTS[TEST_DATABASE]),
  })
  const through = new URL(database.url)
  through.host = proxy.address
  const proxied = createPrismaClient(through.toString(), {
    connect: 2000,
    statement: 3000,
    query: 4000,
  })
  const app = createApp(proxied, {
    timeouts: { query: 2500, retryAfter: 2, transactionMaxWait: 2000 },
  })
  const { origin, close } = await startServer(app.fetch)
  return { database, direct, proxied, proxy, origin, close }
}

beforeAll(async () => {
  if (!server) return
  apps.push(await serveOwnDatabase(), await serveOwnDatabase())
})

afterAll(async () => {
  for (const app of apps) {
    await app.close()
    await app.proxied.$disconnect()
    await app.proxy.close()
    await app.direct.$disconnect()
    await app.database.remove()
  }
})

async function statuses(app: Served): Promise<number[]> {
  return Promise.all(
    ROUTES.map(async (route) => {
      const response = await fetch(`${app.origin}${route}`)
      await response.arrayBuffer()
      return response.status
    })
  )
}

/** Polls until every route of `app` answers 200 again. */
async function recovery(app: Served): Promise<void> {
  const started = performance.now()
  for (;;) {
    const answers = await statuses(app)
    if (answers.every((status) => status === 200)) return
    if (performance.now() - started > 20000) throw new Error(`no recovery within 20 s: ${answers}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** The log lines written while `run` runs. */
async function logged(run: () => Promise<void>): Promise<string[]> {
  const log = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    await run()
    return log.mock.calls.map((call) => String(call[0]))
  } finally {
    log.mockRestore()
  }
}

const started = expect.stringContaining('the database is unavailable')
const ended = expect.stringContaining('the database answers again')

describe.skipIf(!server)(`two apps over two databases in one process (${TEST_DATABASE})`, () => {
  it('both serve through their proxies', async () => {
    // The pools' first connections may take long on a loaded machine.
    await logged(async () => {
      for (const app of apps) await recovery(app)
    })
  })

  it("one database cut: its app logs one episode; the other app's successes neither end it nor log", async () => {
    const [cut, healthy] = apps as [Served, Served]
    const lines = await logged(async () => {
      cut.proxy.cut()
      try {
        // Turns: the cut app fails, the other serves, three times over.
        for (let round = 0; round < 3; round++) {
          expect(await statuses(cut)).toEqual(ROUTES.map(() => 503))
          expect(await statuses(healthy)).toEqual(ROUTES.map(() => 200))
        }
      } finally {
        cut.proxy.resume()
      }
      await recovery(cut)
      expect(await statuses(healthy)).toEqual(ROUTES.map(() => 200))
    })
    expect(lines, 'one line when the outage starts, one when it ends').toEqual([started, ended])
  })

  it('both databases cut: each app logs its own episode, once', async () => {
    const lines = await logged(async () => {
      for (const app of apps) app.proxy.cut()
      try {
        for (let round = 0; round < 2; round++) {
          for (const app of apps) expect(await statuses(app)).toEqual(ROUTES.map(() => 503))
        }
      } finally {
        for (const app of apps) app.proxy.resume()
      }
      for (const app of apps) await recovery(app)
    })
    expect(lines, 'each app: one line when its outage starts, one when it ends').toEqual([
      started,
      started,
      ended,
      ended,
    ])
  })
})
