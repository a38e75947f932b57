/**
 * MariaDB's pool under the app (the `mariadb` driver's pool behind failFastPool, src/adapter.ts),
 * on both engines, with a pool of one connection that a slow query of the test's own keeps busy,
 * so that the app's requests wait in the pool's queue:
 *
 * - with the pool's wait (`acquireTimeout`) short, they are answered 503 and the outage log gives
 *   the driver's whole reason, which spans lines (docs/deployment.md#outage-log);
 * - with it long, the database cut (through a TCP proxy of the test's own, support/tcp-proxy.ts)
 *   answers them at once, not after the pool's wait.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js'

const mariadb = TEST_DATABASE === 'mysql'
const RETRY_AFTER = 2
/** What the app's budgets and the long pool wait are: longer than any of these tests may take. */
const LONG = 60_000

/** The app on each engine over one client. */
interface Served {
  client: PrismaClient
  origins: string[]
  close: () => Promise<void>
}

let database: TestDatabase
let direct: PrismaClient
let proxy: TcpProxy
const served: Served[] = []

/** Serves `url` (a pool of one connection) on both engines. */
async function serve(url: URL, poolWait: number): Promise<Served> {
  url.searchParams.set('connectionLimit', '1')
  url.searchParams.set('acquireTimeout', String(poolWait))
  const client = createPrismaClient(url.toString(), { connect: LONG })
  const timeouts = { query: LONG, transactionMaxWait: LONG, retryAfter: RETRY_AFTER }
  const servers = await Promise.all(
    (['prisma', 'compiled'] as const).map((engine) =>
      startServer(createApp(client, { timeouts, engine }).fetch)
    )
  )
  const one = {
    client,
    origins: servers.map((server) => server.origin),
    close: async () => {
      for (const server of servers) await server.close()
      await client.$disconnect()
    },
  }
  served.push(one)
  return one
}

beforeAll(async () => {
  if (!mariadb) return
  database = await emptyDatabase()
  direct = createPrismaClient(database.url)
  await prepareDatabase(direct, database.url)
  const target = new URL(database.url)
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 3306) })
})

afterAll(async () => {
  for (const one of served) await one.close()
  await proxy?.close()
  await direct?.$disconnect()
  await database?.remove()
})

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

interface Answer {
  status: number
  retryAfter: string | null
}

async function answer(url: string): Promise<Answer> {
  const response = await fetch(url)
  await response.arrayBuffer()
  return { status: response.status, retryAfter: response.headers.get('retry-after') }
}

/** GETs `path` from each engine's app until both answer 200 (the pool opens its connection). */
async function ready(one: Served, path: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const answers = await Promise.all(one.origins.map((origin) => answer(`${origin}${path}`)))
    if (answers.every(({ status }) => status === 200)) return
    if (attempt === 50) throw new Error(`not served: ${JSON.stringify(answers)}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/**
 * Runs `SELECT SLEEP(seconds)` on the pool's one connection and resolves once the server runs it;
 * `done` settles when the query ends (a cut connection rejects it).
 */
async function occupy(one: Served, seconds: number): Promise<{ done: Promise<unknown> }> {
  const marker = `occupied_${Math.random().toString(36).slice(2)}`
  const done = one.client
    .$queryRawUnsafe(`SELECT SLEEP(${seconds}) AS ${marker}`)
    .catch((error: unknown) => error)
  for (;;) {
    const running = await direct.$queryRawUnsafe<{ id: bigint }[]>(
      `SELECT ID AS id FROM information_schema.PROCESSLIST WHERE INFO LIKE '%${marker}%' AND INFO NOT LIKE '%PROCESSLIST%'`
    )
    if (running.length > 0) return { done }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Ends the sleep of `occupy` early (the query returns, the connection goes back to the pool). */
async function release(): Promise<void> {
  const sleeping = await direct.$queryRawUnsafe<{ id: bigint }[]>(
    `SELECT ID AS id FROM information_schema.PROCESSLIST WHERE INFO LIKE '%occupied_%' AND INFO NOT LIKE '%PROCESSLIST%'`
  )
  for (const { id } of sleeping) await direct.$executeRawUnsafe(`KILL QUERY ${Number(id)}`)
}

const outage = { status: 503, retryAfter: String(RETRY_AFTER) }

describe.skipIf(!mariadb)(`MariaDB's pool of one busy connection (${TEST_DATABASE})`, () => {
  it("no free connection within the pool's wait: a 503, logged with the driver's whole reason", async () => {
    const one = await serve(new URL(database.url), 300)
    await logged(() => ready(one, '/books/1'))
    const lines = await logged(async () => {
      const { done } = await occupy(one, 30)
      try {
        const answers = await Promise.all(one.origins.map((origin) => answer(`${origin}/books/1`)))
        expect(answers).toEqual([outage, outage])
      } finally {
        await release()
        await done
      }
      await ready(one, '/books/1')
    })
    expect(lines).toEqual([
      expect.stringMatching(
        /^prisma-hydra: the database is unavailable \(pool timeout: failed to retrieve a connection from pool after \d+ms \(pool connections: active=1 idle=0 limit=1\)\); answering 503 until it answers again$/
      ),
      expect.stringContaining('the database answers again'),
    ])
  })

  // Without failFastPool's watch of the pool losing its last connection, the requests waiting in
  // the pool would be answered after the pool's wait (LONG): this test's own bound ends it first.
  it('the database cut: the requests waiting in the pool are answered 503 at once', {
    timeout: 20_000,
  }, async () => {
    const through = new URL(database.url)
    through.host = proxy.address
    const one = await serve(through, LONG)
    await logged(() => ready(one, '/books?page=2'))
    const lines = await logged(async () => {
      const { done } = await occupy(one, 30)
      const paths = ['/books/1', '/books?page=2']
      const waiting = one.origins.flatMap((origin) =>
        paths.map((path) => answer(`${origin}${path}`))
      )
      // The requests reach the pool's queue: they wait for its one connection.
      await new Promise((resolve) => setTimeout(resolve, 500))
      proxy.cut()
      try {
        expect(await Promise.all(waiting)).toEqual(paths.flatMap(() => [outage, outage]))
        expect(await done).toBeInstanceOf(Error)
      } finally {
        proxy.resume()
      }
      await ready(one, '/books?page=2')
    })
    expect(lines).toEqual([
      expect.stringMatching(/the database is unavailable \((?!pool timeout).+\); answering 503/),
      expect.stringContaining('the database answers again'),
    ])
  })
})
