/**
 * Totals a client asks for with `Prefer: count=…` (docs/paging.md#client-totals), end to end on
 * test/fixtures/totals, on both engines and under a caller's row scope: `/readings/chosen` lets
 * clients ask for every total, `/readings/counted` for `exact` and `none` over cached totals,
 * `/readings` for none (it ignores the header). Each answer is checked against the caller's rows
 * read through Prisma with the scope's own `where`; the preference applied is said with
 * `Preference-Applied`, covered by the `ETag`, and the operations that honour it vary by `Prefer`.
 */
import { request as httpRequest } from 'node:http'
import { type Context, Hono } from 'hono'
import { hc } from 'hono/client'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { createHydraApp } from '#fixtures/totals/hydra/index.js'
import { PrismaClient } from '#fixtures/totals/prisma/client.js'
import { authenticate, claimsOf, type LibraryEnv, tokenFor } from '../src/auth.js'
import { createAdapter, freshDatabase, ids, startServer, TEST_DATABASE } from './support/harness.js'

const SCHEMA = new URL('./fixtures/totals/schema.prisma', import.meta.url).pathname
const SECRET = 'client totals test secret'
/** Readers see the readings up to 150; librarians every one. */
const scope = { value: { lte: 150 } }
const ENGINES = ['prisma', 'compiled'] as const

/** The app as each engine serves it, for `hc`'s types. */
const appOf = (engine: (typeof ENGINES)[number]) =>
  new Hono().use(authenticate(SECRET)).route(
    '/',
    createHydraApp({
      prisma,
      engine,
      access: {
        Reading: {
          scope: (c: Context<LibraryEnv>) =>
            claimsOf(c)?.role === 'librarian' ? undefined : scope,
        },
      },
    })
  )

let prisma: PrismaClient
let remove: () => Promise<void>
const servers = new Map<string, { origin: string; close: () => Promise<void> }>()
const tokens = { reader: '', librarian: '' }

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index)
const readings = (from: number, to: number) =>
  prisma.reading.createMany({ data: range(from, to).map((id) => ({ id, value: id * 10 })) })

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await readings(1, 25)
  tokens.reader = await tokenFor({ sub: 'R', role: 'reader' }, SECRET)
  tokens.librarian = await tokenFor({ sub: 'L', role: 'librarian' }, SECRET)
  for (const engine of ENGINES) {
    const app = appOf(engine)
    servers.set(engine, await startServer(app.fetch))
  }
}, 60_000)

afterAll(async () => {
  for (const server of servers.values()) await server.close()
  await prisma?.$disconnect()
  await remove?.()
})

interface Answer {
  status: number
  headers: Headers
  body: Record<string, unknown>
}

/** GET `path` as `who`, with the `Prefer` header lines given (and `extra` headers). */
async function read(
  engine: string,
  who: keyof typeof tokens,
  path: string,
  prefer: string[] = [],
  extra: Record<string, string> = {}
): Promise<Answer> {
  const headers = new Headers({ Authorization: `Bearer ${tokens[who]}`, ...extra })
  for (const line of prefer) headers.append('Prefer', line)
  const response = await fetch(`${servers.get(engine)?.origin}${path}`, { headers })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  }
}

const view = (body: Record<string, unknown>) => (body['hydra:view'] ?? {}) as Record<string, string>
const visible = () => prisma.reading.count({ where: scope })
const vary = (answer: Answer) =>
  (answer.headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase())

/** A full page: its total, `last`, and no accuracy term (an exact count). */
function expectFull(answer: Answer, total: number, last: string) {
  expect(answer.status).toBe(200)
  expect(answer.body['hydra:totalItems']).toBe(total)
  expect('totalItemsAccuracy' in answer.body).toBe(false)
  expect(view(answer.body)['hydra:last']).toBe(last)
}

