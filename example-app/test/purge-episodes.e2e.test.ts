/**
 * Failed purges and drops logged once per episode (docs/operations.md#logger): writes through a
 * client extended with `hydraInvalidation({ purge, totals })` while the purge's HTTP endpoint and
 * Redis are cut off (TCP proxies in front of both, test/support/tcp-proxy.ts) log one line for
 * the purges and one for the drops however many writes fail, as the store's own outage is logged
 * (`totals-store.start`), and one line each when they succeed again, counting the failures.
 *
 * Needs Redis at 127.0.0.1:6379 (or REDIS_URL); without it the file is skipped with a message,
 * except under CI (`CI` set), where it fails.
 */
import { randomUUID } from 'node:crypto'
import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { redisCountStore } from '@prisma-hydra/runtime/redis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { PrismaClient } from '#fixtures/totals/prisma/client.js'
import { createAdapter, freshDatabase, startServer, TEST_DATABASE } from './support/harness.js'
import { REDIS_URL, type Redis, redisAnswers, redisClient, removeKeys } from './support/redis.js'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js'

const SCHEMA = new URL('./fixtures/totals/schema.prisma', import.meta.url).pathname
const PREFIX = `prisma-hydra-test:${randomUUID()}:`
const WRITES = 30

const hasRedis = await redisAnswers()
if (!hasRedis) {
  const message = `Redis does not answer at ${REDIS_URL} (apt-get install -y redis-server): the purge episodes test is skipped.`
  if (process.env.CI) throw new Error(message)
  console.warn(message)
}

const closers: Array<() => Promise<unknown>> = []
let prisma: PrismaClient
let connection: Redis
let redisProxy: TcpProxy
let purgeProxy: TcpProxy
const purged: string[] = []
const records: Array<{ level: string; event: string; requests?: unknown }> = []

beforeAll(async () => {
  if (!hasRedis || TEST_DATABASE !== 'sqlite') return
  const database = await freshDatabase(SCHEMA)
  closers.push(database.remove)
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  closers.push(() => prisma.$disconnect())
  const receiver = await startServer(async (request) => {
    purged.push(request.headers.get('xkey') ?? '')
    return new Response(null, { status: 200 })
  })
  closers.push(receiver.close)
  purgeProxy = await startTcpProxy({
    host: '127.0.0.1',
    port: Number(new URL(receiver.origin).port),
  })
  closers.push(purgeProxy.close)
  const redis = new URL(REDIS_URL)
  redisProxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) })
  closers.push(redisProxy.close)
  connection = redisClient(`redis://${redisProxy.address}`)
  connection.on('error', () => {})
  await connection.connect()
  closers.push(async () => connection.destroy())
})

afterAll(async () => {
  if (!hasRedis) return
  const cleaner = redisClient()
  await cleaner.connect()
  await removeKeys(cleaner, PREFIX)
  for (const close of closers.reverse()) await close()
})

// Nothing here depends on the database: SQLite's run alone holds it.
describe.skipIf(!hasRedis || TEST_DATABASE !== 'sqlite')(
  'purges and drops failing through an outage',
  () => {
    it('log one line when they start failing and one when they succeed again', async () => {
      const invalidation = hydraInvalidation({
        purge: httpPurge({ url: `http://${purgeProxy.address}/` }),
        totals: redisCountStore(connection, { prefix: PREFIX, timeout: 1000 }),
        logger: ({ level, fields }) =>
          records.push({ level, event: fields.event, requests: fields.requests }),
      })
      const writes = prisma.$extends(invalidation)
      await writes.sensor.create({ data: { id: 1, name: 'north' } })
      await invalidation.settled()
      expect([purged, records]).toEqual([['Sensor'], []])

      redisProxy.cut()
      purgeProxy.cut()
      for (let id = 2; id < 2 + WRITES; id++) {
        await writes.sensor.create({ data: { id, name: `sensor ${id}` } })
        await invalidation.settled()
      }
      expect(records.map(({ level, event }) => `${level} ${event}`).sort()).toEqual([
        'error purge.error',
        'error totals-store.drop-error',
        'warn totals-store.start',
      ])

      redisProxy.resume()
      purgeProxy.resume()
      await vi.waitFor(() => expect(connection.isReady).toBe(true), { timeout: 10_000 })
      records.length = 0
      await writes.sensor.create({ data: { id: 100, name: 'back' } })
      await invalidation.settled()
      expect(records.sort((a, b) => a.event.localeCompare(b.event))).toEqual([
        { level: 'info', event: 'purge.end', requests: WRITES },
        { level: 'info', event: 'totals-store.drop-end', requests: WRITES },
        { level: 'info', event: 'totals-store.end', requests: undefined },
      ])
      expect(purged.at(-1)).toBe('Sensor')
    }, 60_000)
  }
)
