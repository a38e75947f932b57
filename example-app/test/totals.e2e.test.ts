/**
 * Totals of full paging end to end (test/fixtures/totals): the exact count is one plain
 * `SELECT COUNT(*)` of the mapped table (seen in Prisma's query log), `cached` reuses an exact
 * count and says so, `estimated` reads PostgreSQL's planner estimate above its threshold (an exact
 * count on SQLite), and the documentation declares the term that marks a total as not exact.
 */
import { type Context, Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHydraApp } from '#fixtures/totals/hydra/index.js'
import { PrismaClient } from '#fixtures/totals/prisma/client.js'
import { authenticate, claimsOf, type LibraryEnv, tokenFor } from '../src/auth.js'
import {
  createAdapter,
  freshDatabase,
  get,
  ids,
  startServer,
  TEST_DATABASE,
} from './support/harness.js'

const SCHEMA = new URL('./fixtures/totals/schema.prisma', import.meta.url).pathname

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let remove: () => Promise<void>
const queries: string[] = []

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index)
const readings = (from: number, to: number) =>
  prisma.reading.createMany({ data: range(from, to).map((id) => ({ id, value: id * 10 })) })
const view = (body: Record<string, unknown>) => body['hydra:view'] as Record<string, string>

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  const client = new PrismaClient({
    adapter: createAdapter(database.url),
    log: [{ emit: 'event', level: 'query' }],
  })
  client.$on('query', (event) => queries.push(event.query))
  prisma = client
  await readings(1, 25)
  ;({ origin, close } = await startServer(createHydraApp({ prisma }).fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

describe('exact totals', () => {
  it('count the mapped table with one plain COUNT(*), not Prisma’s count of a subquery', async () => {
    queries.length = 0
    const { status, body } = await get(origin, '/readings?page=2')
    expect(status).toBe(200)
    expect(body['hydra:totalItems']).toBe(25)
    expect('totalItemsAccuracy' in body).toBe(false)
    expect(ids(body)).toEqual(range(11, 20))
    expect(view(body)['hydra:last']).toBe('/readings?page=3')
    // Quoted as the database quotes identifiers: "…" (SQLite, PostgreSQL), `…` (MySQL/MariaDB).
    expect(queries).toContainEqual(
      expect.stringMatching(
        /^SELECT COUNT\(\*\) AS total FROM (?:"sensor readings"|`sensor readings`)$/
      )
    )
    expect(queries.filter((sql) => /COUNT\(\*\).*OFFSET/is.test(sql))).toEqual([])
  })

  it('answer a transaction that cannot start in time with the 503 problem, never a 500', async () => {
    // A wait of 1 ms for the page-and-count transaction (timeouts.transactionMaxWait): of many
    // requests at once, the ones whose transaction does not start at once fail with Prisma's
    // P2028. Each of them is the outage answer; the others are whole, consistent pages. SQLite
    // has no pool to wait for (better-sqlite3 starts a transaction at once, one after another):
    // there every answer is a page.
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const strict = await startServer(
      createHydraApp({ prisma, timeouts: { transactionMaxWait: 1, retryAfter: 3 } }).fetch
    )
    try {
      const answers = await Promise.all(
        range(1, 40).map(async () => {
          const response = await fetch(`${strict.origin}/readings?page=2`)
          return {
            status: response.status,
            type: response.headers.get('content-type'),
            retryAfter: response.headers.get('retry-after'),
            body: (await response.json()) as Record<string, unknown>,
          }
        })
      )
      const refused = answers.filter((answer) => answer.status !== 200)
      if (TEST_DATABASE !== 'sqlite')
        expect(refused.length, 'some transactions could not start within 1 ms').toBeGreaterThan(0)
      for (const answer of refused) {
        expect(answer).toMatchObject({
          status: 503,
          type: expect.stringMatching(/^application\/problem\+json/),
          retryAfter: '3',
          body: { status: 503 },
        })
      }
      for (const answer of answers.filter((each) => each.status === 200)) {
        expect([ids(answer.body), answer.body['hydra:totalItems']]).toEqual([range(11, 20), 25])
      }
    } finally {
      await strict.close()
      log.mockRestore()
    }
    // The app's own limits (10 s to start) serve the same burst whole.
    const answers = await Promise.all(range(1, 40).map(() => get(origin, '/readings?page=2')))
    expect(answers.map((answer) => answer.status)).toEqual(range(1, 40).map(() => 200))
  })

  it('agree with the page at the end and past it', async () => {
    const last = await get(origin, '/readings?page=3')
    expect([ids(last.body), last.body['hydra:totalItems']]).toEqual([range(21, 25), 25])
    const past = await get(origin, '/readings?page=9')
    expect([ids(past.body), past.body['hydra:totalItems']]).toEqual([[], 25])
  })
})

describe('cached totals', () => {
  it('reuse a count, say so, and correct it with what the page proves', async () => {
    const first = await get(origin, '/readings/cached?page=1')
    expect(first.body['hydra:totalItems']).toBe(25)
    expect('totalItemsAccuracy' in first.body).toBe(false)

    await readings(26, 55)
    const reused = await get(origin, '/readings/cached?page=2')
    expect(ids(reused.body)).toEqual(range(11, 20))
    expect(reused.body['hydra:totalItems']).toBe(25)
    expect(reused.body.totalItemsAccuracy).toBe('cached')
    // `last` follows the figure given; the keys keep the reference's order around the new term.
    expect(view(reused.body)['hydra:last']).toBe('/readings/cached?page=3')
    expect(Object.keys(reused.body).slice(3, 5)).toEqual(['hydra:totalItems', 'totalItemsAccuracy'])

    // Page 3 and the row after it prove at least 31 rows: the cached 25 is raised to that.
    const raised = await get(origin, '/readings/cached?page=3')
    expect([ids(raised.body), raised.body['hydra:totalItems']]).toEqual([range(21, 30), 31])
    expect(raised.body.totalItemsAccuracy).toBe('cached')
    expect(view(raised.body)['hydra:next']).toBe('/readings/cached?page=4')

    // A page that is not full ends the collection: its total is exact.
    const end = await get(origin, '/readings/cached?page=6')
    expect([ids(end.body), end.body['hydra:totalItems']]).toEqual([range(51, 55), 55])
    expect('totalItemsAccuracy' in end.body).toBe(false)

    // The exact collection never reuses anything.
    expect((await get(origin, '/readings?page=2')).body['hydra:totalItems']).toBe(55)
  })
})

describe('estimated totals', () => {
  it('are exact below the threshold (and always on SQLite)', async () => {
    const { body } = await get(origin, '/readings/estimated?page=2')
    expect(body['hydra:totalItems']).toBe(55)
    expect('totalItemsAccuracy' in body).toBe(false)
  })

  it.runIf(TEST_DATABASE === 'postgresql')(
    "read PostgreSQL's planner estimate above it, and say so",
    async () => {
      await prisma.$executeRaw`INSERT INTO "sensor readings" (id, "reading value") SELECT g, g FROM generate_series(1000, 120999) AS g`
      await prisma.$executeRaw`ANALYZE "sensor readings"`
      const [{ estimate }] = await prisma.$queryRaw<
        [{ estimate: number }]
      >`SELECT reltuples::float8 AS estimate FROM pg_class WHERE oid = to_regclass('"sensor readings"')`
      expect(estimate).toBeGreaterThan(100_000)
      // An app reads a table's estimate at most once a second (docs/paging.md): the one read by
      // the test above may still be held.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      const { body } = await get(origin, '/readings/estimated?page=2')
      expect(body['hydra:totalItems']).toBe(Math.round(estimate))
      expect(body.totalItemsAccuracy).toBe('estimated')
      expect(view(body)['hydra:last']).toBe(
        `/readings/estimated?page=${Math.ceil(Math.round(estimate) / 10)}`
      )
      // The exact collection counts every row.
      expect((await get(origin, '/readings?page=2')).body['hydra:totalItems']).toBe(120_055)
    },
    60_000
  )
})

describe('the documentation', () => {
  it('declares totalItemsAccuracy, a term of the API’s vocabulary the contexts resolve', async () => {
    const docs = (await get(origin, '/docs.jsonld')).body
    const classes = docs['hydra:supportedClass'] as Array<Record<string, unknown>>
    const collection = classes.find((entry) => entry['@id'] === 'hydra:Collection')
    const [declared] = (collection?.['hydra:supportedProperty'] ?? []) as Array<
      Record<string, Record<string, unknown>>
    >
    expect(declared?.['hydra:property']?.['@id']).toBe('#totalItemsAccuracy')
    const context = (await get(origin, '/contexts/Reading')).body['@context'] as Record<
      string,
      unknown
    >
    expect(context['@vocab']).toBe(`${origin}/docs.jsonld#`)
  })
})

// Last: the rows above stay (and, on PostgreSQL, 120,000 more whose values are all above 1,000).
describe('totals of filtered requests', () => {
  it('count the rows the filters select, per set of filters when cached', async () => {
    const exact = await get(origin, '/readings?page=1&value[lt]=201')
    expect([ids(exact.body), exact.body['hydra:totalItems']]).toEqual([range(1, 10), 20])
    const last = new URL(view(exact.body)['hydra:last'] ?? '', origin).searchParams
    expect([last.get('value[lt]'), last.get('page')]).toEqual(['201', '2'])

    // The unfiltered count cached above (25) is not this collection's.
    const first = await get(origin, '/readings/cached?page=1&value[lt]=201')
    expect([first.body['hydra:totalItems'], 'totalItemsAccuracy' in first.body]).toEqual([
      20,
      false,
    ])
    await prisma.reading.createMany({ data: [901, 902].map((id) => ({ id, value: id - 900 })) })
    const reused = await get(origin, '/readings/cached?page=1&value[lt]=201')
    expect([reused.body['hydra:totalItems'], reused.body.totalItemsAccuracy]).toEqual([
      20,
      'cached',
    ])
    const other = await get(origin, '/readings/cached?page=1&value[lt]=301')
    expect([other.body['hydra:totalItems'], 'totalItemsAccuracy' in other.body]).toEqual([
      32,
      false,
    ])
    expect((await get(origin, '/readings?value[lt]=201')).body['hydra:totalItems']).toBe(22)
  })

  it('count exactly when estimated: an estimate is of the whole table', async () => {
    const { body } = await get(origin, '/readings/estimated?page=2&value[lt]=201')
    expect([body['hydra:totalItems'], 'totalItemsAccuracy' in body]).toEqual([22, false])
  })
})

describe('totals of scoped requests (docs/security.md)', () => {
  const SECRET = 'totals test secret'
  /** Readers see the readings up to 150; librarians every one. */
  const scope = { value: { lte: 150 } }
  let scoped: { origin: string; close: () => Promise<void> }
  const as = async (token: string, path: string) => {
    const response = await fetch(`${scoped.origin}${path}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    return (await response.json()) as Record<string, unknown>
  }

  beforeAll(async () => {
    const app = new Hono().use(authenticate(SECRET)).route(
      '/',
      createHydraApp({
        prisma,
        access: {
          Reading: {
            scope: (c: Context<LibraryEnv>) =>
              claimsOf(c)?.role === 'librarian' ? undefined : scope,
          },
        },
      })
    )
    scoped = await startServer(app.fetch)
  })
  afterAll(() => scoped?.close())

  it('key cached counts by the scope: callers who see different rows never share one', async () => {
    const librarian = await tokenFor({ sub: 'L', role: 'librarian' }, SECRET)
    const reader = await tokenFor({ sub: 'R', role: 'reader' }, SECRET)
    const all = await prisma.reading.count()
    const visible = await prisma.reading.count({ where: scope })
    expect(visible).toBeGreaterThan(11)
    expect(visible).toBeLessThan(all)
    expect((await as(librarian, '/readings/cached?page=1'))['hydra:totalItems']).toBe(all)
    const first = await as(reader, '/readings/cached?page=1')
    expect([first['hydra:totalItems'], 'totalItemsAccuracy' in first]).toEqual([visible, false])
    const reused = await as(reader, '/readings/cached?page=1')
    expect([reused['hydra:totalItems'], reused.totalItemsAccuracy]).toEqual([visible, 'cached'])
  })

  // On PostgreSQL the table holds 120,000 more rows by now, analyzed: an unscoped request reads
  // the planner's estimate, which a scoped one must never answer (SQLite always counts).
  it('count a scoped request exactly when estimated', async () => {
    const reader = await tokenFor({ sub: 'R', role: 'reader' }, SECRET)
    const body = await as(reader, '/readings/estimated?page=1')
    const visible = await prisma.reading.count({ where: scope })
    expect([body['hydra:totalItems'], 'totalItemsAccuracy' in body]).toEqual([visible, false])
  })
})
