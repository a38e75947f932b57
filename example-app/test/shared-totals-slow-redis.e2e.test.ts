/**
 * Shared totals while Redis is slow (docs/deployment.md#outages), on test/fixtures/totals: two
 * instances reach Redis through a TCP proxy that makes each of its answers arrive a second late,
 * past the store's 250 ms bound, so every command of theirs times out, the writer's drop too.
 * Each instance then counts by itself; writes through a client extended with
 * `hydraInvalidation({ totals, purge })` change the table, and every total either instance
 * answers must be the database's count at that moment: a count kept in an instance would be one
 * no write can reach while Redis cannot. The first instance is also asked through Varnish
 * (configured as docs/caching.md says, its answers kept five minutes, purged by the writes): a
 * page it keeps after a write's purge must hold the database's count too.
 * Once Redis answers in time again, the instances share one count again.
 *
 * Needs Redis at 127.0.0.1:6379 (or REDIS_URL); without it the file is skipped with a message,
 * except under CI (`CI` set), where it fails. Without Varnish the totals through it are not
 * asked (under CI its absence fails).
 */
import { randomUUID } from 'node:crypto'
import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { type CountStore, redisCountStore } from '@prisma-hydra/runtime/redis'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHydraApp } from '#fixtures/totals/hydra/index.js'
import { PrismaClient } from '#fixtures/totals/prisma/client.js'
import { createAdapter, freshDatabase, get, startServer } from './support/harness.js'
import { REDIS_URL, type Redis, redisAnswers, redisClient, removeKeys } from './support/redis.js'
import { sharedFreshness } from './support/shared-cache.js'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js'
import { startVarnish, varnishPresent } from './support/varnish.js'

const SCHEMA = new URL('./fixtures/totals/schema.prisma', import.meta.url).pathname
/** This run's keys: the projects of each database run at once against one Redis. */
const PREFIX = `prisma-hydra-test:${randomUUID()}:`
/** How late the slow Redis answers, in ms: four times the store's bound (250 ms, the default). */
const LATE = 1000

const hasRedis = await redisAnswers()
if (!hasRedis) {
  const message = `Redis does not answer at ${REDIS_URL} (apt-get install -y redis-server): the slow Redis totals test is skipped.`
  if (process.env.CI) throw new Error(message)
  console.warn(message)
}

let prisma: PrismaClient
let databaseUrl: string
let remove: () => Promise<void>
let proxy: TcpProxy
const closers: Array<() => Promise<unknown>> = []

/** A client of Redis through the proxy, as an app configures one. */
async function proxiedRedis(): Promise<Redis> {
  const connection = redisClient(`redis://${proxy.address}`)
  await connection.connect()
  closers.push(async () => connection.destroy())
  return connection
}

/**
 * An instance of the app with its own Prisma client and store, reaching Redis through the proxy;
 * its answers are kept five minutes by a shared cache, tagged in `xkey` (the documented VCL's).
 */
async function instance(): Promise<string> {
  const client = new PrismaClient({ adapter: createAdapter(databaseUrl) })
  closers.push(() => client.$disconnect())
  const store = redisCountStore(await proxiedRedis(), { prefix: PREFIX })
  const hydra = createHydraApp({
    prisma: client,
    totalsStore: store,
    cacheTags: { header: 'xkey' },
  })
  const app = new Hono().use(sharedFreshness(300)).route('/', hydra)
  const server = await startServer(app.fetch)
  closers.push(server.close)
  return server.origin
}

/** The total of `/readings/cached?…` on one instance, and its accuracy (`exact` when unsaid). */
async function total(origin: string, query = 'page=1'): Promise<[number, string]> {
  const { status, body } = await get(origin, `/readings/cached?${query}`)
  expect(status).toBe(200)
  return [body['hydra:totalItems'] as number, (body.totalItemsAccuracy as string) ?? 'exact']
}

beforeAll(async () => {
  if (!hasRedis) return
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  databaseUrl = database.url
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  // More rows than a page holds (10): a first page holding every row would tell its total itself.
  await prisma.reading.createMany({
    data: Array.from({ length: 40 }, (_, index) => ({ id: index + 1, value: index })),
  })
  const { hostname, port } = new URL(REDIS_URL)
  proxy = await startTcpProxy({ host: hostname, port: Number(port || 6379) })
  closers.push(() => proxy.close())
  const direct = redisClient()
  await direct.connect()
  closers.push(() => removeKeys(direct, PREFIX))
})

afterAll(async () => {
  for (const close of closers.reverse()) await close()
  await prisma?.$disconnect()
  await remove?.()
})

describe.skipIf(!hasRedis)('shared totals while Redis answers late', () => {
  it("answer the database's count on every instance after each write", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const origins = [await instance(), await instance()]
      const [first, second] = origins as [string, string]
      const varnish = varnishPresent('the totals through Varnish') && (await startVarnish(first))
      if (varnish) closers.push(varnish.stop)
      const store: CountStore = redisCountStore(await proxiedRedis(), { prefix: PREFIX })
      const purge = varnish ? { purge: httpPurge({ url: `${varnish.origin}/` }) } : {}
      const invalidation = hydraInvalidation({ totals: store, ...purge })
      const writer = new PrismaClient({ adapter: createAdapter(databaseUrl) })
      closers.push(() => writer.$disconnect())
      const writes = writer.$extends(invalidation)

      proxy.slowAnswers(LATE)
      const queries = ['page=1', 'page=1&value[gte]=5']
      /**
       * Every total of both instances (and of the first through Varnish), against the database's
       * count of the same rows.
       */
      const compared = async () => {
        const answers: Array<[string, number, string]> = []
        for (const origin of varnish ? [...origins, varnish.origin] : origins)
          for (const query of queries) answers.push([query, ...(await total(origin, query))])
        const counts = {
          'page=1': await prisma.reading.count(),
          'page=1&value[gte]=5': await prisma.reading.count({ where: { value: { gte: 5 } } }),
        }
        return {
          answers: answers.map(([query, value]) => [query, value]),
          expected: answers.map(([query]) => [query, counts[query as keyof typeof counts]]),
        }
      }

      // Both instances count (their stores time out), twice each: a second answer is where a
      // count kept from the first would be reused. Varnish keeps its first answers.
      for (let round = 0; round < 2; round++) {
        const { answers, expected } = await compared()
        expect(answers).toEqual(expected)
      }
      if (varnish) expect((await varnish.hits()).length).toBe(queries.length)
      await writes.reading.create({ data: { id: 41, value: 100 } })
      await invalidation.settled()
      let { answers, expected } = await compared()
      expect(answers).toEqual(expected)
      await writes.reading.deleteMany({ where: { id: { lte: 3 } } })
      await invalidation.settled()
      ;({ answers, expected } = await compared())
      expect(answers).toEqual(expected)
      // Said of Redis, which answered late, not of the database, which answered in time.
      const unavailable = log.mock.calls
        .map((call) => String(call[0]))
        .filter((line) => /totals store is unavailable/.test(line))
      expect(unavailable).not.toEqual([])
      for (const line of unavailable)
        expect(line).toContain('totals store is unavailable (Redis did not answer within 250 ms)')

      // In time again: once both stores are asked again, one instance's count is the other's.
      proxy.slowAnswers(0)
      const count = await prisma.reading.count()
      await vi.waitFor(
        async () =>
          expect([await total(first), await total(second)]).toEqual([
            [count, 'cached'],
            [count, 'cached'],
          ]),
        { timeout: 10_000, interval: 300 }
      )
    } finally {
      log.mockRestore()
    }
  }, 60_000)
})
