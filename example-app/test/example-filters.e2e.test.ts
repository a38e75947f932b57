/**
 * The example app's filters and orders (prisma/schema.prisma, docs/filters.md) over its seeded
 * library: books by title, genre, author, price and date, ordered by the client; the popular books
 * through their custom provider; open loans; the activity feed by kind under cursor paging. The
 * expected rows are computed here from every row read back, never by the filters themselves.
 */
import { parseHydraDocumentation } from '@api-platform/api-doc-parser'
import jsonld from 'jsonld'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import {
  emptyDatabase,
  get,
  ids,
  startServer,
  TEST_DATABASE,
  type TestDatabase,
} from './support/harness.js'

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let database: TestDatabase

interface Book {
  id: number
  title: string
  genre: string
  price: number
  publishedAt: number
  authorId: number
}
let books: Book[]

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  ;({ origin, close } = await startServer(createApp(prisma, { batchSize: 7 }).fetch))
  books = (await prisma.book.findMany()).map((book) => ({
    id: book.id,
    title: book.title,
    genre: book.genre,
    price: Number(book.price),
    publishedAt: book.publishedAt.getTime(),
    authorId: book.authorId,
  }))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

const view = (body: Record<string, unknown>) => (body['hydra:view'] ?? {}) as Record<string, string>

/** Every member id from `start` on, following `hydra:next`, and the totals each page gave. */
async function walk(start: string): Promise<{ ids: unknown[]; totals: Set<unknown> }> {
  const all: unknown[] = []
  const totals = new Set<unknown>()
  let url: string | undefined = start
  for (let pages = 0; url; pages++) {
    const response = await get(origin, url)
    expect(response.status, `${url}: ${JSON.stringify(response.body)}`).toBe(200)
    all.push(...ids(response.body))
    totals.add(response.body['hydra:totalItems'])
    url = view(response.body)['hydra:next']
    expect(pages).toBeLessThan(200)
  }
  return { ids: all, totals }
}

const byThen =
  <T>(...keys: Array<(row: T) => number | string>) =>
  (a: T, b: T) => {
    for (const key of keys) {
      const [x, y] = [key(a), key(b)]
      if (x !== y) return x < y ? -1 : 1
    }
    return 0
  }

describe('books', () => {
  it('by title (partial) and genre, ordered by price descending', async () => {
    const expected = books
      .filter((book) => book.title.includes('i') && book.genre === 'FICTION')
      .sort(
        byThen(
          (book) => -book.price,
          (book) => book.id
        )
      )
      .map((book) => book.id)
    expect(expected.length).toBeGreaterThan(2)
    const { ids, totals } = await walk(
      '/books?title=i&genre=FICTION&order[price]=desc&itemsPerPage=4'
    )
    expect(ids).toEqual(expected)
    expect(totals).toEqual(new Set([expected.length]))
  })

  it("by the author's name (partial), ordered by it, through the relation", async () => {
    const authors = new Map(
      (await prisma.author.findMany()).map((author) => [author.id, author.name])
    )
    const name = (book: Book) => authors.get(book.authorId) ?? ''
    const part = [...authors.values()][0]?.split(' ')[0]?.slice(1, 4) ?? ''
    // Compared as the database does for a partial search (LIKE): case-folded on SQLite and MariaDB.
    const fold = (text: string) => (TEST_DATABASE === 'postgresql' ? text : text.toLowerCase())
    const expected = books
      .filter((book) => fold(name(book)).includes(fold(part)))
      .sort(
        byThen(
          (book) => fold(name(book)),
          (book) => book.id
        )
      )
      .map((book) => book.id)
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThan(books.length)
    const { ids, totals } = await walk(
      `/books?author.name=${encodeURIComponent(part)}&order[author.name]=asc&itemsPerPage=4`
    )
    expect(ids).toEqual(expected)
    expect(totals).toEqual(new Set([expected.length]))
  })

  it('by author, as an IRI or an id, with the same rows and count', async () => {
    const expected = books.filter((book) => book.authorId === 3).map((book) => book.id)
    expect(expected.length).toBeGreaterThan(0)
    for (const author of ['/authors/3', '3']) {
      const { ids, totals } = await walk(`/books?author=${encodeURIComponent(author)}`)
      expect(ids).toEqual(expected)
      expect(totals).toEqual(new Set([expected.length]))
    }
  })

  it('by price range and publication date, ordered by publication date', async () => {
    const after = Date.UTC(2000, 0, 1)
    const expected = books
      .filter((book) => book.price >= 10 && book.price <= 20 && book.publishedAt >= after)
      .sort(
        byThen(
          (book) => book.publishedAt,
          (book) => book.id
        )
      )
      .map((book) => book.id)
    expect(expected.length).toBeGreaterThan(5)
    const { ids } = await walk(
      '/books?price[between]=10..20&publishedAt[after]=2000-01-01&order[publishedAt]=asc'
    )
    expect(ids).toEqual(expected)
  })

  it('by title on /books/recent, newest first as the operation orders it', async () => {
    const expected = books
      .filter((book) => book.title.includes('Atlas'))
      .sort(
        byThen(
          (book) => -book.publishedAt,
          (book) => book.id
        )
      )
      .map((book) => book.id)
    expect((await walk('/books/recent?title=Atlas')).ids).toEqual(expected)
  })

  it('popular books: the provider applies the filters it receives', async () => {
    const loans = await prisma.loan.findMany()
    const counts = new Map<number, number>()
    for (const loan of loans) counts.set(loan.bookId, (counts.get(loan.bookId) ?? 0) + 1)
    const poetry = new Set(books.filter((book) => book.genre === 'POETRY').map((book) => book.id))
    const expected = [...counts]
      .filter(([id]) => poetry.has(id))
      .sort(
        byThen(
          ([, count]) => -count,
          ([id]) => id
        )
      )
      .map(([id]) => id)
    expect(expected.length).toBeGreaterThan(0)
    const { ids, totals } = await walk('/books/popular?genre=POETRY')
    expect(ids).toEqual(expected)
    expect(totals).toEqual(new Set([expected.length]))
  })

  it('text matching follows the database: SQLite and MariaDB ignore case, PostgreSQL does not', async () => {
    const lower = await walk('/books?title=river')
    const exact = books.filter((book) => book.title.includes('River')).map((book) => book.id)
    expect(lower.ids).toEqual(TEST_DATABASE === 'postgresql' ? [] : exact)
  })

  it('a genre outside the enum is a 400 naming the parameter', async () => {
    const response = await get(origin, '/books?genre=NOVEL')
    expect(response.status).toBe(400)
    expect(response.body.detail).toBe(
      'The "genre" parameter must be one of FICTION, SCIENCE, HISTORY, POETRY, CHILDREN, "NOVEL" given.'
    )
  })
})

