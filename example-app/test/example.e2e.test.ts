/**
 * The example app end to end: prisma/schema.prisma generated for real, the database pushed and
 * seeded as `npm start` does, and every paging option of the example checked over HTTP.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { SEED_COUNTS } from '../../prisma/seed.js'
import { createApp } from '../src/app.js'
import { RELEASES_FEED } from '../src/collections.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, get, ids, startServer, type TestDatabase } from './support/harness.js'
import { checkedAgainstOpenApi } from './support/openapi-check.js'

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let database: TestDatabase
/** Every response of the file, checked against the app's OpenAPI document. */
let openApi: ReturnType<typeof checkedAgainstOpenApi>

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)
const view = (body: Record<string, unknown>) =>
  body['hydra:view'] as Record<string, string> | undefined

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  expect(await prepareDatabase(prisma, database.url)).toEqual({
    seeded: ['authors', 'books', 'reviews', 'languages', 'loans', 'activities', 'users'],
  })
  expect(await prepareDatabase(prisma, database.url)).toEqual({ seeded: [] })
  // Small batches: unpaged responses are streamed across many batch boundaries.
  openApi = checkedAgainstOpenApi(createApp(prisma, { batchSize: 7 }).fetch)
  ;({ origin, close } = await startServer(openApi.fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

describe('global settings (platform.yaml): Author', () => {
  it('pages by the global page size of 10 and never shows the hidden email', async () => {
    const response = await get(origin, '/authors?page=2')
    expect(response.status).toBe(200)
    expect(ids(response.body)).toEqual(range(11, 20))
    expect(response.body['hydra:totalItems']).toBe(SEED_COUNTS.authors)
    expect(view(response.body)).toEqual({
      '@id': '/authors?page=2',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/authors?page=1',
      'hydra:last': '/authors?page=3',
      'hydra:previous': '/authors?page=1',
      'hydra:next': '/authors?page=3',
    })
    const member = (response.body['hydra:member'] as Array<Record<string, unknown>>)[0]
    expect(Object.keys(member ?? {})).toEqual(['@id', '@type', 'id', 'name', 'country', 'books'])
    const item = await get(origin, '/authors/11')
    expect(item.body.email).toBeUndefined()
  })

  it('ignores client page size, which the global settings leave off', async () => {
    expect(ids((await get(origin, '/authors?itemsPerPage=2')).body)).toHaveLength(10)
  })
})

describe('resource level: Book (client page size up to 50)', () => {
  it('?page=2 with the resource default', async () => {
    const response = await get(origin, '/books?page=2')
    expect(ids(response.body)).toEqual(range(11, 20))
    expect(view(response.body)?.['hydra:last']).toBe('/books?page=12')
  })

  it('a client page size', async () => {
    const response = await get(origin, '/books?itemsPerPage=25&page=2')
    expect(ids(response.body)).toEqual(range(26, 50))
    expect(view(response.body)).toMatchObject({
      'hydra:last': '/books?itemsPerPage=25&page=5',
      'hydra:next': '/books?itemsPerPage=25&page=3',
    })
  })

  it('a page size over the maximum is clamped to 50', async () => {
    const response = await get(origin, '/books?itemsPerPage=500')
    expect(ids(response.body)).toEqual(range(1, 50))
    expect(view(response.body)?.['hydra:last']).toBe('/books?itemsPerPage=500&page=3')
  })

  it('writes decimals, dates and enums as JSON strings', async () => {
    const book = await prisma.book.findUniqueOrThrow({ where: { id: 1 } })
    const response = await get(origin, '/books/1')
    expect(response.body).toEqual({
      '@context': '/contexts/Book',
      '@id': '/books/1',
      '@type': 'Book',
      id: 1,
      title: book.title,
      isbn: book.isbn,
      genre: book.genre,
      pages: book.pages,
      price: book.price.toString(),
      publishedAt: book.publishedAt.toISOString(),
      author: `/authors/${book.authorId}`,
      reviews: '/books/1/reviews',
      loans: '/books/1/loans',
    })
  })
})

describe('page numbers of 10^14 and more', () => {
  /** Every link of a response's view, followed: each must be a page the API serves. */
  async function followEveryLink(path: string, key = 'hydra:view') {
    const response = await get(origin, path)
    expect(response.status).toBe(200)
    const links = Object.entries(response.body[key] as Record<string, string>).filter(
      ([name]) => name !== '@type'
    )
    for (const [name, link] of links) {
      expect(link, name).toMatch(/[?&]page=[0-9]+$/)
      expect((await get(origin, link)).status, link).toBe(200)
    }
    return Object.fromEntries(links)
  }

  it('links to them with decimal page numbers the API accepts (full paging)', async () => {
    expect(await followEveryLink('/books?page=100000000000002&itemsPerPage=1')).toEqual({
      '@id': '/books?itemsPerPage=1&page=100000000000002',
      'hydra:first': '/books?itemsPerPage=1&page=1',
      'hydra:last': '/books?itemsPerPage=1&page=120',
      'hydra:previous': '/books?itemsPerPage=1&page=100000000000001',
    })
  })

  it('and in partial paging, without the prefix', async () => {
    expect(await followEveryLink('/reviews?page=400000000000000', 'view')).toMatchObject({
      '@id': '/reviews?page=400000000000000',
      previous: '/reviews?page=399999999999999',
    })
  })
})

describe('operation level: the newest books', () => {
  it('has its own order and page size, and no client page size', async () => {
    const newest = await prisma.book.findMany({
      orderBy: [{ publishedAt: 'desc' }, { id: 'asc' }],
      skip: 5,
      take: 5,
    })
    const response = await get(origin, '/books/recent?page=2&itemsPerPage=30')
    expect(ids(response.body)).toEqual(newest.map((book) => book.id))
    expect(response.body['hydra:totalItems']).toBe(SEED_COUNTS.books)
    expect(view(response.body)?.['hydra:last']).toBe('/books/recent?itemsPerPage=30&page=24')
  })
})

describe('partial paging without the hydra: prefix: Review', () => {
  it('has no count and no last link, under unprefixed keys', async () => {
    const response = await get(origin, '/reviews?page=2')
    const members = response.body.member as Array<{ id: number }>
    expect(members.map((member) => member.id)).toEqual(range(21, 40))
    expect(response.body).toMatchObject({ '@id': '/reviews', '@type': 'Collection' })
    expect(Object.keys(response.body).filter((key) => key.startsWith('hydra:'))).toEqual([])
    expect(response.body.totalItems).toBeUndefined()
    expect(response.body.view).toEqual({
      '@id': '/reviews?page=2',
      '@type': 'PartialCollectionView',
      previous: '/reviews?page=1',
      next: '/reviews?page=3',
    })
  })

  it('shows no next link on the last page', async () => {
    const last = SEED_COUNTS.reviews / 20
    const response = await get(origin, `/reviews?page=${last}`)
    expect(response.body.member).toHaveLength(20)
    expect(response.body.view).toEqual({
      '@id': `/reviews?page=${last}`,
      '@type': 'PartialCollectionView',
      previous: `/reviews?page=${last - 1}`,
    })
  })

  it('writes its errors without the prefix too', async () => {
    const response = await get(origin, '/reviews?page=0')
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      '@context': '/contexts/Error',
      '@id': '/errors/400',
      '@type': 'Error',
      type: '/errors/400',
      title: 'An error occurred',
      detail: 'Page should not be less than 1',
      status: 400,
      description: 'Page should not be less than 1',
    })
    expect((await get(origin, '/reviews/999999')).body).toMatchObject({
      '@type': 'Error',
      description: 'No Review with id "999999".',
    })
  })
})

