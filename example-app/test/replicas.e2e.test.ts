/**
 * Read replicas (docs/deployment.md#read-replicas), on a real PostgreSQL streaming standby the test
 * makes itself (support/pg-pair.ts: initdb, pg_basebackup, both on free ports, removed at the
 * end). The app reads the standby and writes nothing; the test writes on the primary:
 * - reads go to the standby: with its replay paused, a row committed on the primary is not served
 *   (the lag a client can see), and is once replay resumes; with the primary stopped, every read is
 *   still answered;
 * - a page and its total are one read-only repeatable-read transaction there (its statement log);
 * - a stopped standby is passed by (every read answered by the primary, no 5xx, logged once) and
 *   read again once it is back; with both stopped, 503 with Retry-After;
 * - three instances with the replica agree under writes (support/instances.ts);
 * - a read the standby cancels for a conflict with recovery (SQLSTATE 40001) is read again on the
 *   primary, and the standby is not passed by.
 * PostgreSQL only; skipped with a message where the server programs are not installed, except
 * under CI, where it fails.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { get, startServer, TEST_DATABASE } from './support/harness.js'
import { AGREED_TARGETS, agreeUnderWrites, startInstances } from './support/instances.js'
import { type PgPair, postgresPrograms, startPgPair } from './support/pg-pair.js'

const programs = TEST_DATABASE === 'postgresql' ? await postgresPrograms() : {}
if (TEST_DATABASE === 'postgresql' && programs.missing) {
  const message = `The read-replica test needs PostgreSQL's server programs: ${programs.missing}`
  if (process.env.CI) throw new Error(`${message}; they are required under CI.`)
  console.warn(`${message}; it is skipped.`)
}

/** How long a failed replica is passed by, and the 503's Retry-After, in this test. */
const REPLICA_RETRY = 300
const RETRY_AFTER = 1
/** Reads of every kind through the data-access layer: item, full, partial, cursor, sub-collection, unpaged. */
const READS = [
  '/books/7',
  '/books?page=2',
  '/reviews?page=2',
  '/activities',
  '/authors/3/books',
  '/loans?pagination=false',
]