/**
 * The ids of every page of the reviews at `start`, following `next` (the reviews are served
 * without the `hydra:` prefix), each page answered byte for byte alike by the `compiled` engine
 * at `twin`.
 */
async function walkOnBothEngines(start: string, twin: string): Promise<number[]> {
  const found: number[] = []
  for (let url: string | undefined = start, pages = 0; url; pages++) {
    const [own, other] = await Promise.all([fetch(`${origin}${url}`), fetch(`${twin}${url}`)])
    expect(own.status, url).toBe(200)
    const text = await own.text()
    // One answer whatever the engine, byte for byte.
    expect(await other.text(), url).toBe(text)
    const body = JSON.parse(text) as { member: Array<{ id: number }>; view?: { next?: string } }
    found.push(...body.member.map((member) => member.id))
    url = body.view?.next
    expect(pages).toBeLessThan(50)
  }
  return found
}

describe('reviews through their book to its author', () => {
  it('by the author itself, its IRI or id, one or several, on both engines', async () => {
    const authorOf = new Map(books.map((book) => [book.id, book.authorId]))
    const reviews = await prisma.review.findMany({ orderBy: { id: 'asc' } })
    const [first, second] = [...new Set(books.map((book) => book.authorId))]
    const of = (authors: readonly (number | undefined)[]) =>
      reviews
        .filter((review) => authors.includes(authorOf.get(review.bookId)))
        .map((review) => review.id)
    expect(of([first]).length).toBeGreaterThan(0)
    expect(of([first, second]).length).toBeLessThan(reviews.length)
    const compiled = await startServer(createApp(prisma, { engine: 'compiled' }).fetch)
    try {
      const cases: Array<[string, number[]]> = [
        [`book.author=${first}`, of([first])],
        [`book.author=${encodeURIComponent(`/authors/${first}`)}`, of([first])],
        [
          `book.author[]=${first}&book.author[]=${encodeURIComponent(`/authors/${second}`)}`,
          of([first, second]),
        ],
        ['book.author=999999', []],
      ]
      for (const [query, expected] of cases) {
        expect(await walkOnBothEngines(`/reviews?${query}`, compiled.origin), query).toEqual(
          expected
        )
      }
      for (const wrong of ['/books/1', 'abc']) {
        const response = await get(origin, `/reviews?book.author=${encodeURIComponent(wrong)}`)
        expect(response.status, wrong).toBe(400)
        expect(response.body.detail, wrong).toContain('"book.author"')
      }
    } finally {
      await compiled.close()
    }
  })

  it("by the author's name (partial), ordered by it, two relations away, on both engines", async () => {
    const authors = new Map(
      (await prisma.author.findMany()).map((author) => [author.id, author.name])
    )
    const authorOf = new Map(books.map((book) => [book.id, book.authorId]))
    const reviews = await prisma.review.findMany()
    const name = (review: { bookId: number }) =>
      authors.get(authorOf.get(review.bookId) ?? -1) ?? ''
    const part = [...authors.values()][1]?.split(' ')[0]?.slice(1, 4) ?? ''
    const fold = (text: string) => (TEST_DATABASE === 'postgresql' ? text : text.toLowerCase())
    const expected = reviews
      .filter((review) => fold(name(review)).includes(fold(part)))
      .sort(
        byThen(
          (review) => fold(name(review)),
          (review) => review.id
        )
      )
      .map((review) => review.id)
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThan(reviews.length)
    const start = `/reviews?book.author.name=${encodeURIComponent(part)}&order[book.author.name]=asc`
    const compiled = await startServer(createApp(prisma, { engine: 'compiled' }).fetch)
    try {
      expect(await walkOnBothEngines(start, compiled.origin)).toEqual(expected)
    } finally {
      await compiled.close()
    }
  })
})