describe('paging disabled: Language', () => {
  it('returns every language and no view, whatever the client asks', async () => {
    const response = await get(origin, '/languages?page=3')
    expect(response.body['hydra:totalItems']).toBe(SEED_COUNTS.languages)
    // It reads no parameter: no search template to offer.
    expect(response.body['hydra:search']).toBeUndefined()
    expect((response.body['hydra:member'] as unknown[]).length).toBe(SEED_COUNTS.languages)
    expect(view(response.body)).toBeUndefined()
    expect((await get(origin, '/languages/fr')).body).toMatchObject({
      '@id': '/languages/fr',
      name: 'French',
    })
  })
})

describe('client control of paging and partial mode: Loan', () => {
  it('pagination=false returns every loan, under a view whose @id is the request (D6)', async () => {
    const response = await get(origin, '/loans?pagination=false')
    expect(ids(response.body)).toEqual(range(1, SEED_COUNTS.loans))
    expect(response.body['hydra:totalItems']).toBe(SEED_COUNTS.loans)
    expect(view(response.body)).toEqual({
      '@id': '/loans?pagination=false',
      '@type': 'hydra:PartialCollectionView',
    })
  })

  it('partial=true drops the count', async () => {
    const response = await get(origin, '/loans?partial=true&page=3')
    expect(ids(response.body)).toEqual(range(21, 30))
    expect(response.body['hydra:totalItems']).toBeUndefined()
    expect(view(response.body)).toEqual({
      '@id': '/loans?partial=true&page=3',
      '@type': 'hydra:PartialCollectionView',
      'hydra:previous': '/loans?partial=true&page=2',
      'hydra:next': '/loans?partial=true&page=4',
    })
  })

  it('a client page size is capped by the global maximum of 30', async () => {
    expect(ids((await get(origin, '/loans?itemsPerPage=75')).body)).toHaveLength(30)
  })

  it('a nullable date is null or an ISO string', async () => {
    const members = (await get(origin, '/loans?pagination=false')).body['hydra:member'] as Array<{
      returnedAt: string | null
    }>
    expect(members[0]?.returnedAt).toBeNull()
    expect(members[1]?.returnedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })
})

describe('cursor paging: the activity feed', () => {
  it('pages newest first through hydra:next and back through hydra:previous', async () => {
    const expected = (
      await prisma.activity.findMany({ orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }] })
    ).map((activity) => activity.id)
    const pages: unknown[][] = []
    let next: string | undefined = '/activities?itemsPerPage=30'
    let last = ''
    while (next) {
      last = next
      const response = await get(origin, next)
      expect(response.body['hydra:totalItems']).toBeUndefined()
      pages.push(ids(response.body))
      next = view(response.body)?.['hydra:next']
    }
    expect(pages.flat()).toEqual(expected)
    const back = await get(origin, view((await get(origin, last)).body)?.['hydra:previous'] ?? '')
    expect(ids(back.body)).toEqual(pages.at(-2))
  })

  it('reads links as one position of the whole key', async () => {
    const response = await get(origin, '/activities')
    const lastOnPage = (
      response.body['hydra:member'] as Array<{ id: number; occurredAt: string }>
    ).at(-1)
    expect(view(response.body)?.['hydra:next']).toBe(
      `/activities?id%5Blt%5D=${lastOnPage?.id}&occurredAt%5Blt%5D=${encodeURIComponent(lastOnPage?.occurredAt ?? '')}`
    )
    expect(view(response.body)?.['hydra:previous']).toBeUndefined()
  })
})