/** A partial page: no total, no `first` or `last`, `next` while rows remain. */
function expectPartial(answer: Answer, next: string | undefined) {
  expect(answer.status).toBe(200)
  expect('hydra:totalItems' in answer.body).toBe(false)
  expect('hydra:first' in view(answer.body)).toBe(false)
  expect('hydra:last' in view(answer.body)).toBe(false)
  expect(view(answer.body)['hydra:next']).toBe(next)
}

describe.each(ENGINES)('Prefer: count on the %s engine', (engine) => {
  it('is typed for hc: the totals an operation allows, and no header where it allows none', async () => {
    const client = hc<ReturnType<typeof appOf>>(servers.get(engine)?.origin ?? '', {
      headers: { Authorization: `Bearer ${tokens.reader}` },
    })
    const none = await client.readings.counted.$get({
      query: { page: '1' },
      header: { prefer: 'count=none' },
    })
    expect(none.headers.get('preference-applied')).toBe('count=none')
    const exact = await client.readings.chosen.$get({ header: { prefer: 'count=exact' } })
    expect(exact.headers.get('preference-applied')).toBe('count=exact')
    // What the types refuse (checked by tsc over the tests; never sent).
    const refused = () => [
      // @ts-expect-error: /readings/counted allows exact and none, not planned
      client.readings.counted.$get({ header: { prefer: 'count=planned' } }),
      // @ts-expect-error: /readings lets no client choose its totals
      client.readings.$get({ header: { prefer: 'count=none' } }),
    ]
    expectTypeOf(refused).toBeFunction()
  })

  it('counts exactly, under the caller’s scope, and says so', async () => {
    const count = await visible()
    expect(count).toBe(15)
    const reader = await read(engine, 'reader', '/readings/chosen?page=1', ['count=exact'])
    expectFull(reader, count, '/readings/chosen?page=2')
    expect(ids(reader.body)).toEqual(range(1, 10))
    expect(reader.headers.get('preference-applied')).toBe('count=exact')
    const librarian = await read(engine, 'librarian', '/readings/chosen?page=1', ['count=exact'])
    expectFull(librarian, await prisma.reading.count(), '/readings/chosen?page=3')
  })

  it('answers count=none with a partial page of the caller’s rows', async () => {
    const first = await read(engine, 'reader', '/readings/chosen?page=1', ['count=none'])
    expectPartial(first, '/readings/chosen?page=2')
    expect(first.headers.get('preference-applied')).toBe('count=none')
    const second = await read(engine, 'reader', '/readings/chosen?page=2', ['count=none'])
    expectPartial(second, undefined)
    const rows = await prisma.reading.findMany({ where: scope, orderBy: { id: 'asc' } })
    expect([...ids(first.body), ...ids(second.body)]).toEqual(rows.map((row) => row.id))
  })

  it('counts estimated and planned exactly under a scope, and does not say it applied them', async () => {
    // An estimate is of the whole table: none is applied, and RFC 7240 names only what was.
    for (const mode of ['estimated', 'planned']) {
      const answer = await read(engine, 'reader', '/readings/chosen?page=1', [`count=${mode}`])
      expectFull(answer, await visible(), '/readings/chosen?page=2')
      expect(answer.body.totalItemsAccuracy).toBeUndefined()
      expect(answer.headers.get('preference-applied')).toBeNull()
      expect(vary(answer)).toContain('prefer')
    }
  })

  it('serves the operation’s own totals without a preference, varying by Prefer', async () => {
    const answer = await read(engine, 'reader', '/readings/chosen?page=1')
    expectFull(answer, await visible(), '/readings/chosen?page=2')
    expect(answer.headers.get('preference-applied')).toBeNull()
    expect(vary(answer)).toContain('prefer')
  })

  it('varies by Prefer on its problems and 304s too, as on its pages', async () => {
    for (const [path, status] of [
      ['/readings/chosen?page=0', 400],
      ['/readings/chosen?value[gt]=abc', 400],
      ['/readings/counted?page=-1', 400],
    ] as const) {
      const answer = await read(engine, 'reader', path, ['count=none'])
      expect([path, answer.status, vary(answer).includes('prefer')]).toEqual([path, status, true])
    }
    const refused = await read(engine, 'reader', '/readings?page=0', ['count=none'])
    expect([refused.status, vary(refused).includes('prefer')]).toEqual([400, false])
    const page = await read(engine, 'reader', '/readings/chosen?page=1')
    const again = await read(engine, 'reader', '/readings/chosen?page=1', [], {
      'If-None-Match': page.headers.get('etag') ?? '',
    })
    expect([again.status, vary(again).includes('prefer')]).toEqual([304, true])
  })

  it('is ignored where the operation does not allow it: no Preference-Applied, no Vary', async () => {
    const answer = await read(engine, 'reader', '/readings?page=1', ['count=none'])
    expectFull(answer, await visible(), '/readings?page=2')
    expect(answer.headers.get('preference-applied')).toBeNull()
    expect(vary(answer)).not.toContain('prefer')
    // An operation allowing some totals ignores the others (but varies by the header).
    const other = await read(engine, 'reader', '/readings/counted?page=1', ['count=planned'])
    expectFull(other, await visible(), '/readings/counted?page=2')
    expect(other.headers.get('preference-applied')).toBeNull()
    expect(vary(other)).toContain('prefer')
  })

  it('reads several preferences in one header or several, the first count counting', async () => {
    const cases: Array<[string[], string]> = [
      [['respond-async, count=none, wait=10'], 'count=none'],
      [['return=minimal', 'count=none'], 'count=none'],
      [['count=none, count=exact'], 'count=none'],
      [['COUNT=none'], 'count=none'],
      [['count="exact"'], 'count=exact'],
      [['count=none; foo=bar;'], 'count=none'],
      [['handling=strict; x="a,b", count=none'], 'count=none'],
    ]
    for (const [lines, applied] of cases) {
      const answer = await read(engine, 'reader', '/readings/chosen?page=1', lines)
      expect([lines, answer.headers.get('preference-applied')]).toEqual([lines, applied])
    }
    // Two header lines as sent on the wire (node:http writes one line per value).
    const origin = new URL(servers.get(engine)?.origin ?? '')
    const applied = await new Promise<string | undefined>((resolve, reject) => {
      const request = httpRequest(
        { host: origin.hostname, port: origin.port, path: '/readings/chosen?page=1' },
        (response) => {
          response.resume()
          response.on('end', () => resolve(response.headers['preference-applied'] as string))
        }
      )
      request.setHeader('Authorization', `Bearer ${tokens.reader}`)
      request.setHeader('Prefer', ['return=minimal', 'count=none'])
      request.on('error', reject)
      request.end()
    })
    expect(applied).toBe('count=none')
  })

  it('ignores malformed and unknown values: never a 500, the operation’s own totals', async () => {
    const values = [
      'count=bogus',
      'count=',
      'count="none',
      'count=none x',
      'count = "exact',
      ';;;,,,',
      '=none',
      'count=Exact',
      'count=none"',
      '"count"=none',
      'count=\\none',
      'count="a\\"b"',
      `${'a'.repeat(4000)}=b`,
    ]
    for (const value of values) {
      const answer = await read(engine, 'reader', '/readings/chosen?page=1', [value])
      expect([value, answer.status, answer.headers.get('preference-applied')]).toEqual([
        value,
        200,
        null,
      ])
      expectFull(answer, await visible(), '/readings/chosen?page=2')
    }
  })

  it('gives each applied preference its own ETag, even over the same bytes', async () => {
    const path = '/readings/chosen?page=1'
    const plain = await read(engine, 'reader', path)
    const exact = await read(engine, 'reader', path, ['count=exact'])
    const estimated = await read(engine, 'reader', path, ['count=estimated'])
    const none = await read(engine, 'reader', path, ['count=none'])
    // Under the scope the three first are one document (exact counts); the estimate asked for
    // was not applied, so its answer is the operation's own, tag included.
    expect(exact.body).toEqual(plain.body)
    expect(estimated.body).toEqual(plain.body)
    const tags = [plain, exact, estimated, none].map((answer) => answer.headers.get('etag'))
    expect(new Set(tags).size).toBe(3)
    expect(tags[2]).toBe(tags[0])
    // A tag validates the answer to its own preference alone.
    const again = await read(engine, 'reader', path, ['count=exact'], {
      'If-None-Match': tags[1] ?? '',
    })
    expect([again.status, again.headers.get('preference-applied')]).toEqual([304, 'count=exact'])
    expect(vary(again)).toContain('prefer')
    const other = await read(engine, 'reader', path, ['count=estimated'], {
      'If-None-Match': tags[1] ?? '',
    })
    expect(other.status).toBe(200)
  })

  it('counts exactly when asked, over cached totals, per scope', async () => {
    const path = '/readings/counted?page=1'
    // Counted now or by an earlier case: either way the caller's rows as they are.
    const cached = await read(engine, 'reader', path)
    const before = await visible()
    expect(cached.body['hydra:totalItems']).toBe(before)
    await prisma.reading.createMany({ data: [{ id: 1000, value: 1 }] })
    try {
      const reused = await read(engine, 'reader', path)
      expect([reused.body['hydra:totalItems'], reused.body.totalItemsAccuracy]).toEqual([
        before,
        'cached',
      ])
      const exact = await read(engine, 'reader', path, ['count=exact'])
      expectFull(exact, before + 1, '/readings/counted?page=2')
      expect(exact.headers.get('preference-applied')).toBe('count=exact')
    } finally {
      await prisma.reading.deleteMany({ where: { id: { gte: 1000 } } })
    }
  })
})

