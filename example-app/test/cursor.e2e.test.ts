/**
 * Cursor paging end to end on test/fixtures/cursor: real keyset queries through the
 * generated routes, honest links, walks in both directions, rows deleted or inserted mid-walk,
 * and cursor values of every orderable type. Every request is also sent to the same app on the
 * `compiled` engine, whose answer must be the same bytes: its positions are SQL of its
 * own (row-value comparisons on SQLite and PostgreSQL, docs/performance.md).
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/cursor/hydra/index.js'
import { PrismaClient } from '#fixtures/cursor/prisma/client.js'
import {
  createAdapter,
  expectSameOnBothEngines,
  freshDatabase,
  getWithoutSearch,
  ids,
  startServer,
} from './support/harness.js'

const SCHEMA = new URL('./fixtures/cursor/schema.prisma', import.meta.url).pathname

let prisma: PrismaClient
let origin: string
let compiledOrigin: string
let close: () => Promise<void>
let closeCompiled: () => Promise<void>
let remove: () => Promise<void>

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)
const view = (body: Record<string, unknown>) => body['hydra:view'] as Record<string, string>

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  // Batches of 4: the unpaged feed is read past ties of its timestamp, across batch boundaries.
  ;({ origin, close } = await startServer(createHydraApp({ prisma, batchSize: 4 }).fetch))
  const compiled = createHydraApp({ prisma, batchSize: 4, engine: 'compiled', adapter })
  ;({ origin: compiledOrigin, close: closeCompiled } = await startServer(compiled.fetch))
})

afterAll(async () => {
  await close?.()
  await closeCompiled?.()
  await prisma?.$disconnect()
  await remove?.()
})

/** The answer of the `prisma` engine's app, once the `compiled` one's has been found the same. */
async function get(at: string, path: string): ReturnType<typeof getWithoutSearch> {
  await expectSameOnBothEngines(at, compiledOrigin, path)
  return getWithoutSearch(at, path)
}

/** Follows `hydra:next` (or `hydra:previous`) from `start` to the end; returns every page's ids. */
async function walk(start: string, link: 'hydra:next' | 'hydra:previous'): Promise<unknown[][]> {
  const pages: unknown[][] = []
  let next: string | undefined = start
  while (next) {
    const response = await get(origin, next)
    expect(response.status, `${next}: ${JSON.stringify(response.body)}`).toBe(200)
    pages.push(ids(response.body))
    next = view(response.body)[link]
    expect(pages.length).toBeLessThan(200)
  }
  return pages
}