let pair: PgPair
/** The test's own clients of each server (the app has its own). */
let primary: PrismaClient
let standby: PrismaClient
let origin: string
const closers: Array<() => Promise<void>> = []

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits (at most `ms`) for `check` to hold. */
async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`)
    await sleep(50)
  }
}

/** Until the standby has replayed everything the primary has written so far. */
async function caughtUp(): Promise<void> {
  const [{ lsn }] = await primary.$queryRawUnsafe<[{ lsn: string }]>(
    'SELECT pg_current_wal_lsn()::text AS lsn'
  )
  await until(async () => {
    const [{ behind }] = await standby.$queryRawUnsafe<[{ behind: boolean }]>(
      `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`
    )
    return !behind
  }, 'the standby replays the primary')
}

const totalOf = (body: Record<string, unknown>) => body['hydra:totalItems'] as number

beforeAll(async () => {
  if (!programs.bin) return
  pair = await startPgPair(programs.bin)
  closers.push(() => pair.stop())
  primary = createPrismaClient(pair.primary.url)
  standby = createPrismaClient(pair.standby.url)
  closers.push(
    () => primary.$disconnect(),
    () => standby.$disconnect()
  )
  await prepareDatabase(primary, pair.primary.url)
  await caughtUp()
  const replica = createPrismaClient(pair.standby.url, { connect: 2000 })
  const own = createPrismaClient(pair.primary.url, { connect: 2000 })
  closers.push(
    () => replica.$disconnect(),
    () => own.$disconnect()
  )
  const app = createApp(own, {
    replicas: [replica],
    timeouts: { query: 5000, retryAfter: RETRY_AFTER, replicaRetry: REPLICA_RETRY },
  })
  const server = await startServer(app.fetch)
  closers.push(server.close)
  origin = server.origin
}, 60_000)

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined)
})

describe.skipIf(!programs.bin)('read replicas: a PostgreSQL streaming standby', () => {
  it('reads go to the standby: a write on the primary is served once the standby replays it', async () => {
    const before = await get(origin, '/books')
    expect(before.status).toBe(200)
    const total = totalOf(before.body)
    await standby.$executeRawUnsafe('SELECT pg_wal_replay_pause()')
    try {
      await primary.book.create({
        data: {
          id: 100_001,
          title: 'Committed on the primary',
          isbn: '979-0-100001',
          genre: 'FICTION',
          pages: 10,
          price: '1.00',
          publishedAt: new Date('2020-01-01'),
          authorId: 1,
        },
      })
      expect(await primary.book.count()).toBe(total + 1)
      // Committed on the primary, not yet replayed: the API answers the standby's state, page and
      // total alike.
      for (let i = 0; i < 3; i++) {
        expect((await get(origin, '/books/100001')).status).toBe(404)
        // The last page, where the new row (the highest id) would be.
        const last = await get(origin, `/books?itemsPerPage=50&page=${Math.ceil((total + 1) / 50)}`)
        expect(last.status).toBe(200)
        expect(totalOf(last.body)).toBe(total)
        expect(JSON.stringify(last.body)).not.toContain('/books/100001"')
      }
    } finally {
      await standby.$executeRawUnsafe('SELECT pg_wal_replay_resume()')
    }
    await until(
      async () => (await get(origin, '/books/100001')).status === 200,
      'the replayed row is served'
    )
    expect(totalOf((await get(origin, '/books')).body)).toBe(total + 1)
  })

  it('a page and its total are one read-only repeatable-read transaction on the standby', async () => {
    const primaryLog = (await pair.primary.log()).length
    const standbyLog = (await pair.standby.log()).length
    const response = await get(origin, '/books?page=2')
    expect(response.status).toBe(200)
    const lines = (await pair.standby.log()).slice(standbyLog).split('\n')
    // `PID VXID LOG: ...`: the statements of one transaction share its virtual transaction id.
    const page = lines.find((line) => /FROM "public"\."Book".*OFFSET/.test(line))
    expect(page, 'the page is read on the standby').toBeDefined()
    const transaction = (page as string).split(' ').slice(0, 2).join(' ')
    const statements = lines.filter((line) => line.startsWith(`${transaction} `)).join('\n')
    // Begun at its level in one statement (docs/performance.md#one-statement-begin).
    expect(statements).toMatch(/BEGIN ISOLATION LEVEL REPEATABLE READ/)
    expect(statements).toMatch(/SET TRANSACTION READ ONLY/)
    expect(statements).toMatch(/COUNT\(\*\)[\s\S]*"Book"|"Book"[\s\S]*COUNT\(\*\)/)
    expect(statements).toMatch(/COMMIT/)
    const onPrimary = (await pair.primary.log()).slice(primaryLog)
    expect(onPrimary, 'the primary reads nothing').not.toMatch(/"Book"/)
  })

  it('three instances with the replica agree under writes on the primary', async () => {
    const { instances, close } = await startInstances(3, pair.primary.url, {
      replicaUrls: [pair.standby.url],
      driver: { connect: 2000 },
    })
    try {
      const origins = instances.map((instance) => instance.origin)
      const { written, requests } = await agreeUnderWrites(
        origins,
        primary,
        AGREED_TARGETS,
        caughtUp
      )
      process.stdout.write(
        `replicas: 3 instances with the standby agreed over ${requests} requests while ${written} rows were written\n`
      )
    } finally {
      await close()
    }
  })

  it('a read the standby cancels for a conflict with recovery is read again on the primary', async () => {
    await caughtUp()
    const target = '/books?author.name=a&page=1'
    const expected = JSON.stringify((await get(origin, target)).body)
    // The standby cancels a query at once when replay needs a lock it holds.
    await standby.$executeRawUnsafe('ALTER SYSTEM SET max_standby_streaming_delay = 0')
    await standby.$executeRawUnsafe('SELECT pg_reload_conf()')
    // Two transactions on the primary, held open until `release`: their ACCESS EXCLUSIVE locks
    // are replayed on the standby (by its startup process) as soon as their WAL reaches it.
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const held: Promise<unknown>[] = []
    const lock = async (table: string) => {
      let locked = () => {}
      const done = new Promise<void>((resolve) => {
        locked = resolve
      })
      held.push(
        primary.$transaction(
          async (tx) => {
            await tx.$executeRawUnsafe(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`)
            locked()
            await released
          },
          { timeout: 20_000 }
        )
      )
      await done
      await until(async () => {
        // A commit on the primary flushes its WAL, the lock's record with it, to the standby.
        await primary.$queryRawUnsafe('SELECT txid_current()::text')
        const [{ replayed }] = await standby.$queryRawUnsafe<[{ replayed: boolean }]>(
          `SELECT count(*) > 0 AS replayed FROM pg_locks WHERE mode = 'AccessExclusiveLock' AND relation = '"${table}"'::regclass`
        )
        return replayed
      }, `the standby replays the lock on ${table}`)
    }
    const standbyLog = (await pair.standby.log()).length
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      // 1. The standby holds Author: the request's page (Book, through the author's name) waits
      //    for it there, holding its own lock on Book.
      await lock('Author')
      const answer = get(origin, target)
      await until(async () => {
        const [{ waiting }] = await standby.$queryRawUnsafe<[{ waiting: boolean }]>(
          `SELECT count(*) > 0 AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%"Book"%'`
        )
        return waiting
      }, 'the page waits on the standby')
      // 2. Replay needs Book, which the waiting page holds: the standby cancels the page
      //    (SQLSTATE 40001, "conflict with recovery") to replay it.
      await lock('Book')
      expect((await pair.standby.log()).slice(standbyLog)).toMatch(/conflict with recovery/)
      // 3. The primary's locks released, the read again on the primary answers.
      release()
      await Promise.all(held)
      const { status, body } = await answer
      expect(status).toBe(200)
      expect(JSON.stringify(body)).toBe(expected)
      // Neither an outage nor a fault: nothing is logged.
      expect(log.mock.calls).toEqual([])
    } finally {
      log.mockRestore()
      release()
      await Promise.allSettled(held)
      await standby.$executeRawUnsafe('ALTER SYSTEM RESET max_standby_streaming_delay')
      await standby.$executeRawUnsafe('SELECT pg_reload_conf()')
    }
    // The standby is not passed by: the next read is its own.
    const logged = (await pair.standby.log()).length
    expect((await get(origin, '/books?page=2')).status).toBe(200)
    expect((await pair.standby.log()).slice(logged)).toMatch(/"Book"/)
  })

  it('a stopped standby is passed by (no 5xx, logged once) and read again once it is back', async () => {
    await caughtUp()
    const expected = new Map<string, string>()
    for (const target of READS)
      expected.set(target, JSON.stringify((await get(origin, target)).body))
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      await pair.standby.stop()
      for (let round = 0; round < 2; round++) {
        for (const target of READS) {
          const answer = await get(origin, target)
          expect(answer.status, target).toBe(200)
          expect(JSON.stringify(answer.body), target).toBe(expected.get(target))
        }
      }
      const lines = () => log.mock.calls.map((call) => String(call[0]))
      expect(lines()).toEqual([expect.stringContaining('read replica 1 is unavailable')])
      await pair.standby.start()
      const logged = (await pair.standby.log()).length
      await sleep(REPLICA_RETRY)
      await until(async () => {
        expect((await get(origin, '/books?page=2')).status).toBe(200)
        return /"Book"/.test((await pair.standby.log()).slice(logged))
      }, 'reads return to the standby')
      expect(lines()).toEqual([
        expect.stringContaining('read replica 1 is unavailable'),
        expect.stringContaining('read replica 1 answers again'),
      ])
    } finally {
      log.mockRestore()
    }
  })

  it('with the primary stopped, the standby answers every read; with both stopped, 503', async () => {
    await caughtUp()
    const expected = new Map<string, string>()
    for (const target of READS)
      expected.set(target, JSON.stringify((await get(origin, target)).body))
    await primary.$disconnect()
    await pair.primary.stop()
    for (const target of READS) {
      const answer = await get(origin, target)
      expect(answer.status, target).toBe(200)
      expect(JSON.stringify(answer.body), target).toBe(expected.get(target))
    }
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      await pair.standby.stop()
      for (const target of READS) {
        const response = await fetch(`${origin}${target}`)
        expect(response.status, target).toBe(503)
        expect(response.headers.get('Retry-After')).toBe(String(RETRY_AFTER))
        await response.body?.cancel()
      }
    } finally {
      log.mockRestore()
    }
  })
})
