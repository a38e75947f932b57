/**
 * Shared totals dropped on write (docs/deployment.md#dropped-on-write,
 * docs/caching.md#purge-on-write), on test/fixtures/totals: two instances share the `cached`
 * counts of `/readings/cached` through Redis; writes through a client extended with
 * `hydraInvalidation({ totals })` (the first instance's store) drop, once committed, every count
 * that read a model they change, so that the next request of the other instance counts again: a
 * create, a `deleteMany`, a nested write from sensors reaching readings, a write of sensors alone
 * under a count filtered through `sensor.name` and under a scope reading sensors, an interactive
 * transaction; a transaction rolled back drops nothing. A drop precedes the purge; a drop that
 * fails is logged; a count begun before a drop of its models is not stored.
 *
 * Needs Redis at 127.0.0.1:6379 (or REDIS_URL); without it the file is skipped with a message,
 * except under CI (`CI` set), where it fails.
 */
import { randomUUID } from 'node:crypto'
import { hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { type CountStore, redisCountStore } from '@prisma-hydra/runtime/redis'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createHydraApp } from '#fixtures/totals/hydra/index.js'
import { PrismaClient } from '#fixtures/totals/prisma/client.js'
import { createAdapter, freshDatabase, get, startServer } from './support/harness.js'
import { REDIS_URL, type Redis, redisAnswers, redisClient, removeKeys } from './support/redis.js'

const SCHEMA = new URL('./fixtures/totals/schema.prisma', import.meta.url).pathname
/** This run's keys: the projects of each database run at once against one Redis. */
const PREFIX = `prisma-hydra-test:${randomUUID()}:`

const hasRedis = await redisAnswers()
if (!hasRedis) {
  const message = `Redis does not answer at ${REDIS_URL} (apt-get install -y redis-server): the shared totals drop test is skipped.`
  if (process.env.CI) throw new Error(message)
  console.warn(message)
}

/** Readings see every sensor but a retired one's (the scoped instances' rule). */
const scope = { OR: [{ sensorId: null }, { sensor: { is: { name: { not: 'retired' } } } }] }

let prisma: PrismaClient
let databaseUrl: string
let remove: () => Promise<void>
let redis: Redis
const closers: Array<() => Promise<unknown>> = []

/** An instance of the app over the test's database, with its own Prisma and Redis clients. */
async function instance(scoped = false): Promise<{ origin: string; store: CountStore }> {
  const client = new PrismaClient({ adapter: createAdapter(databaseUrl) })
  closers.push(() => client.$disconnect())
  const connection = redisClient()
  const store = redisCountStore(connection, { prefix: PREFIX, timeout: 1000 })
  await connection.connect()
  closers.push(async () => connection.destroy())
  const access = scoped ? { access: { Reading: { scope: () => scope } } } : {}
  const app = createHydraApp({ prisma: client, totalsStore: store, ...access })
  const server = await startServer(app.fetch)
  closers.push(server.close)
  return { origin: server.origin, store }
}

/** A Prisma client whose writes drop the shared totals of `store` (no CDN: no `purge`). */
function writerOf(store: CountStore, purge?: (tags: readonly string[]) => Promise<void>) {
  const client = new PrismaClient({ adapter: createAdapter(databaseUrl) })
  closers.push(() => client.$disconnect())
  return client.$extends(hydraInvalidation({ totals: store, ...(purge ? { purge } : {}) }))
}

/** The total of `/readings/cached?…` on one instance, and its accuracy (`exact` when unsaid). */
async function total(origin: string, query = 'page=1'): Promise<[number, string]> {
  const { status, body } = await get(origin, `/readings/cached?${query}`)
  expect(status).toBe(200)
  return [body['hydra:totalItems'] as number, (body.totalItemsAccuracy as string) ?? 'exact']
}

/** The counts Redis holds (not the indexes and drop marks, `#…`). */
async function heldCounts(): Promise<string[]> {
  return (await redis.keys(`${PREFIX}*`)).filter((key) => !key.includes('#'))
}

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  databaseUrl = database.url
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.sensor.createMany({
    data: [
      { id: 1, name: 'north' },
      { id: 2, name: 'south' },
    ],
  })
  await prisma.reading.createMany({
    data: Array.from({ length: 40 }, (_, index) => {
      const id = index + 1
      return { id, value: id * 10, sensorId: id <= 15 ? 1 : id <= 28 ? 2 : null }
    }),
  })
})