describe('the reference SoMany scenarios, with honest links', () => {
  it('an empty collection: a view with only its @id', async () => {
    await prisma.soMany.deleteMany()
    const response = await get(origin, '/so-manies')
    expect(response.body).toEqual({
      '@context': '/contexts/SoMany',
      '@id': '/so-manies',
      '@type': 'hydra:Collection',
      'hydra:member': [],
      'hydra:view': { '@id': '/so-manies', '@type': 'hydra:PartialCollectionView' },
    })
  })

  describe('10 rows', () => {
    beforeAll(async () => {
      await prisma.soMany.deleteMany()
      await prisma.soMany.createMany({
        data: range(1, 10).map((id) => ({ id, content: `#${id}` })),
      })
    })

    it.each([
      // The first page: no previous (the reference shows one to an empty page).
      ['/so-manies', [10, 9, 8], { next: '/so-manies?id%5Blt%5D=8' }],
      [
        '/so-manies?order[id]=desc',
        [10, 9, 8],
        // D6: the link is the @id of its page, keys sorted (the reference appends id[lt]).
        { next: '/so-manies?id%5Blt%5D=8&order%5Bid%5D=desc' },
      ],
      [
        '/so-manies?order[id]=desc&id[lt]=8',
        [7, 6, 5],
        {
          '@id': '/so-manies?id%5Blt%5D=8&order%5Bid%5D=desc',
          previous: '/so-manies?id%5Bgt%5D=7&order%5Bid%5D=desc',
          next: '/so-manies?id%5Blt%5D=5&order%5Bid%5D=desc',
        },
      ],
      ['/so-manies?id[lt]=2', [1], { previous: '/so-manies?id%5Bgt%5D=1' }],
      // Backward: the three rows just before the position, in the collection's order.
      [
        '/so-manies?id[gt]=4',
        [7, 6, 5],
        { previous: '/so-manies?id%5Bgt%5D=7', next: '/so-manies?id%5Blt%5D=5' },
      ],
      ['/so-manies?id[gt]=7', [10, 9, 8], { next: '/so-manies?id%5Blt%5D=8' }],
      // Empty pages past either end link back across their position, inclusively.
      ['/so-manies?id[lt]=1', [], { previous: '/so-manies?id%5Bgte%5D=1' }],
      ['/so-manies?id[gt]=10', [], { next: '/so-manies?id%5Blte%5D=10' }],
      ['/so-manies?id[gte]=1', [3, 2, 1], { previous: '/so-manies?id%5Bgt%5D=3' }],
      ['/so-manies?id[lte]=10', [10, 9, 8], { next: '/so-manies?id%5Blt%5D=8' }],
    ])('%s', async (path, expectedIds, links) => {
      const response = await get(origin, path)
      expect(response.status).toBe(200)
      expect(ids(response.body)).toEqual(expectedIds)
      expect(response.body['hydra:totalItems']).toBeUndefined()
      const { '@id': id, ...rest } = links as Record<string, string>
      const expected: Record<string, string> = {
        '@id': id ?? path.replace(/\[/g, '%5B').replace(/\]/g, '%5D'),
        '@type': 'hydra:PartialCollectionView',
      }
      for (const [key, value] of Object.entries(rest)) expected[`hydra:${key}`] = value
      expect(view(response.body)).toEqual(expected)
    })

    it('D7: the page parameter serves that numbered page of the cursor order, with page links', async () => {
      const response = await get(origin, '/so-manies?page=3')
      expect(response.status).toBe(200)
      expect(ids(response.body)).toEqual([4, 3, 2])
      expect(response.body['hydra:totalItems']).toBe(10)
      expect(view(response.body)).toEqual({
        '@id': '/so-manies?page=3',
        '@type': 'hydra:PartialCollectionView',
        'hydra:first': '/so-manies?page=1',
        'hydra:last': '/so-manies?page=4',
        'hydra:previous': '/so-manies?page=2',
        'hydra:next': '/so-manies?page=4',
      })
      const mixed = await get(origin, '/so-manies?page=2&id[lt]=8')
      expect(mixed.status).toBe(400)
      expect(mixed.body.detail).toBe(
        'The "page" parameter cannot be combined with a cursor position (id[…]).'
      )
    })

    it('walks forward and back over every row exactly once', async () => {
      const forward = await walk('/so-manies', 'hydra:next')
      expect(forward).toEqual([[10, 9, 8], [7, 6, 5], [4, 3, 2], [1]])
      const backward = await walk('/so-manies?id[lt]=2', 'hydra:previous')
      expect(backward).toEqual([[1], [4, 3, 2], [7, 6, 5], [10, 9, 8]])
    })
  })

  it.each([
    ['id[lt]=abc', 'The "id[lt]" parameter must be an integer, "abc" given.'],
    ['id[gt]=1.5', 'The "id[gt]" parameter must be an integer, "1.5" given.'],
    ['id[lt]=99999999999', 'The "id[lt]" parameter must be a 32-bit integer, "99999999999" given.'],
    [
      'id=5',
      'The "id" parameter is a cursor: give it as id[lt]=…, id[gt]=…, id[lte]=… or id[gte]=…, once.',
    ],
    [
      'id[lt]=5&id[gt]=2',
      'The "id" parameter is a cursor: give it as id[lt]=…, id[gt]=…, id[lte]=… or id[gte]=…, once.',
    ],
    [
      'id[eq]=5',
      'The "id" parameter is a cursor: give it as id[lt]=…, id[gt]=…, id[lte]=… or id[gte]=…, once.',
    ],
    [
      'id[lt][x]=5',
      'The "id" parameter is a cursor: give it as id[lt]=…, id[gt]=…, id[lte]=… or id[gte]=…, once.',
    ],
  ])('?%s is a 400 naming the parameter', async (query, detail) => {
    const response = await get(origin, `/so-manies?${query}`)
    expect(response.status).toBe(400)
    expect(response.contentType).toBe('application/problem+json; charset=utf-8')
    expect(response.body.detail).toBe(detail)
  })
})

