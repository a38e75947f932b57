/**
 * `cached` totals shared between instances through Redis (docs/deployment.md#shared-totals), on
 * test/fixtures/totals (`/readings/cached`: counts reused for 60 s): two instances of the app, each
 * with its own Prisma client and Redis client, answer one count while the table changes; the count
 * expires in Redis with the operation's seconds; a Redis that stops or freezes leaves exact counts
 * (no 5xx, no wait past the store's timeout) with one log line when the outage starts and one when
 * it ends, and the totals are shared again once it answers.
 *
 * Needs Redis at 127.0.0.1:6379 (or REDIS_URL) and `redis-server` for the outage cases, which
 * start one of their own on a free port; without them the file is skipped with a message, except
 * under CI (`CI` set), where it fails.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash, randomUUID } from 'node:crypto'
import { createServer } from 'node:net'
import { type RedisCountStoreOptions, redisCountStore } from '@prisma-hydra/runtime/redis'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHydraApp } from '#fixtures/totals/hydra/index.js'
import { PrismaClient } from '#fixtures/totals/prisma/client.js'
import { createAdapter, freshDatabase, get, startServer } from './support/harness.js'
import {
  hasRedisServer,
  REDIS_URL,
  type Redis,
  redisAnswers,
  redisClient,
  removeKeys,
} from './support/redis.js'

const SCHEMA = new URL('./fixtures/totals/schema.prisma', import.meta.url).pathname
/** This run's keys: the projects of each database run at once against one Redis. */
const PREFIX = `prisma-hydra-test:${randomUUID()}:`

/** The digest a key holds of a `where` (docs/deployment.md, "Keys"). */
const digest = (where: string) => createHash('sha256').update(where).digest('base64url')

const hasRedis = await redisAnswers()
const canStartRedis = hasRedisServer()
if (!hasRedis || !canStartRedis) {
  const message = !hasRedis
    ? `Redis does not answer at ${REDIS_URL} (apt-get install -y redis-server): the shared totals test is skipped.`
    : 'redis-server is not installed (apt-get install -y redis-server): the shared totals test is skipped.'
  if (process.env.CI) throw new Error(message)
  console.warn(message)
}

let prisma: PrismaClient
let remove: () => Promise<void>
const closers: Array<() => Promise<unknown>> = []

const readings = (from: number, to: number) =>
  prisma.reading.createMany({
    data: Array.from({ length: to - from + 1 }, (_, index) => ({
      id: from + index,
      value: (from + index) * 10,
    })),
  })

/** The total of `/readings/cached?…` on one instance, and whether it says it is cached. */
async function total(origin: string, query = 'page=1'): Promise<[number, string]> {
  const { status, body } = await get(origin, `/readings/cached?${query}`)
  expect(status).toBe(200)
  return [body['hydra:totalItems'] as number, (body.totalItemsAccuracy as string) ?? 'exact']
}

/**
 * An instance of the app over the test's database with its own Prisma client and, given a URL,
 * its own Redis client (connected, as an app connects it before serving); its origin.
 */
async function instance(redisUrl?: string, options: RedisCountStoreOptions = { timeout: 1000 }) {
  const client = new PrismaClient({ adapter: createAdapter(databaseUrl) })
  closers.push(() => client.$disconnect())
  let store: ReturnType<typeof redisCountStore> | undefined
  if (redisUrl) {
    const redis = redisClient(redisUrl)
    store = redisCountStore(redis, { prefix: PREFIX, ...options })
    await redis.connect()
    closers.push(async () => redis.destroy())
  }
  const app = createHydraApp({ prisma: client, ...(store ? { totalsStore: store } : {}) })
  const server = await startServer(app.fetch)
  closers.push(server.close)
  return server.origin
}

let databaseUrl: string

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  databaseUrl = database.url
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await readings(1, 25)
})

afterAll(async () => {
  for (const close of closers.reverse()) await close()
  await prisma?.$disconnect()
  await remove?.()
})