describe('models without @pagination are never served', () => {
  it.each(['/users', '/users/1', '/contexts/User'])('%s is a 404 problem', async (path) => {
    const response = await get(origin, path)
    expect(response.status).toBe(404)
    expect(response.contentType).toBe('application/problem+json; charset=utf-8')
  })
})

describe('the entrypoint', () => {
  it('links the collection of every resource, generated and custom, once each', async () => {
    // /books/recent and /books/popular are operations of Book in the documentation.
    expect((await get(origin, '/')).body).toEqual({
      '@context': '/contexts/Entrypoint',
      '@id': '/',
      '@type': 'Entrypoint',
      author: '/authors',
      book: '/books',
      review: '/reviews',
      language: '/languages',
      loan: '/loans',
      activity: '/activities',
      genre: '/genres',
      release: '/releases',
    })
  })
})

describe('a custom data provider: the most borrowed books (/books/popular)', () => {
  /** The ranking computed here from the loans: most loans first, then by id. */
  async function ranking(): Promise<number[]> {
    const loans = await prisma.loan.findMany({ select: { bookId: true } })
    const counts = new Map<number, number>()
    for (const { bookId } of loans) counts.set(bookId, (counts.get(bookId) ?? 0) + 1)
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id)
  }

  it('pages through the ranking with the generated route, members and view', async () => {
    const order = await ranking()
    expect(order).toHaveLength(30)
    const first = await get(origin, '/books/popular')
    expect(ids(first.body)).toEqual(order.slice(0, 5))
    expect(first.body['hydra:totalItems']).toBe(30)
    expect(view(first.body)).toEqual({
      '@id': '/books/popular?page=1',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/books/popular?page=1',
      'hydra:last': '/books/popular?page=6',
      'hydra:next': '/books/popular?page=2',
    })
    const member = (first.body['hydra:member'] as Array<Record<string, unknown>>)[0]
    // The provider's rows become the same members as the generated routes'.
    const item = await get(origin, `/books/${order[0]}`)
    expect({ '@context': '/contexts/Book', ...member }).toEqual(item.body)
    expect(ids((await get(origin, '/books/popular?page=3')).body)).toEqual(order.slice(10, 15))
    const last = await get(origin, '/books/popular?page=6')
    expect(ids(last.body)).toEqual(order.slice(25, 30))
    expect(view(last.body)).not.toHaveProperty('hydra:next')
    const beyond = await get(origin, '/books/popular?page=7')
    expect(beyond.body['hydra:member']).toEqual([])
    expect(view(beyond.body)?.['hydra:previous']).toBe('/books/popular?page=6')
  })

  it("keeps the operation's settings and checks: a fixed page size, 400s", async () => {
    expect(ids((await get(origin, '/books/popular?itemsPerPage=20')).body)).toHaveLength(5)
    const bad = await get(origin, '/books/popular?page=-1')
    expect(bad.status).toBe(400)
    expect(bad.body.detail).toBe('Page should not be less than 1')
  })
})