describe('a feed ordered by a repeating timestamp (createdAt DESC, then id)', () => {
  const BASE = Date.UTC(2024, 0, 1)
  const entries = range(1, 50).map((id) => ({
    id,
    // Seven entries share each minute, and ids do not follow time.
    createdAt: new Date(BASE + Math.floor(((id * 37) % 50) / 7) * 60_000),
    score: (id * 13) % 10,
  }))

  async function expectedOrder(): Promise<number[]> {
    const rows = await prisma.feedEntry.findMany({
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    })
    return rows.map((row) => row.id)
  }

  beforeEach(async () => {
    await prisma.feedEntry.deleteMany()
    await prisma.feedEntry.createMany({ data: entries })
  })

  it('links carry the whole key, read as one position', async () => {
    const response = await get(origin, '/feed-entries')
    const order = await expectedOrder()
    expect(ids(response.body)).toEqual(order.slice(0, 4))
    const last = entries.find((entry) => entry.id === order[3]) as (typeof entries)[number]
    expect(view(response.body)['hydra:next']).toBe(
      `/feed-entries?createdAt%5Blt%5D=${encodeURIComponent(last.createdAt.toISOString())}&id%5Blt%5D=${last.id}`
    )
  })

  it('walks every row exactly once, forward and back', async () => {
    const order = await expectedOrder()
    const forward = await walk('/feed-entries', 'hydra:next')
    expect(forward.flat()).toEqual(order)
    expect(forward.every((page) => page.length === 4 || page === forward.at(-1))).toBe(true)
    // From the last page back to the first: the same pages, in reverse.
    let position = '/feed-entries'
    for (let i = 0; i < forward.length - 1; i++) {
      position = view((await get(origin, position)).body)['hydra:next'] as string
    }
    const backward = await walk(position, 'hydra:previous')
    expect(backward).toEqual([...forward].reverse())
  })

  it('a client page size and pagination=false', async () => {
    const order = await expectedOrder()
    expect(ids((await get(origin, '/feed-entries?itemsPerPage=10')).body)).toEqual(
      order.slice(0, 10)
    )
    const all = await get(origin, '/feed-entries?pagination=false')
    expect(ids(all.body)).toEqual(order)
    expect(all.body['hydra:totalItems']).toBe(50)
  })

  it('the row a cursor points at is deleted between two requests', async () => {
    const order = await expectedOrder()
    const first = await get(origin, '/feed-entries')
    await prisma.feedEntry.delete({ where: { id: order[3] as number } })
    const second = await get(origin, view(first.body)['hydra:next'] as string)
    expect(ids(second.body)).toEqual(order.slice(4, 8))
    const back = await get(origin, view(second.body)['hydra:previous'] as string)
    expect(ids(back.body)).toEqual(order.slice(0, 3))
  })

  it('rows inserted during a walk never make an existing row repeat or vanish', async () => {
    const before = await expectedOrder()
    const seen: unknown[] = []
    let next: string | undefined = '/feed-entries'
    let inserted = 100
    while (next) {
      const response = await get(origin, next)
      seen.push(...ids(response.body))
      next = view(response.body)['hydra:next']
      // Newer rows at the front, equal timestamps in the middle, older rows at the end.
      await prisma.feedEntry.createMany({
        data: [0, 3, -1].map((minutes) => ({
          id: inserted++,
          createdAt: new Date(BASE + minutes * 60_000),
          score: 1,
        })),
      })
    }
    const existing = seen.filter((id) => before.includes(id as number))
    expect(existing).toEqual(before)
    expect(new Set(seen).size).toBe(seen.length)
  })

  it('an operation with mixed directions: createdAt ascending, then score descending, then id', async () => {
    const rows = await prisma.feedEntry.findMany({
      orderBy: [{ createdAt: 'asc' }, { score: 'desc' }, { id: 'desc' }],
    })
    const forward = await walk('/feed-entries/oldest-first', 'hydra:next')
    expect(forward.flat()).toEqual(rows.map((row) => row.id))
    const first = await get(origin, '/feed-entries/oldest-first')
    const last = rows[4] as (typeof rows)[number]
    expect(view(first.body)['hydra:next']).toBe(
      `/feed-entries/oldest-first?createdAt%5Bgt%5D=${encodeURIComponent(last.createdAt.toISOString())}&id%5Blt%5D=${last.id}&score%5Blt%5D=${last.score}`
    )
  })

  it('a prefix of the key is a position too', async () => {
    const order = await expectedOrder()
    const at = new Date(BASE + 3 * 60_000)
    const response = await get(origin, `/feed-entries?createdAt[lt]=${at.toISOString()}`)
    const expected = (
      await prisma.feedEntry.findMany({
        where: { createdAt: { lt: at } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: 4,
      })
    ).map((row) => row.id)
    expect(ids(response.body)).toEqual(expected)
    expect(order).toEqual(expect.arrayContaining(expected))
  })

  it('a later field alone names the first item past it, and the walk goes on from there', async () => {
    const order = await expectedOrder()
    // ids do not follow time: the first entry (newest first) whose id is below 20, and onwards.
    const start = order.findIndex((id) => id < 20)
    const pages = await walk('/feed-entries?id[lt]=20', 'hydra:next')
    expect(pages.flat()).toEqual(order.slice(start))
    const first = await get(origin, '/feed-entries?id[lt]=20')
    const back = await walk(view(first.body)['hydra:previous'] as string, 'hydra:previous')
    expect(back.reverse().flat()).toEqual(order.slice(0, start))
  })

  it.each([
    [
      'createdAt[lt]=yesterday&id[lt]=3',
      'The "createdAt[lt]" parameter must be an ISO 8601 date (2024-01-31) or date-time (2024-01-31T12:00:00Z), "yesterday" given.',
    ],
    [
      'createdAt[lt]=2024-02-30T00:00:00Z',
      'The "createdAt[lt]" parameter must be an ISO 8601 date (2024-01-31) or date-time (2024-01-31T12:00:00Z), "2024-02-30T00:00:00Z" given.',
    ],
    [
      'createdAt[lt]=2024-01-01T00:00:00Z&id[gt]=3',
      'The cursor parameters must all point the same way: createdAt[lt] and id[lt] for the next items, the opposite operators for the previous ones.',
    ],
    [
      'createdAt[lte]=2024-01-01T00:00:00Z&id[lt]=3',
      'Only the last cursor field may use an inclusive bound ([lte] or [gte]).',
    ],
  ])('?%s is a 400', async (query, detail) => {
    const response = await get(origin, `/feed-entries?${query}`)
    expect(response.status).toBe(400)
    expect(response.body.detail).toBe(detail)
  })
})

describe('cursor values of every type', () => {
  const rows = range(1, 9).map((n) => ({
    id: `0000000${n}-0000-4000-8000-00000000000${n}`,
    big: 9007199254740993n + BigInt(n * 1000) * (n % 2 === 0 ? 1n : -1n),
    code: `code-${String.fromCharCode(105 - n)}`,
    amount: `${(n * 7) % 10}.${n}5`,
    ratio: n % 3 === 0 ? n / 7 : -n / 3,
    kind: (['ALPHA', 'BETA', 'GAMMA'] as const)[n % 3] as 'ALPHA' | 'BETA' | 'GAMMA',
    at: new Date(Date.UTC(2024, 0, 1, 12, 0, 0, n * 7)),
  }))

  beforeAll(async () => {
    await prisma.typedRow.deleteMany()
    await prisma.typedRow.createMany({ data: rows })
  })

  it.each([
    ['/typed-rows', [{ big: 'asc' }]],
    ['/typed-rows/by-code', [{ code: 'asc' }]],
    ['/typed-rows/by-amount', [{ amount: 'desc' }, { id: 'desc' }]],
    ['/typed-rows/by-ratio', [{ ratio: 'asc' }, { id: 'asc' }]],
    ['/typed-rows/by-id', [{ id: 'desc' }]],
    ['/typed-rows/by-at', [{ at: 'asc' }, { id: 'asc' }]],
  ] as const)('%s walks every row once, both ways', async (path, orderBy) => {
    const expected = (await prisma.typedRow.findMany({ orderBy: [...orderBy] })).map(
      (row) => row.id
    )
    const forward = await walk(path, 'hydra:next')
    expect(forward.flat()).toEqual(expected)
    let position: string = path
    for (let i = 0; i < forward.length - 1; i++) {
      position = view((await get(origin, position)).body)['hydra:next'] as string
    }
    expect(await walk(position, 'hydra:previous')).toEqual([...forward].reverse())
  })

  it('writes BigInt, Decimal and DateTime keys exactly', async () => {
    const response = await get(origin, '/typed-rows')
    const sorted = [...rows].sort((a, b) => (a.big < b.big ? -1 : 1))
    expect(view(response.body)['hydra:next']).toBe(`/typed-rows?big%5Bgt%5D=${sorted[1]?.big}`)
    expect((response.body['hydra:member'] as Array<{ big: string }>)[0]?.big).toBe(
      String(sorted[0]?.big)
    )
    const byAt = await get(origin, '/typed-rows/by-at')
    expect(view(byAt.body)['hydra:next']).toBe(
      `/typed-rows/by-at?at%5Bgt%5D=2024-01-01T12%3A00%3A00.014Z&id%5Bgt%5D=00000002-0000-4000-8000-000000000002`
    )
  })

  it.each([
    ['/typed-rows?big[gt]=12.5', 'The "big[gt]" parameter must be an integer, "12.5" given.'],
    [
      '/typed-rows?big[gt]=9223372036854775808',
      'The "big[gt]" parameter must be a 64-bit integer, "9223372036854775808" given.',
    ],
    [
      '/typed-rows/by-amount?amount[lt]=1e3&id[lt]=x',
      'The "amount[lt]" parameter must be a decimal number, "1e3" given.',
    ],
    [
      '/typed-rows/by-ratio?ratio[gt]=NaN&id[gt]=x',
      'The "ratio[gt]" parameter must be a number, "NaN" given.',
    ],
    [
      '/typed-rows/by-at?at[gt]=2024-01-01T24:00:00Z&id[gt]=x',
      'The "at[gt]" parameter must be an ISO 8601 date (2024-01-31) or date-time (2024-01-31T12:00:00Z), "2024-01-01T24:00:00Z" given.',
    ],
  ])('%s is a 400', async (path, detail) => {
    const response = await get(origin, path)
    expect(response.status).toBe(400)
    expect(response.body.detail).toBe(detail)
  })
})

describe('string keys that differ only by case or accent', () => {
  // Equal under MySQL's utf8mb4_unicode_ci, distinct under SQLite's and PostgreSQL's collations:
  // each database orders them its own way, and a walk must follow that order exactly.
  const words = ['a', 'A', 'á', 'à', 'Ä', 'b', 'B', 'e', 'é', 'E', 'è', 'ss', 'ß', 'z', 'Z', 'a']
  const rows = words.map((word, i) => ({ id: ((i * 7) % words.length) + 1, word }))

  beforeAll(async () => {
    await prisma.word.deleteMany()
    await prisma.word.createMany({ data: rows })
  })

  it.each([
    ['/words', 'asc'],
    ['/words/backwards', 'desc'],
  ] as const)("%s visits every row once, in the database's order, both ways", async (path, dir) => {
    const expected = (await prisma.word.findMany({ orderBy: [{ word: dir }, { id: dir }] })).map(
      (row) => row.id
    )
    const forward = await walk(path, 'hydra:next')
    expect(forward.flat()).toEqual(expected)
    expect(new Set(forward.flat()).size).toBe(rows.length)
    let position: string = path
    for (let i = 0; i < forward.length - 1; i++) {
      position = view((await get(origin, position)).body)['hydra:next'] as string
    }
    expect(await walk(position, 'hydra:previous')).toEqual([...forward].reverse())
  })
})