describe('several authors in one request (id[])', () => {
  it('lists the authors named by IRI or id, in either list form, alike on both engines', async () => {
    const compiled = await startServer(createApp(prisma, { engine: 'compiled' }).fetch)
    try {
      const queries = [
        'id[]=/authors/7&id[]=2&id[]=/authors/4',
        'id%5B0%5D=%2Fauthors%2F7&id%5B1%5D=2&id%5B2%5D=%2Fauthors%2F4',
        'id[]=2&id[]=4&id[]=7&id[]=99999',
      ]
      for (const query of queries) {
        const [own, twin] = await Promise.all([
          fetch(`${origin}/authors?${query}`),
          fetch(`${compiled.origin}/authors?${query}`),
        ])
        expect(own.status, query).toBe(200)
        const text = await own.text()
        expect(await twin.text(), query).toBe(text)
        const body = JSON.parse(text) as Record<string, unknown>
        expect(ids(body), query).toEqual([2, 4, 7])
        expect(body['hydra:totalItems'], query).toBe(3)
      }
      const one = await get(origin, '/authors?id=/authors/3')
      expect(ids(one.body)).toEqual([3])
      for (const wrong of ['id=/books/3', 'id[]=3&id[]=x', 'id=/authors/3/books']) {
        const refused = await get(origin, `/authors?${wrong}`)
        expect(refused.status, wrong).toBe(400)
        expect(String(refused.body.detail), wrong).toContain('"id')
      }
    } finally {
      await compiled.close()
    }
  })
})

describe('loans with exists[returnedAt]', () => {
  it('full, partial and unpaged responses hold exactly the open loans', async () => {
    const open = (await prisma.loan.findMany({ orderBy: { id: 'asc' } }))
      .filter((loan) => loan.returnedAt === null)
      .map((loan) => loan.id)
    expect(open.length).toBeGreaterThan(5)
    const full = await walk('/loans?exists[returnedAt]=false&itemsPerPage=4')
    expect(full.ids).toEqual(open)
    expect(full.totals).toEqual(new Set([open.length]))
    expect((await walk('/loans?exists[returnedAt]=false&itemsPerPage=4&partial=true')).ids).toEqual(
      open
    )
    const unpaged = await get(origin, '/loans?exists[returnedAt]=false&pagination=false')
    expect(ids(unpaged.body)).toEqual(open)
  })
})

describe('the activity feed by kind (cursor paging)', () => {
  it('walks the events of one kind, newest first, each once, the filter kept in every link', async () => {
    const expected = (
      await prisma.activity.findMany({ orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }] })
    )
      .filter((activity) => activity.kind === 'review')
      .map((activity) => activity.id)
    const { ids } = await walk('/activities?kind=review&itemsPerPage=13')
    expect(ids).toEqual(expected)
    const first = await get(origin, '/activities?kind=review&itemsPerPage=13')
    // The link is the `@id` of the page it leads to: its keys sorted (docs/paging.md#d6).
    expect(view(first.body)['hydra:next']).toMatch(
      /^\/activities\?id%5Blt%5D=\d+&itemsPerPage=13&kind=review&occurredAt%5Blt/
    )
  })
})