describe('a custom collection over an in-memory array: /genres', () => {
  async function genres(): Promise<Array<{ name: string; books: number }>> {
    const books = await prisma.book.findMany({ select: { genre: true } })
    const counts = new Map<string, number>()
    for (const { genre } of books) counts.set(genre, (counts.get(genre) ?? 0) + 1)
    return [...counts.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([name, count]) => ({ name, books: count }))
  }
  const names = (body: Record<string, unknown>) =>
    (body['hydra:member'] as Array<{ name: string; books: number }>).map(({ name, books }) => ({
      name,
      books,
    }))

  it('first, middle, last and beyond the last page', async () => {
    const all = await genres()
    expect(all).toHaveLength(5)
    const first = await get(origin, '/genres')
    expect(first.body).toMatchObject({
      '@context': '/contexts/Genre',
      '@id': '/genres',
      '@type': 'hydra:Collection',
      'hydra:totalItems': 5,
    })
    expect(names(first.body)).toEqual(all.slice(0, 2))
    expect((first.body['hydra:member'] as Array<Record<string, unknown>>)[0]).toEqual({
      '@id': `/genres#${all[0]?.name}`,
      '@type': 'Genre',
      ...all[0],
    })
    expect(view(first.body)).toEqual({
      '@id': '/genres?page=1',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/genres?page=1',
      'hydra:last': '/genres?page=3',
      'hydra:next': '/genres?page=2',
    })
    const middle = await get(origin, '/genres?page=2')
    expect(names(middle.body)).toEqual(all.slice(2, 4))
    expect(view(middle.body)?.['hydra:previous']).toBe('/genres?page=1')
    expect(view(middle.body)?.['hydra:next']).toBe('/genres?page=3')
    const last = await get(origin, '/genres?page=3')
    expect(names(last.body)).toEqual(all.slice(4))
    expect(view(last.body)).not.toHaveProperty('hydra:next')
    const beyond = await get(origin, '/genres?page=4')
    expect(beyond.body['hydra:member']).toEqual([])
    expect(view(beyond.body)?.['hydra:previous']).toBe('/genres?page=3')
  })

  it('the client may choose the page size; its context resolves', async () => {
    expect(names((await get(origin, '/genres?itemsPerPage=5')).body)).toEqual(await genres())
    const context = await get(origin, '/contexts/Genre')
    expect(context.body['@context']).toMatchObject({ name: 'Genre/name', books: 'Genre/books' })
  })
})

