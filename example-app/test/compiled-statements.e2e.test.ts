/**
 * The `compiled` engine's statements, prepared once on the client's own connections
 * (runtime/src/data/compiled/sqlite.ts, compiled/mariadb.ts, compiled/postgres.ts,
 * docs/performance.md):
 *
 * - every scalar type, and date-times at the edges of their range and of their fraction, served
 *   with the same bytes as the `prisma` engine serves them, on every database, in a time zone
 *   far from UTC, as a member's own values and embedded in another's (a to-one relation the
 *   compiled engine joins), without handing the page to Prisma; so too on the client's raw
 *   queries, where Prisma types the values;
 * - on MariaDB, a page read again is not prepared again; the statements the server holds for a
 *   connection stay within the engine's bound however many distinct statements every resource
 *   runs, the one read least recently closed when another comes; and a pool that resets its
 *   connections after use (the server then forgets their statements) is still answered right.
 *
 * On MariaDB the pool has one connection, so that the server's counters of that session
 * (`Com_stmt_prepare`, `Com_stmt_close`) count every statement the app prepared and closed.
 */
import { PrismaMariaDb } from '@prisma/adapter-mariadb'
import { shareAdapter } from '@prisma-hydra/runtime'
import { createPool, type Pool, type PoolConfig } from 'mariadb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/scalars/hydra/index.js'
import { Prisma, PrismaClient as ScalarsClient } from '#fixtures/scalars/prisma/client.js'
import { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { rememberAdapter } from '../src/shared-adapters.js'
import { requiredValues } from './fixtures/scalars/values.js'
import {
  createAdapter,
  emptyDatabase,
  freshDatabase,
  startServer,
  TEST_DATABASE,
  type TestDatabase,
} from './support/harness.js'

// A zone far from UTC (UTC+13:45 in January): a date-time text read as local time, not as UTC,
// would move by hours. The file runs in a process of its own (Vitest's `forks` pool), whose dates
// follow `TZ` once it is set.
process.env.TZ = 'Pacific/Chatham'

const SCHEMA = new URL('./fixtures/scalars/schema.prisma', import.meta.url).pathname
const mariadb = TEST_DATABASE === 'mysql'
/** The most statements the engine keeps for a connection (runtime/src/data/compiled/mariadb.ts). */
const KEPT = 32

/**
 * The answer to `path` from the server at `origin`, as text: its status, the headers that say what
 * its body is, and the body; the origin written as `<origin>`. What must be the same bytes.
 */
async function answered(origin: string, path: string): Promise<string> {
  const response = await fetch(`${origin}${path}`)
  const headers = ['content-type', 'etag', 'link'].map((name) => response.headers.get(name))
  const text = `${response.status} ${JSON.stringify(headers)}\n${await response.text()}`
  return text.replaceAll(origin, '<origin>')
}

describe('every scalar type on the compiled engine', () => {
  let database: TestDatabase
  let prisma: ScalarsClient
  /**
   * `raw`: the compiled engine without the shared adapter, on the client's raw queries (as on a
   * replica, and inside the transaction of a page whose embeds read after it), which answer
   * values typed by Prisma.
   */
  const origins: Record<'prisma' | 'compiled' | 'raw', string> = {
    prisma: '',
    compiled: '',
    raw: '',
  }
  const closes: Array<() => Promise<void>> = []

  /** Date-times at the edges of MariaDB's DATETIME(3) and of a millisecond's digits. */
  const dateTimes = [
    '1000-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    '2024-02-29T23:59:59.123Z',
    '2023-03-01T00:00:00.500Z',
    '2023-12-31T23:59:59.010Z',
    '1970-01-01T00:00:00.001Z',
    '2000-02-29T12:34:56.000Z',
  ]

  beforeAll(async () => {
    expect(new Date(2024, 0, 1).getTimezoneOffset()).toBe(-825)
    database = await freshDatabase(SCHEMA)
    const adapter = shareAdapter(createAdapter(database.url))
    prisma = new ScalarsClient({ adapter })
    for (const [index, text] of dateTimes.entries()) {
      await prisma.specimen.create({
        data: {
          id: index + 1,
          ...requiredValues,
          dateTime: new Date(text),
          // Every other row leaves the optional fields NULL.
          ...(index % 2 === 0
            ? {
                optionalInt: index,
                optionalBigInt: -9007199254740993n,
                optionalFloat: -0.25,
                optionalDecimal: '0.1',
                optionalString: '',
                optionalBoolean: true,
                optionalDateTime: new Date(dateTimes[dateTimes.length - 1 - index] as string),
                optionalJson: ['a', { b: null }],
                optionalBytes: new Uint8Array(),
                optionalMood: 'CALM' as const,
              }
            : // The second row's Json holds JSON's null, the others' the database's NULL.
              index === 1
              ? { optionalJson: Prisma.JsonNull }
              : {}),
        },
      })
    }
    // A sample of each specimen, and one of none (its embed is null).
    for (let id = 1; id <= dateTimes.length + 1; id++)
      await prisma.sample.create({
        data: { id, label: `sample ${id}`, specimenId: id <= dateTimes.length ? id : null },
      })
    const options = {
      prisma: {},
      compiled: { engine: 'compiled', adapter },
      raw: { engine: 'compiled' },
    } as const
    for (const engine of ['prisma', 'compiled', 'raw'] as const) {
      const server = await startServer(createHydraApp({ prisma, ...options[engine] }).fetch)
      origins[engine] = server.origin
      closes.push(server.close)
    }
  })

  /**
   * The answers to `path` of the three apps, the same bytes, three times: on SQLite and MariaDB the
   * second answer is read through the statement prepared for the first; on PostgreSQL the second
   * names the statement and the third binds it by that name (compiled/postgres.ts).
   */
  async function expectSameOnEvery(path: string): Promise<void> {
    for (let round = 0; round < 3; round++) {
      const [own, twin, raw] = await Promise.all([
        answered(origins.prisma, path),
        answered(origins.compiled, path),
        answered(origins.raw, path),
      ])
      expect(twin, path).toBe(own)
      expect(raw, path).toBe(own)
    }
  }

  afterAll(async () => {
    for (const close of closes) await close()
    await prisma?.$disconnect()
    await database?.remove()
  })

  it('serves each page and item with the bytes of the prisma engine', async () => {
    const paths = [
      '/specimens',
      '/specimens?page=1',
      ...dateTimes.map((_, i) => `/specimens/${i + 1}`),
    ]
    for (const path of paths) await expectSameOnEvery(path)
    const page = await (await fetch(`${origins.compiled}/specimens`)).json()
    const members = page['hydra:member'] as Array<{ dateTime: string; bigInt: string }>
    expect(members.map((member) => member.dateTime)).toEqual(dateTimes)
    expect(members.every((member) => member.bigInt === '9007199254740993')).toBe(true)
  })

  it('tells a Json value from both nulls as the prisma engine does, in its own SQL', async () => {
    // Rows 1, 3, 5 and 7 hold a value; 2 holds JSON's null, 4 and 6 the database's.
    const held = { true: [1, 3, 5, 7], false: [2, 4, 6] }
    for (const [value, ids] of Object.entries(held)) {
      const path = `/specimens?exists[optionalJson]=${value}`
      await expectSameOnEvery(path)
      for (const origin of [origins.compiled, origins.raw]) {
        const response = await fetch(`${origin}${path}`)
        expect(response.headers.get('Server-Timing'), path).not.toContain('handoff')
        const members = (await response.json())['hydra:member'] as Array<{ id: number }>
        expect(
          members.map((member) => member.id),
          path
        ).toEqual(ids)
      }
    }
  })

  it('serves each type embedded with the bytes of the prisma engine, in the statement of its page or item', async () => {
    const fields = Object.keys(requiredValues).flatMap((name) => [
      name,
      `optional${name.charAt(0).toUpperCase()}${name.slice(1)}`,
    ])
    const embed = ['id', ...fields].map((name) => `properties[specimen][]=${name}`).join('&')
    for (const path of [
      `/samples?${embed}`,
      `/samples?page=1&properties[]=label&${embed}`,
      // Items: the sample and its specimen in one statement, as a page reads them.
      `/samples/1?${embed}`,
      `/samples/8?properties[specimen][]=dateTime`,
      `/samples?properties[specimen][]=dateTime&properties[specimen][]=optionalDecimal`,
      // Ordered through the embedded relation, NULL for the sample of none: the order's value a
      // scalar subquery of the statement that joins the page's specimens.
      `/samples?order[specimen.dateTime]=desc&properties[]=label&${embed}`,
    ]) {
      await expectSameOnEvery(path)
      const raw = await fetch(`${origins.raw}${path}`)
      await raw.arrayBuffer()
      expect(raw.headers.get('Server-Timing'), path).not.toContain('handoff')
      const response = await fetch(`${origins.compiled}${path}`)
      expect(response.headers.get('Server-Timing'), path).not.toContain('handoff')
      const page = await response.json()
      if (path.startsWith('/samples/')) {
        // Sample 1's specimen is the first; sample 8 has none.
        const first = path.startsWith('/samples/1?') ? dateTimes[0] : null
        expect(page.specimen?.dateTime ?? null, path).toBe(first)
        continue
      }
      const members = page['hydra:member'] as Array<{ specimen: { dateTime: string } | null }>
      const embedded = members.map((member) => member.specimen?.dateTime ?? null)
      if (!path.includes('order[')) expect(embedded, path).toEqual([...dateTimes, null])
      else {
        // The sample of none (NULL) first on PostgreSQL, last on SQLite and MariaDB.
        const latest = [...dateTimes].sort().reverse()
        expect(embedded, path).toEqual(embedded[0] === null ? [null, ...latest] : [...latest, null])
      }
    }
  })
})

/** The query string of a list of `n` values of an exact filter: a statement of its own for each `n`. */
const list = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${name}[]=${i + 1}`).join('&')
const ids = (n: number) => list('id', n)

/** The counters of statements prepared and closed in the session of the pool's one connection. */
async function statements(client: PrismaClient): Promise<{ prepared: number; open: number }> {
  const rows = await client.$queryRawUnsafe<Array<{ Variable_name: string; Value: string }>>(
    "SHOW SESSION STATUS WHERE Variable_name IN ('Com_stmt_prepare', 'Com_stmt_close')"
  )
  const value = (name: string) => Number(rows.find((row) => row.Variable_name === name)?.Value)
  // The adapter runs this statement prepared too: counted as prepared, not yet as closed.
  const prepared = value('Com_stmt_prepare') - 1
  return { prepared, open: prepared - value('Com_stmt_close') }
}

/** Counts the connections taken from `pool` with `getConnection` from now on. */
function countConnectionsTaken(pool: Pool): { count: number } {
  const taken = { count: 0 }
  const take = pool.getConnection.bind(pool)
  pool.getConnection = () => {
    taken.count++
    return take()
  }
  return taken
}

describe.runIf(mariadb)('MariaDB: statements kept per connection', () => {
  let database: TestDatabase
  let seeded: PrismaClient
  const opened: Array<() => Promise<void>> = []

  /** The app on both engines over one client whose pool has one connection. */
  async function serve(settings: Record<string, string> = {}) {
    const url = new URL(database.url)
    url.searchParams.set('connectionLimit', '1')
    for (const [name, value] of Object.entries(settings)) url.searchParams.set(name, value)
    return onBothEngines(createPrismaClient(url.toString()))
  }

  /** The app on both engines over `client`, closed with the suite. */
  async function onBothEngines(client: PrismaClient) {
    const [own, compiled] = await Promise.all([
      startServer(createApp(client, {}).fetch),
      startServer(createApp(client, { engine: 'compiled' }).fetch),
    ])
    opened.push(async () => {
      await own.close()
      await compiled.close()
      await client.$disconnect()
    })
    return { client, prisma: own.origin, compiled: compiled.origin }
  }

  /** The app on both engines over a client of the pool made with `config`. */
  async function serveOnPool(config: PoolConfig) {
    const url = new URL(database.url)
    const pool = createPool({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.slice(1),
      connectionLimit: 1,
      ...config,
    })
    const adapter = shareAdapter(new PrismaMariaDb(pool, { disposeExternalPool: true }))
    const client = new PrismaClient({ adapter })
    rememberAdapter(client, adapter)
    return { pool, ...(await onBothEngines(client)) }
  }

  beforeAll(async () => {
    database = await emptyDatabase()
    seeded = createPrismaClient(database.url)
    await prepareDatabase(seeded, database.url)
  })

  afterAll(async () => {
    for (const close of opened) await close()
    await seeded?.$disconnect()
    await database?.remove()
  })

  it('prepares a page read again once', async () => {
    const served = await serve()
    const path = '/authors?page=2&itemsPerPage=3'
    const first = await answered(served.compiled, path)
    expect(first).toBe(await answered(served.prisma, path))
    const before = await statements(served.client)
    for (let round = 0; round < 10; round++)
      expect(await answered(served.compiled, path)).toBe(first)
    const after = await statements(served.client)
    // Only the counters' own statement was prepared in between.
    expect(after.prepared - before.prepared).toBe(1)
    expect(after.open).toBeGreaterThan(0)
  })

  it('holds at most its bound of statements on the server for a connection', async () => {
    const served = await serve()
    // A list of n ids is a statement of its own for each n, and of each resource: together more
    // than the bound, which is the connection's, whichever resources read through it.
    for (let n = 1; n <= KEPT / 2 + 4; n++)
      for (const path of [`/authors?${ids(n)}`, `/books?${list('author', n)}`]) {
        const [own, twin] = await Promise.all([
          answered(served.prisma, path),
          answered(served.compiled, path),
        ])
        expect(twin, path).toBe(own)
      }
    const { open } = await statements(served.client)
    expect(open).toBeGreaterThan(KEPT / 2)
    expect(open).toBeLessThanOrEqual(KEPT)
  })

  it('closes the statement read least recently when it keeps another', async () => {
    const served = await serve()
    for (let n = 1; n <= KEPT; n++) await answered(served.compiled, `/authors?${ids(n)}`)
    // The first is read again, so the second is the least recently read when one more comes.
    await answered(served.compiled, `/authors?${ids(1)}`)
    await answered(served.compiled, `/authors?${ids(KEPT + 1)}`)
    const before = await statements(served.client)
    await answered(served.compiled, `/authors?${ids(1)}`)
    const kept = await statements(served.client)
    await answered(served.compiled, `/authors?${ids(2)}`)
    const closed = await statements(served.client)
    // Only the counters' own statement was prepared for the first; the second was prepared again.
    expect(kept.prepared - before.prepared).toBe(1)
    expect(closed.prepared - kept.prepared).toBe(2)
  })

  it('fails a statement that cannot run as the adapter does, running it once', async () => {
    const served = await serve()
    const path = '/authors?page=2&itemsPerPage=3'
    await answered(served.compiled, path)
    // Another connection holds the table: a read of it waits a second for its lock, then fails.
    const url = new URL(database.url)
    url.searchParams.set('connectionLimit', '1')
    const locker = createPrismaClient(url.toString())
    opened.push(() => locker.$disconnect())
    await served.client.$executeRawUnsafe('SET SESSION lock_wait_timeout = 1')
    await locker.$executeRawUnsafe('LOCK TABLES `Author` WRITE')
    const before = await statements(served.client)
    const failed = await fetch(`${served.compiled}${path}`)
    const after = await statements(served.client)
    const own = await fetch(`${served.prisma}${path}`)
    await locker.$executeRawUnsafe('UNLOCK TABLES')
    expect(failed.status).toBe(503)
    expect(failed.status).toBe(own.status)
    expect(failed.headers.get('content-type')).toBe(own.headers.get('content-type'))
    // Run on the statement kept, not prepared again by the adapter after it failed.
    expect(after.prepared - before.prepared).toBe(1)
    expect(await answered(served.compiled, path)).toBe(await answered(served.prisma, path))
  })

  it("reads as the adapter does on a pool of the app's with a typeCast of its own", async () => {
    // The pool's typeCast would read every column as text; the adapter's reads set their own.
    const served = await serveOnPool({
      prepareCacheLength: 0,
      typeCast: (column) => column.string(),
    })
    for (const path of ['/authors?page=2&itemsPerPage=3', '/books?page=2', '/books/1'])
      expect(await answered(served.compiled, path), path).toBe(await answered(served.prisma, path))
  })

  it.each([
    {
      pool: 'resets its connections when given back',
      config: { prepareCacheLength: 0, resetAfterUse: true },
      // The first read prepares on a connection the pool resets when it is given back; the
      // second finds the statement forgotten.
      learnt: 2,
    },
    // The first read finds the connection keeps the driver's cache.
    { pool: "keeps the driver's own statement cache", config: {}, learnt: 1 },
  ])(
    'reads a pool that $pool through the adapter alone once it knows',
    async ({ config, learnt }) => {
      const served = await serveOnPool(config)
      const taken = countConnectionsTaken(served.pool)
      // A partial page: one read, no transaction (which takes a connection of its own).
      const path = '/reviews?page=2'
      const first = await answered(served.prisma, path)
      expect(taken.count).toBe(0)
      for (let round = 0; round < learnt; round++)
        expect(await answered(served.compiled, path)).toBe(first)
      expect(taken.count).toBe(learnt)
      for (let round = 0; round < 5; round++)
        expect(await answered(served.compiled, path)).toBe(first)
      // The adapter reads on the pool itself: no connection taken to try a statement first.
      expect(taken.count).toBe(learnt)
    }
  )

  it('answers right when the pool resets its connections after use', async () => {
    const served = await serve({ resetAfterUse: 'true' })
    const paths = ['/authors?page=2&itemsPerPage=3', '/authors?page=1', '/books?page=2']
    for (let round = 0; round < 3; round++)
      for (const path of paths)
        expect(await answered(served.compiled, path), path).toBe(
          await answered(served.prisma, path)
        )
  })
})