describe('genres (a custom collection)', () => {
  const counts = () => {
    const byGenre = new Map<string, number>()
    for (const book of books) byGenre.set(book.genre, (byGenre.get(book.genre) ?? 0) + 1)
    return [...byGenre]
  }

  it('filters by book count and orders by it, as its handler applies the parsed query', async () => {
    const least = Math.min(...counts().map(([, count]) => count))
    const expected = counts()
      .filter(([, count]) => count > least)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .map(([genre]) => `/genres#${genre}`)
    expect(expected.length).toBeGreaterThan(0)
    const found: unknown[] = []
    let url: string | undefined = `/genres?books[gt]=${least}&order[books]=desc`
    while (url) {
      const response = await get(origin, url)
      expect(response.status).toBe(200)
      expect(response.body['hydra:totalItems']).toBe(expected.length)
      found.push(
        ...(response.body['hydra:member'] as Array<{ '@id': string }>).map((g) => g['@id'])
      )
      url = view(response.body)['hydra:next']
    }
    expect(found).toEqual(expected)
    const two = await get(origin, '/genres?name[]=POETRY&name[]=FICTION')
    expect((two.body['hydra:member'] as Array<{ name: string }>).map((g) => g.name)).toEqual([
      'FICTION',
      'POETRY',
    ])
  })

  it('answers a malformed filter with a 400 naming the parameter', async () => {
    const response = await get(origin, '/genres?name=NOVEL')
    expect(response.status).toBe(400)
    expect(response.body.detail).toBe(
      'The "name" parameter must be one of FICTION, SCIENCE, HISTORY, POETRY, CHILDREN, "NOVEL" given.'
    )
    expect((await get(origin, '/genres?books[between]=1')).status).toBe(400)
  })
})

/** The paging parameters of /books, which its `hydra:search` lists before its filters. */
const BOOK_PAGING = ['page', 'itemsPerPage']

/** What a search lists after the paging parameters: the filters and orders. */
const filtersOf = (variables: readonly string[]) =>
  variables.filter((variable) => !PAGING_VARIABLE.test(variable))
const PAGING_VARIABLE = /^(page|itemsPerPage|pagination|partial|(id|occurredAt)\[(gt|lt)e?\])$/

const BOOK_VARIABLES = [
  'title',
  'genre',
  'genre[]',
  'author',
  'author[]',
  'author.name',
  'id',
  'id[]',
  'price[between]',
  'price[gt]',
  'price[gte]',
  'price[lt]',
  'price[lte]',
  'publishedAt[before]',
  'publishedAt[strictly_before]',
  'publishedAt[after]',
  'publishedAt[strictly_after]',
  'order[title]',
  'order[price]',
  'order[publishedAt]',
  'order[author.name]',
  'order[id]',
  'properties[]',
  'properties[author][]',
]

const REVIEW_VARIABLES = [
  'book.author.name',
  'book.author',
  'book.author[]',
  'order[book.author.name]',
  'order[id]',
]