describe('a custom collection over an async iterable: /releases', () => {
  const feed = readFileSync(RELEASES_FEED, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { title: string }).title)
  const titles = (body: Record<string, unknown>) =>
    (body['hydra:member'] as Array<{ title: string }>).map((member) => member.title)

  it('partial paging by default: first, middle, last, beyond', async () => {
    expect(feed).toHaveLength(42)
    const first = await get(origin, '/releases')
    expect(titles(first.body)).toEqual(feed.slice(0, 10))
    expect(first.body).not.toHaveProperty('hydra:totalItems')
    expect(view(first.body)).toEqual({
      '@id': '/releases?page=1',
      '@type': 'hydra:PartialCollectionView',
      'hydra:next': '/releases?page=2',
    })
    const middle = await get(origin, '/releases?page=3')
    expect(titles(middle.body)).toEqual(feed.slice(20, 30))
    const last = await get(origin, '/releases?page=5')
    expect(titles(last.body)).toEqual(feed.slice(40))
    expect(view(last.body)).toEqual({
      '@id': '/releases?page=5',
      '@type': 'hydra:PartialCollectionView',
      'hydra:previous': '/releases?page=4',
    })
    const beyond = await get(origin, '/releases?page=6')
    expect(beyond.body['hydra:member']).toEqual([])
    expect(view(beyond.body)?.['hydra:previous']).toBe('/releases?page=5')
  })

  it('full paging on request: the feed read to its end and counted', async () => {
    const full = await get(origin, '/releases?partial=false&page=2')
    expect(full.body['hydra:totalItems']).toBe(42)
    expect(view(full.body)?.['hydra:last']).toBe('/releases?partial=false&page=5')
  })

  it('pagination=false: the whole feed, streamed', async () => {
    const all = await get(origin, '/releases?pagination=false')
    expect(titles(all.body)).toEqual(feed)
    expect(all.body['hydra:totalItems']).toBe(42)
    expect((all.body['hydra:member'] as Array<Record<string, unknown>>)[41]).toMatchObject({
      '@id': '/releases#42',
      '@type': 'Release',
      position: 42,
    })
  })

  it('a bad page is the same 400 as everywhere', async () => {
    const bad = await get(origin, '/releases?page=x')
    expect(bad.status).toBe(400)
    expect(bad.body.detail).toBe('The "page" parameter must be a decimal integer, "x" given.')
  })
})

describe('unpaged responses are streamed in batches, every row once, in order', () => {
  it('/loans?pagination=false is the paged walk, over 11 batches of 7', async () => {
    const paged: unknown[] = []
    for (let page = 1; page <= 3; page++) {
      paged.push(...ids((await get(origin, `/loans?itemsPerPage=30&page=${page}`)).body))
    }
    const all = await get(origin, '/loans?pagination=false')
    expect(ids(all.body)).toEqual(paged)
    expect(all.body['hydra:totalItems']).toBe(SEED_COUNTS.loans)
  })
})