describe.runIf(TEST_DATABASE === 'postgresql')('planned and estimated on PostgreSQL', () => {
  it('planned reads the planner’s estimate of any size; estimated counts below its threshold', async () => {
    await prisma.$executeRaw`ANALYZE "sensor readings"`
    await readings(26, 30)
    try {
      for (const engine of ENGINES) {
        const planned = await read(engine, 'librarian', '/readings/chosen?page=1', [
          'count=planned',
        ])
        expect(planned.headers.get('preference-applied')).toBe('count=planned')
        // The estimate (25 rows when analyzed), said to be one.
        expect([planned.body['hydra:totalItems'], planned.body.totalItemsAccuracy]).toEqual([
          25,
          'estimated',
        ])
        const estimated = await read(engine, 'librarian', '/readings/chosen?page=1', [
          'count=estimated',
        ])
        expectFull(estimated, 30, '/readings/chosen?page=3')
        // Below its threshold the estimate is not used: the total is exact, and not said applied.
        expect(estimated.headers.get('preference-applied')).toBeNull()
      }
    } finally {
      await prisma.reading.deleteMany({ where: { id: { gte: 26 } } })
    }
  })
})

describe('the OpenAPI document', () => {
  it('describes the Prefer header and Preference-Applied where the operation honours them', async () => {
    const response = await fetch(`${servers.get('prisma')?.origin}/openapi.json`)
    const document = (await response.json()) as {
      paths: Record<
        string,
        {
          get: {
            parameters: Array<Record<string, unknown>>
            responses: Record<string, Record<string, unknown>>
          }
        }
      >
    }
    const prefer = (path: string) =>
      document.paths[path]?.get.parameters.find((parameter) => parameter.in === 'header')
    expect(prefer('/readings/chosen')).toMatchObject({
      name: 'Prefer',
      required: false,
      schema: { enum: ['count=exact', 'count=estimated', 'count=planned', 'count=none'] },
    })
    expect(prefer('/readings/counted')).toMatchObject({
      schema: { enum: ['count=exact', 'count=none'] },
    })
    expect(prefer('/readings')).toBeUndefined()
    const headers = (path: string) => document.paths[path]?.get.responses['200']?.headers
    expect(headers('/readings/chosen')).toHaveProperty('Preference-Applied')
    // Every page declares its Link header; only an operation honouring Prefer declares the other.
    expect(headers('/readings')).not.toHaveProperty('Preference-Applied')
    expect(headers('/readings')).toHaveProperty('Link')
  })
})