afterAll(async () => {
  for (const close of closers.reverse()) await close()
  await prisma?.$disconnect()
  await remove?.()
})

describe.skipIf(!hasRedis)('shared totals dropped on write', () => {
  let one: { origin: string; store: CountStore }
  let other: { origin: string; store: CountStore }
  let writer: ReturnType<typeof writerOf>

  beforeAll(async () => {
    redis = redisClient()
    await redis.connect()
    closers.push(() => removeKeys(redis, PREFIX))
    one = await instance()
    other = await instance()
    writer = writerOf(one.store)
  })

  // Each case counts afresh: the counts and drop marks of the one before are forgotten.
  beforeEach(async () => {
    const keys = await redis.keys(`${PREFIX}*`)
    if (keys.length > 0) await redis.del(keys)
  })

  /**
   * A count of `query` read on `one` (stored) and answered by `other` from Redis; its key. `on`:
   * the scoped pair instead. Each count is of more rows than a page holds: a first page holding
   * every row tells its total exactly, whatever is stored (docs/paging.md).
   */
  async function stored(query: string, on = { one, other }) {
    const before = new Set(await heldCounts())
    const [value, accuracy] = await total(on.one.origin, query)
    expect(accuracy).toBe('exact')
    const [key, ...more] = (await heldCounts()).filter((held) => !before.has(held))
    expect([key, more]).toEqual([expect.any(String), []])
    expect(await total(on.other.origin, query)).toEqual([value, 'cached'])
    return { value, key: key as string }
  }

  /** Once `key` is dropped, `other` counts `query` anew (`expected`), and `one` reuses it. */
  async function recounted(query: string, key: string, expected: number, on = { one, other }) {
    await vi.waitFor(async () => expect(await redis.exists(key)).toBe(0), { timeout: 2000 })
    expect(await total(on.other.origin, query)).toEqual([expected, 'exact'])
    expect(await total(on.one.origin, query)).toEqual([expected, 'cached'])
  }

  it('drops the counts of a created row: the other instance counts it', async () => {
    const { value, key } = await stored('page=1')
    await writer.reading.create({ data: { id: 41, value: 410 } })
    expect(await prisma.reading.count()).toBe(value + 1)
    await recounted('page=1', key, value + 1)
  })

  it('drops the counts of rows a deleteMany removes', async () => {
    const { value, key } = await stored('page=1&value[gte]=100')
    await writer.reading.deleteMany({ where: { value: { gte: 350 } } })
    const left = await prisma.reading.count({ where: { value: { gte: 100 } } })
    expect(left).toBeLessThan(value)
    await recounted('page=1&value[gte]=100', key, left)
  })

  it('drops a count filtered through sensors when sensors alone are written', async () => {
    const query = 'page=1&sensor.name=north'
    const { value, key } = await stored(query)
    const unfiltered = await stored('page=1')
    await writer.sensor.update({ where: { id: 2 }, data: { name: 'north' } })
    const now = await prisma.reading.count({ where: { sensor: { is: { name: 'north' } } } })
    expect([value, now]).toEqual([15, 28])
    await recounted(query, key, now)
    // A count that reads readings alone stays: no reading was written.
    expect(await redis.exists(unfiltered.key)).toBe(1)
    expect(await total(other.origin)).toEqual([unfiltered.value, 'cached'])
  })

  it('drops the counts of readings a nested write from sensors creates', async () => {
    const { value, key } = await stored('page=1')
    const filtered = await stored('page=1&sensor.name=north')
    await writer.sensor.create({
      data: {
        id: 3,
        name: 'north',
        readings: {
          create: [
            { id: 51, value: 5 },
            { id: 52, value: 6 },
          ],
        },
      },
    })
    await recounted('page=1', key, value + 2)
    await recounted('page=1&sensor.name=north', filtered.key, filtered.value + 2)
  })

  it('drops the counts of an interactive transaction’s writes once it commits', async () => {
    const { value, key } = await stored('page=1')
    await writer.$transaction(async (tx) => {
      await tx.reading.create({ data: { id: 61, value: 7 } })
      // Not dropped before the commit: another instance still reads the stored count.
      expect(await total(other.origin)).toEqual([value, 'cached'])
      await tx.reading.create({ data: { id: 62, value: 8 } })
    })
    await recounted('page=1', key, value + 2)
  })

  it('drops nothing for a transaction rolled back', async () => {
    const { value, key } = await stored('page=1')
    const filtered = await stored('page=1&sensor.name=north')
    const rolledBack = writer.$transaction(async (tx) => {
      await tx.reading.create({ data: { id: 71, value: 9 } })
      throw new Error('rolled back')
    })
    await expect(rolledBack).rejects.toThrow('rolled back')
    // A write of sensors alone after it: once its drop is done, the rollback's would have been.
    await writer.sensor.create({ data: { id: 4, name: 'east' } })
    await vi.waitFor(async () => expect(await redis.exists(filtered.key)).toBe(0), {
      timeout: 2000,
    })
    expect(await redis.exists(key)).toBe(1)
    expect(await total(other.origin)).toEqual([value, 'cached'])
    expect(await prisma.reading.count()).toBe(value)
  })

  it('drops a count under a scope reading sensors when sensors are written', async () => {
    const scoped = { one: await instance(true), other: await instance(true) }
    const { value, key } = await stored('page=1', scoped)
    expect(value).toBe(await prisma.reading.count({ where: scope }))
    await writer.sensor.update({ where: { id: 3 }, data: { name: 'retired' } })
    const visible = await prisma.reading.count({ where: scope })
    expect(visible).toBeLessThan(value)
    await recounted('page=1', key, visible, scoped)
  })

  it('drops the totals before the purge', async () => {
    const { value, key } = await stored('page=1')
    const purges: Array<{ tags: readonly string[]; held: number }> = []
    const purging = writerOf(one.store, async (tags) => {
      purges.push({ tags, held: await redis.exists(key) })
    })
    await purging.reading.create({ data: { id: 81, value: 11 } })
    await vi.waitFor(() => expect(purges).toEqual([{ tags: ['Reading'], held: 0 }]), {
      timeout: 2000,
    })
    expect(await total(other.origin)).toEqual([value + 1, 'exact'])
  })

  it('stores no count begun before a drop of a model it read', async () => {
    const key = `${PREFIX}reading:/readings/cached:`
    await one.store.drop?.(['Sensor'])
    // Counted before the drop (its age reaches back past it): its rows may predate the write.
    await one.store.set(key, 1, 60, { models: ['Reading', 'Sensor'], age: 5000 })
    expect(await redis.exists(key)).toBe(0)
    // Begun after it, or reading none of the models dropped: stored.
    await one.store.set(key, 2, 60, { models: ['Reading', 'Sensor'], age: 0 })
    expect(await redis.get(key)).toBe('2')
    await redis.del(key)
    await one.store.set(key, 3, 60, { models: ['Reading'], age: 5000 })
    expect(await redis.get(key)).toBe('3')
  })

  it('logs a drop that fails; the write is answered all the same', async () => {
    const lines: Array<{ level: string; event: string }> = []
    // A client that never connected: each command fails at once, as with Redis down.
    const down = redisCountStore(redisClient('redis://127.0.0.1:9'), { timeout: 200 })
    const client = new PrismaClient({ adapter: createAdapter(databaseUrl) })
    closers.push(() => client.$disconnect())
    const failing = client.$extends(
      hydraInvalidation({
        totals: down,
        logger: ({ level, fields }) => lines.push({ level, event: fields.event }),
      })
    )
    await failing.reading.create({ data: { id: 91, value: 12 } })
    await vi.waitFor(() =>
      expect(lines).toEqual([
        { level: 'warn', event: 'totals-store.start' },
        { level: 'error', event: 'totals-store.drop-error' },
      ])
    )
  })

  it('refuses a store that cannot drop, and an extension with nothing to do', () => {
    const { drop: _, ...keeping } = one.store
    expect(() => hydraInvalidation({ totals: keeping })).toThrow(/has no `drop`/)
    expect(() => hydraInvalidation({})).toThrow(/needs `purge`, `totals` or both/)
  })
})