describe('HTTP caching (docs/hydra.md#http-caching)', () => {
  let plain: { origin: string; close: () => Promise<void> }
  beforeAll(async () => {
    // A server of its own: 304 and 412 are not in the OpenAPI document the other one checks.
    plain = await startServer(createApp(prisma).fetch)
  })
  afterAll(() => plain?.close())
  const ask = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${plain.origin}${path}`, { headers })

  // Every kind of response written whole: pages of each paging mode, a sub-collection, a custom
  // collection, an item, the entrypoint and the documentation.
  const validated = [
    '/authors?page=2',
    '/reviews?page=2',
    '/activities',
    '/authors/3/books',
    '/genres',
    '/books/1',
    '/',
    '/docs.jsonld',
  ]

  it.each(validated)(
    '%s: a stable strong ETag, 304 on If-None-Match, 412 on a failed If-Match',
    async (path) => {
      const first = await ask(path)
      const again = await ask(path)
      expect(first.status).toBe(200)
      const tag = first.headers.get('etag')
      expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
      expect(again.headers.get('etag')).toBe(tag)
      expect(await again.text()).toBe(await first.text())
      expect(first.headers.get('vary')).toBe('Accept')

      const unchanged = await ask(path, { 'If-None-Match': `"other", W/${tag}` })
      expect(unchanged.status).toBe(304)
      expect(await unchanged.text()).toBe('')
      // What a 304 carries (RFC 9110 15.4.5): the validator, Vary and Cache-Control of the 200.
      expect(unchanged.headers.get('etag')).toBe(tag)
      expect(unchanged.headers.get('vary')).toBe('Accept')
      expect(unchanged.headers.get('cache-control')).toBe(first.headers.get('cache-control'))
      expect((await ask(path, { 'If-None-Match': '*' })).status).toBe(304)
      expect((await ask(path, { 'If-None-Match': '"other"' })).status).toBe(200)

      const failed = await ask(path, { 'If-Match': '"nope"' })
      expect(failed.status).toBe(412)
      expect(failed.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      expect(await failed.json()).toMatchObject({ status: 412, title: 'Precondition Failed' })
      // Strong comparison: a weak tag never matches If-Match.
      expect((await ask(path, { 'If-Match': `W/${tag}` })).status).toBe(412)
      expect((await ask(path, { 'If-Match': `"x", ${tag}` })).status).toBe(200)
      expect((await ask(path, { 'If-Match': '*' })).status).toBe(200)
    }
  )

  it('tags JSON-LD and JSON apart, and a 404 ignores its preconditions', async () => {
    const ld = await ask('/books/1')
    const json = await ask('/books/1', { Accept: 'application/json' })
    expect(json.headers.get('etag')).not.toBe(ld.headers.get('etag'))
    const missing = await ask('/books/999999', { 'If-Match': '"nope"', 'If-None-Match': '*' })
    expect(missing.status).toBe(404)
    // The 412's @id resolves, as every error's does.
    const kind = await ask('/errors/412')
    expect(kind.status).toBe(200)
    expect(await kind.json()).toMatchObject({ title: 'Precondition Failed', status: 412 })
  })

  it('changes the ETag of the item and of its pages after a write, and only then', async () => {
    const tags = async () =>
      Promise.all(
        ['/authors/3', '/authors?page=1', '/authors/3/books'].map(async (path) =>
          (await ask(path)).headers.get('etag')
        )
      )
    const before = await tags()
    const { name } = await prisma.author.findUniqueOrThrow({ where: { id: 3 } })
    await prisma.author.update({ where: { id: 3 }, data: { name: 'Renamed' } })
    try {
      const after = await tags()
      expect(after[0]).not.toBe(before[0])
      expect(after[1]).not.toBe(before[1])
      // The sub-collection's books do not show the author's name: its tag stays.
      expect(after[2]).toBe(before[2])
      expect((await ask('/authors/3', { 'If-None-Match': before[0] as string })).status).toBe(200)
      expect((await ask('/authors/3', { 'If-Match': before[0] as string })).status).toBe(412)
    } finally {
      await prisma.author.update({ where: { id: 3 }, data: { name } })
    }
    expect(await tags()).toEqual(before)
  })

  it('writes the Cache-Control of the annotations: an operation, a resource’s items and stream', async () => {
    expect((await ask('/books/recent')).headers.get('cache-control')).toBe(
      'max-age=30, s-maxage=120'
    )
    expect((await ask('/books')).headers.get('cache-control')).toBeNull()
    expect((await ask('/books/1')).headers.get('cache-control')).toBeNull()
    expect((await ask('/languages/en')).headers.get('cache-control')).toBe('public, max-age=3600')
    expect((await ask('/docs.jsonld')).headers.get('cache-control')).toBe('no-cache')
    // A custom collection's own option.
    expect((await ask('/genres')).headers.get('cache-control')).toBe('public, max-age=60')
  })

  it('gives streamed (unpaged) collections no ETag, and answers their preconditions without one', async () => {
    for (const path of ['/languages', '/loans?pagination=false']) {
      const whole = await ask(path)
      expect(whole.status).toBe(200)
      expect(whole.headers.get('etag')).toBeNull()
      // Loans let clients choose their totals: they vary by Prefer, unpaged too.
      expect(whole.headers.get('vary')).toBe(
        path.startsWith('/loans') ? 'Accept, Prefer' : 'Accept'
      )
      await whole.arrayBuffer()
      expect((await ask(path, { 'If-None-Match': '*' })).status).toBe(304)
      for (const headers of [{ 'If-None-Match': '"any"' }, { 'If-Match': '*' }]) {
        const sent = await ask(path, headers)
        expect(sent.status).toBe(200)
        await sent.arrayBuffer()
      }
      expect((await ask(path, { 'If-Match': '"any"' })).status).toBe(412)
    }
    expect((await ask('/languages')).headers.get('cache-control')).toBe('public, max-age=3600')
  })
})

it("answers every request of this file as the API's OpenAPI document says", async () => {
  const result = await openApi.result()
  expect(result.violations).toEqual([])
  expect(result.checked).toBeGreaterThan(40)
})