describe.skipIf(!hasRedis || !canStartRedis)('cached totals in Redis', () => {
  let redis: Redis
  beforeAll(async () => {
    redis = redisClient(REDIS_URL)
    await redis.connect()
    closers.push(() => removeKeys(redis, PREFIX))
  })

  it('are one count for every instance, while the table changes', async () => {
    const one = await instance(REDIS_URL)
    const other = await instance(REDIS_URL)
    const alone = await instance()
    expect(await total(one)).toEqual([25, 'exact'])
    await readings(26, 55)
    // The other instance answers the first one's count; one without the store counts its own.
    expect(await total(other)).toEqual([25, 'cached'])
    expect(await total(one)).toEqual([25, 'cached'])
    expect(await total(alone)).toEqual([55, 'exact'])
    // Another `where` is another count, shared the same way.
    expect(await total(other, 'page=1&value[lt]=201')).toEqual([20, 'exact'])
    expect(await total(one, 'page=1&value[lt]=201')).toEqual([20, 'cached'])
    // The condition is in the key as its digest: no filter value is at rest in the store. Each
    // count's key is also held by the index of the model it reads (`#counts:Reading`).
    const keys = await redis.keys(`${PREFIX}*`)
    expect(keys.filter((key) => !key.includes('#')).sort()).toEqual([
      `${PREFIX}reading:/readings/cached:`,
      `${PREFIX}reading:/readings/cached:sha256:${digest('{"kind":"field","field":"value","test":{"op":"lt","value":201}}')}`,
    ])
    expect(keys.join()).not.toContain('201')
    expect(await redis.zRange(`${PREFIX}#counts:Reading`, 0, -1)).toHaveLength(2)
  })

  it('expire with the operation’s totalsCacheSeconds, and are counted again then', async () => {
    const key = `${PREFIX}reading:/readings/cached:`
    const ttl = await redis.ttl(key)
    expect(ttl).toBeGreaterThan(50)
    expect(ttl).toBeLessThanOrEqual(60)
    const origin = await instance(REDIS_URL)
    expect(await total(origin)).toEqual([25, 'cached'])
    await redis.pExpire(key, 1)
    await vi.waitFor(async () => expect(await redis.exists(key)).toBe(0), { timeout: 2000 })
    expect(await total(origin)).toEqual([55, 'exact'])
    expect(await total(origin)).toEqual([55, 'cached'])
  })
})

describe.skipIf(!hasRedis || !canStartRedis)('a Redis outage', () => {
  let port: number
  let server: ChildProcess | undefined
  const url = () => `redis://127.0.0.1:${port}`

  /** Starts a Redis of its own on `port`, keeping nothing on disk. */
  async function startRedis(): Promise<void> {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' }
    )
    const probe = createClient({ url: url(), socket: { reconnectStrategy: () => 50 } })
    probe.on('error', () => {})
    await probe.connect()
    await probe.ping()
    await probe.close()
  }

  async function stopRedis(): Promise<void> {
    const running = server
    server = undefined
    if (!running || running.exitCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGKILL')
    await exited
  }

  beforeAll(async () => {
    port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number }
        probe.close(() => resolve(free))
      })
    })
    await startRedis()
    closers.push(async () => {
      server?.kill('SIGCONT')
      await stopRedis()
    })
  })

  it('counts exactly, logs once per episode, and shares again once Redis answers', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const origin = await instance(url(), { timeout: 1000, retryAfter: 200 })
      await prisma.reading.deleteMany({ where: { id: { gt: 25 } } })
      expect(await total(origin)).toEqual([25, 'exact'])
      expect(await total(origin)).toEqual([25, 'cached'])
      const lines = () => log.mock.calls.map((call) => String(call[0]))

      // Frozen: the connection stays open and nothing answers; each command waits out the
      // store's timeout, once per pause, and the counts are this instance's own.
      server?.kill('SIGSTOP')
      await prisma.reading.createMany({ data: [{ id: 901, value: 1 }] })
      const frozen = await Promise.all([1, 2, 3].map(() => total(origin)))
      // The Redis count is out of reach: the instance counts for each request.
      expect(frozen).toEqual([
        [26, 'exact'],
        [26, 'exact'],
        [26, 'exact'],
      ])
      for (let round = 0; round < 3; round++) await total(origin)
      expect(lines().filter((line) => /totals store is unavailable/.test(line))).toHaveLength(1)
      server?.kill('SIGCONT')
      await vi.waitFor(
        async () => {
          await total(origin)
          expect(lines().filter((line) => /totals store answers again/.test(line))).toHaveLength(1)
        },
        { timeout: 5000, interval: 100 }
      )
      // Back on Redis: its count of 25 is the shared answer again until it expires.
      expect(await total(origin)).toEqual([25, 'cached'])

      // Stopped: the connection is refused; no 5xx, one line for this episode. Nothing counted
      // in the frozen episode is kept (26 would be one row short now): every count is exact.
      await stopRedis()
      await prisma.reading.createMany({ data: [{ id: 902, value: 2 }] })
      expect(await total(origin)).toEqual([27, 'exact'])
      for (let round = 0; round < 5; round++)
        expect(await total(origin, 'page=1&value[gte]=0')).toEqual([27, 'exact'])
      expect(lines().filter((line) => /totals store is unavailable/.test(line))).toHaveLength(2)

      // Restarted empty: the client reconnects, the next count is stored and shared.
      await startRedis()
      await vi.waitFor(
        async () => {
          await total(origin)
          expect(lines().filter((line) => /totals store answers again/.test(line))).toHaveLength(2)
        },
        { timeout: 5000, interval: 100 }
      )
      const other = await instance(url())
      await prisma.reading.createMany({ data: [{ id: 903, value: 3 }] })
      expect(await total(other)).toEqual([27, 'cached'])
      expect(lines().filter((line) => /totals store/.test(line))).toHaveLength(4)
    } finally {
      log.mockRestore()
    }
  }, 30_000)
})