describe('discovery: hydra:search', () => {
  it('describes every variable of /books as API Platform does, on paged and streamed entry pages', async () => {
    const response = await get(origin, '/books')
    const search = response.body['hydra:search'] as Record<string, unknown>
    expect(search['@id']).toBe('/books#search')
    expect(search['@type']).toBe('hydra:IriTemplate')
    const variables = [...BOOK_PAGING, ...BOOK_VARIABLES]
    expect(search['hydra:template']).toBe(`/books{?${variables.join(',')}}`)
    expect(search['hydra:variableRepresentation']).toBe('BasicRepresentation')
    const mapping = search['hydra:mapping'] as Array<Record<string, unknown>>
    expect(mapping.map((entry) => entry.variable)).toEqual(variables)
    expect(mapping[BOOK_PAGING.length + 3]).toEqual({
      '@type': 'IriTemplateMapping',
      variable: 'author',
      property: 'author',
      required: false,
    })
    const loans = await get(origin, '/loans')
    expect((loans.body['hydra:search'] as Record<string, unknown>)['hydra:template']).toMatch(
      /^\/loans\{\?page,.*,exists\[returnedAt\],properties\[\],properties\[book\]\[\]\}$/
    )
    const deep = await get(origin, '/reviews')
    // Served without the `hydra:` prefix; a field two relations away under its dotted name.
    const reviews = deep.body.search as Record<string, unknown>
    const reviewMapping = reviews.mapping as Array<Record<string, unknown>>
    expect(filtersOf(reviewMapping.map((entry) => entry.variable as string))).toEqual(
      REVIEW_VARIABLES
    )
    expect(reviewMapping.find((entry) => entry.variable === 'book.author.name')).toEqual({
      '@type': 'IriTemplateMapping',
      variable: 'book.author.name',
      property: 'book.author.name',
      required: false,
    })
    expect((await get(origin, '/books/popular')).body['hydra:search']).toMatchObject({
      'hydra:template': expect.not.stringContaining('order['),
    })
  })

  it('holds the template on the entry page only: every other page refers to it by its IRI', async () => {
    const entry = await get(origin, '/books')
    const template = entry.body['hydra:search'] as Record<string, unknown>
    expect(template['hydra:template']).toMatch(/^\/books\{\?page,/)
    const others = [
      ['/books?page=2', '/books'],
      ['/books?title=a&order[title]=desc', '/books'],
      ['/books?pagination=false', '/books'],
      ['/loans?pagination=false', '/loans'],
      ['/authors/3/books?page=1', '/authors/3/books'],
    ]
    for (const [url, path] of others) {
      const { status, body } = await get(origin, url as string)
      expect(status, url).toBe(200)
      expect(body['hydra:search'], url).toStrictEqual({ '@id': `${path}#search` })
    }
    // The reference names the template its collection's entry page holds.
    const sub = (await get(origin, '/authors/3/books')).body['hydra:search'] as Record<
      string,
      unknown
    >
    expect(sub['@id']).toBe('/authors/3/books#search')
    expect(sub['hydra:template']).toMatch(/^\/authors\/3\/books\{\?/)
    // Without the `hydra:` prefix alike.
    expect((await get(origin, '/reviews?page=1')).body.search).toStrictEqual({
      '@id': '/reviews#search',
    })
    // A collection reading no parameter has none, on any page.
    expect((await get(origin, '/languages?page=1')).body).not.toHaveProperty('hydra:search')
  })

  it('expands to Hydra’s IRIs through the type’s context', async () => {
    const url = `${origin}/books`
    const body = await (await fetch(url)).json()
    const documentLoader = async (target: string) => ({
      contextUrl: null,
      documentUrl: target,
      document: await (await fetch(target)).json(),
    })
    const options = { base: url, documentLoader, safe: true }
    const [expanded] = (await jsonld.expand(
      body,
      options as unknown as jsonld.Options.Expand
    )) as Array<Record<string, unknown>>
    const HYDRA = 'http://www.w3.org/ns/hydra/core#'
    const [search] = (expanded?.[`${HYDRA}search`] ?? []) as Array<Record<string, unknown>>
    expect(search?.['@type']).toEqual([`${HYDRA}IriTemplate`])
    const mappings = search?.[`${HYDRA}mapping`] as Array<Record<string, unknown>>
    const title = mappings.find((mapping) =>
      (mapping[`${HYDRA}variable`] as Array<{ '@value': unknown }>).some(
        (value) => value['@value'] === 'title'
      )
    )
    expect(title).toEqual({
      '@type': [`${HYDRA}IriTemplateMapping`],
      [`${HYDRA}variable`]: [{ '@value': 'title' }],
      [`${HYDRA}property`]: [{ '@id': 'https://schema.org/name' }],
      [`${HYDRA}required`]: [{ '@value': false }],
    })
    expect(search?.[`${HYDRA}variableRepresentation`]).toEqual([
      { '@id': `${HYDRA}BasicRepresentation` },
    ])
  })

  it("API Platform's api-doc-parser lists each resource's filter parameters", async () => {
    const { api } = await parseHydraDocumentation(origin)
    const parameters = async (name: string) => {
      const resource = api.resources?.find((candidate) => candidate.name === name)
      const found = (await resource?.getParameters?.()) ?? []
      return found.map((parameter) => parameter.variable)
    }
    // Paging parameters first (as every collection response lists them), then the filters.
    expect(await parameters('books')).toEqual([...BOOK_PAGING, ...BOOK_VARIABLES])
    expect(filtersOf(await parameters('loans'))).toEqual([
      'exists[returnedAt]',
      'properties[]',
      'properties[book][]',
    ])
    expect(filtersOf(await parameters('activities'))).toEqual([
      'kind',
      'kind[]',
      'occurredAt[before]',
      'occurredAt[strictly_before]',
      'occurredAt[after]',
      'occurredAt[strictly_after]',
    ])
    // A custom collection's declared filters and order too (docs/custom-collections.md).
    expect(filtersOf(await parameters('genres'))).toEqual([
      'name',
      'name[]',
      'books[between]',
      'books[gt]',
      'books[gte]',
      'books[lt]',
      'books[lte]',
      'order[books]',
      'order[name]',
      'order[id]',
    ])
    expect(filtersOf(await parameters('reviews'))).toEqual(REVIEW_VARIABLES)
    expect(await parameters('reviews')).toContain('page')
  })
})
