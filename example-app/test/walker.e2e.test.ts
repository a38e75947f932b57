/**
 * The page walker of `@prisma-hydra/runtime/client` (docs/clients.md) over the example app, over
 * real HTTP: every collection in every paging mode (full, partial without the `hydra:` prefix,
 * cursor, unpaged, sub-collections, a custom data provider, under a caller's scope), with a filter
 * and with `properties[]`, walked by the links the server wrote to the end and back, each member
 * once, against the rows read from the database with Prisma. Its types: the generated member
 * types, narrowed to what `properties[]` selects (checked by tsc, under `strict`).
 */

import { HydraError, hydraErrorHandler } from '@prisma-hydra/runtime'
import {
  HydraProblemError,
  type HydraWalker,
  hcWalker,
  type SelectedEmbed,
} from '@prisma-hydra/runtime/client'
import { Hono } from 'hono'
import { hc } from 'hono/client'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type {
  ActivityMember,
  BookMember,
  BookShapedMember,
  LoanMember,
  ReviewMember,
} from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { tokenFor } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

const SECRET = 'walker test secret'

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let close: () => Promise<void>
let librarian: string
let reader: string

const appOf = (prisma: PrismaClient) => createApp(prisma, { auth: { secret: SECRET } })
const clientOf = (token?: string) =>
  hc<ReturnType<typeof appOf>>(origin, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
/** What the walker sends with the links it follows: what the client sends. */
const followWith = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } })

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  librarian = await tokenFor({ sub: 'Librarian', role: 'librarian' }, SECRET)
  reader = await tokenFor({ sub: 'Reader 3', role: 'reader' }, SECRET)
  ;({ origin, close } = await startServer(appOf(prisma).fetch))
}, 120_000)

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

interface Walked {
  /** The members' `@id`s, forward. */
  ids: string[]
  /** The pages read forward. */
  pages: number
}

/**
 * Walks `walker` forward to its end, then back by `previous` links from the last page (and from
 * the first page's `last` link, where the view has one): each way the same members, each once.
 */
async function walkBothWays<M extends { '@id': string }>(walker: HydraWalker<M>): Promise<Walked> {
  const ids: string[] = []
  let last: string | undefined
  let jump: string | undefined
  let pages = 0
  for await (const page of walker.pages()) {
    pages += 1
    if (pages === 1) jump = page.links.last
    for (const member of page.members) ids.push(member['@id'])
    last = page.url
  }
  expect(new Set(ids).size, 'a member walked twice').toBe(ids.length)
  const back: string[] = []
  for await (const member of walker.members({ from: last, direction: 'previous' }))
    back.push(member['@id'])
  expect(back).toEqual([...ids].reverse())
  if (jump !== undefined) {
    const fromLast: string[] = []
    for await (const member of walker.members({ from: jump, direction: 'previous' }))
      fromLast.push(member['@id'])
    expect(fromLast).toEqual([...ids].reverse())
  }
  return { ids, pages }
}

const iris = (path: string, rows: { id: number }[]) => rows.map((row) => `${path}/${row.id}`)

describe('every collection in every mode, against the database', () => {
  it('full paging: authors, books at a client page size with a filter', async () => {
    const authors = await walkBothWays(hcWalker(clientOf().authors.$get)())
    expect(authors.ids).toEqual(
      iris('/authors', await prisma.author.findMany({ orderBy: { id: 'asc' } }))
    )
    expect(authors.pages).toBe(3)
    const poetry = hcWalker(clientOf().books.$get)({
      query: { genre: 'POETRY', itemsPerPage: 4 },
    })
    const walked = await walkBothWays(poetry)
    const rows = await prisma.book.findMany({ where: { genre: 'POETRY' }, orderBy: { id: 'asc' } })
    expect(walked.ids).toEqual(iris('/books', rows))
    expect(walked.pages).toBe(Math.ceil(rows.length / 4))
    expect((await poetry.page(null)).totalItems).toBe(rows.length)
  })

  it('full paging in a client order and a custom data provider', async () => {
    const ordered = await walkBothWays(
      hcWalker(clientOf().books.$get)({ query: { 'order[price]': 'desc', itemsPerPage: 9 } })
    )
    const books = await prisma.book.findMany({ orderBy: [{ price: 'desc' }, { id: 'asc' }] })
    expect([...ordered.ids].sort()).toEqual(iris('/books', books).sort())
    const prices = new Map(books.map((book) => [`/books/${book.id}`, Number(book.price)]))
    const walkedPrices = ordered.ids.map((id) => prices.get(id) ?? Number.NaN)
    expect(walkedPrices).toEqual([...walkedPrices].sort((a, b) => b - a))
    const recent = await walkBothWays(hcWalker(clientOf().books.recent.$get)())
    expect(recent.ids).toHaveLength(books.length)
    const popular = await walkBothWays(hcWalker(clientOf().books.popular.$get)())
    const borrowed = await prisma.loan.findMany({ distinct: ['bookId'], select: { bookId: true } })
    expect([...popular.ids].sort()).toEqual(
      iris(
        '/books',
        borrowed.map((loan) => ({ id: loan.bookId }))
      ).sort()
    )
  })

  it('partial paging without the prefix: reviews, with a filter through two relations', async () => {
    const reviews = hcWalker(clientOf().reviews.$get)()
    expectTypeOf((await reviews.page(null)).members).toEqualTypeOf<ReviewMember[]>()
    const all = await walkBothWays(reviews)
    expect(all.ids).toEqual(
      iris('/reviews', await prisma.review.findMany({ orderBy: { id: 'asc' } }))
    )
    const filtered = await walkBothWays(
      hcWalker(clientOf().reviews.$get)({ query: { 'book.author.name': 'Lovelace' } })
    )
    const rows = await prisma.review.findMany({
      where: { book: { author: { name: { contains: 'Lovelace' } } } },
      orderBy: { id: 'asc' },
    })
    expect(rows.length).toBeGreaterThan(0)
    expect(filtered.ids).toEqual(iris('/reviews', rows))
  })

  it('cursor paging: the activity feed to its end and back, and a filtered feed', async () => {
    const feed = hcWalker(clientOf().activities.$get)({ query: { itemsPerPage: 30 } })
    expectTypeOf((await feed.page(null)).members).toEqualTypeOf<ActivityMember[]>()
    const walked = await walkBothWays(feed)
    const rows = await prisma.activity.findMany({
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
    })
    expect(walked.ids).toEqual(iris('/activities', rows))
    expect(walked.pages).toBe(Math.ceil(rows.length / 30))
    const [kind] = rows.map((row) => row.kind)
    const ofKind = await walkBothWays(
      hcWalker(clientOf().activities.$get)({ query: { kind: kind ?? '' } })
    )
    expect(ofKind.ids).toEqual(
      iris(
        '/activities',
        rows.filter((row) => row.kind === kind)
      )
    )
  })

  it('unpaged collections: languages, loans with pagination=false', async () => {
    const languages = await walkBothWays(hcWalker(clientOf().languages.$get)())
    expect(languages.pages).toBe(1)
    expect([...languages.ids].sort()).toEqual(
      (await prisma.language.findMany()).map((row) => `/languages/${row.code}`).sort()
    )
    const loans = hcWalker(
      clientOf(librarian).loans.$get,
      followWith(librarian)
    )({
      query: { pagination: false },
    })
    expectTypeOf((await loans.page(null)).members).toEqualTypeOf<LoanMember<'borrower'>[]>()
    const walked = await walkBothWays(loans)
    expect(walked.ids).toEqual(
      iris('/loans', await prisma.loan.findMany({ orderBy: { id: 'asc' } }))
    )
  })

  it("a caller's scope: a reader's own loans, full and partial, by the links with their token", async () => {
    const own = await prisma.loan.findMany({
      where: { borrower: 'Reader 3' },
      orderBy: { id: 'asc' },
    })
    expect(own.length).toBeGreaterThan(2)
    for (const partial of [false, true]) {
      const walked = await walkBothWays(
        hcWalker(
          clientOf(reader).loans.$get,
          followWith(reader)
        )({
          query: { itemsPerPage: 2, partial },
        })
      )
      expect(walked.ids).toEqual(iris('/loans', own))
    }
    // Without the token on the links, the second page is the API's 401, thrown as its problem.
    const tokenless = hcWalker(clientOf(reader).loans.$get)({ query: { itemsPerPage: 2 } })
    const error = await collect(tokenless.members()).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(HydraProblemError)
    expect((error as HydraProblemError).status).toBe(401)
  })

  it('sub-collections: each author’s books, a book’s reviews and loans', async () => {
    for (const author of await prisma.author.findMany({ take: 4 })) {
      const books = hcWalker(clientOf().authors[':id'].books.$get)({
        param: { id: String(author.id) },
        query: { itemsPerPage: 2 },
      })
      expectTypeOf((await books.page(null)).members).toEqualTypeOf<BookMember[]>()
      const rows = await prisma.book.findMany({
        where: { authorId: author.id },
        orderBy: { id: 'asc' },
      })
      expect((await walkBothWays(books)).ids).toEqual(iris('/books', rows))
    }
    const reviewed = await prisma.review.groupBy({ by: ['bookId'], _count: true })
    const busiest = reviewed.sort((a, b) => b._count - a._count)[0]
    const id = String(busiest?.bookId)
    const reviews = await walkBothWays(
      hcWalker(clientOf().books[':id'].reviews.$get)({ param: { id } })
    )
    expect(reviews.ids).toEqual(
      iris(
        '/reviews',
        await prisma.review.findMany({ where: { bookId: Number(id) }, orderBy: { id: 'asc' } })
      )
    )
    const loans = await walkBothWays(
      hcWalker(
        clientOf(librarian).books[':id'].loans.$get,
        followWith(librarian)
      )({
        param: { id },
        query: { itemsPerPage: 1 },
      })
    )
    expect(loans.ids).toEqual(
      iris(
        '/loans',
        await prisma.loan.findMany({ where: { bookId: Number(id) }, orderBy: { id: 'asc' } })
      )
    )
  })
})

/** Every value of an async iterable. */
async function collect<T>(values: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = []
  for await (const value of values) all.push(value)
  return all
}

describe('members narrowed by properties[]', () => {
  it('types and walks the fields selected, and nothing else', async () => {
    const priced = hcWalker(clientOf().books.$get)({
      query: { 'properties[]': ['title', 'price'], itemsPerPage: 50 },
    })
    const books = await collect(priced.members())
    type Priced = (typeof books)[number]
    expectTypeOf<Priced>().toEqualTypeOf<{
      '@id': string
      '@type': 'Book'
      title: string
      price: string
    }>()
    const rows = await prisma.book.findMany({ orderBy: { id: 'asc' } })
    expect(books.map((book) => book.title)).toEqual(rows.map((row) => row.title))
    for (const book of books) expect(Object.keys(book)).toEqual(['@id', '@type', 'title', 'price'])
    const [first] = books
    // @ts-expect-error: the ISBN was not selected; a client reading it reads nothing
    expect(first?.isbn).toBeUndefined()
  })

  it('types an embedded relation as its item with the fields asked', async () => {
    const walker = hcWalker(clientOf().books.$get).shaped<BookShapedMember>()({
      query: { 'properties[]': ['title'], 'properties[author][]': ['name'], itemsPerPage: 40 },
    })
    const books = await collect(walker.members())
    type WithAuthor = (typeof books)[number]
    expectTypeOf<WithAuthor>().toEqualTypeOf<{
      '@id': string
      '@type': 'Book'
      title: string
      // Its IRI where the caller's rules keep the author from the caller (none do here).
      author: string | { '@id': string; '@type': 'Author'; name: string }
    }>()
    const authors = new Map(
      (await prisma.book.findMany({ include: { author: true }, orderBy: { id: 'asc' } })).map(
        (row) => [`/books/${row.id}`, row.author.name]
      )
    )
    expect(books).toHaveLength(authors.size)
    for (const book of books) {
      expect(Object.keys(book)).toEqual(['@id', '@type', 'title', 'author'])
      const { author } = book
      if (typeof author === 'string') throw new Error(`${book['@id']}: its author is not embedded`)
      expect(Object.keys(author)).toEqual(['@id', '@type', 'name'])
      expect(author.name).toBe(authors.get(book['@id']))
      // @ts-expect-error: the author's country was not asked
      expect(author.country).toBeUndefined()
      // @ts-expect-error: the ISBN was not selected
      expect(book.isbn).toBeUndefined()
    }
  })

  it("types an embedded relation's fields unknown without the shaped member", async () => {
    const walker = hcWalker(clientOf().books.$get)({
      query: { 'properties[author][]': ['name', 'country'], itemsPerPage: 1 },
    })
    const [book] = (await walker.page(null)).members
    expectTypeOf(book?.author).toEqualTypeOf<
      SelectedEmbed<'name' | 'country'> | string | undefined
    >()
    expect(Object.keys(book?.author ?? {})).toEqual(['@id', '@type', 'name', 'country'])
  })

  it('keeps the generated member type when nothing is selected', async () => {
    const walker = hcWalker(clientOf().books.$get)({ query: { genre: 'FICTION' } })
    const [book] = (await walker.page(null)).members
    expectTypeOf(book).toEqualTypeOf<BookMember | undefined>()
    expect(Object.keys(book ?? {})).toContain('isbn')
    const shaped = hcWalker(clientOf().books.$get).shaped<BookShapedMember>()()
    const [first] = (await shaped.page(null)).members
    expectTypeOf(first).toEqualTypeOf<BookMember | undefined>()
    expect(typeof first?.author).toBe('string')
  })
})

describe('answers that are no page', () => {
  it("throws the API's problem, typed", async () => {
    const walker = hcWalker(clientOf().books.$get)({ query: { page: 0 } })
    const error = await walker.page(null).catch((thrown: unknown) => thrown)
    if (!(error instanceof HydraProblemError)) throw new Error(`no problem: ${String(error)}`)
    expect(error.status).toBe(400)
    expect(error.problem?.detail).toBe('Page should not be less than 1')
    expectTypeOf(error.problem?.status).toEqualTypeOf<number | undefined>()
  })

  it('stops a walk when its signal aborts', async () => {
    const controller = new AbortController()
    const walker = hcWalker(clientOf().activities.$get)()
    const seen: string[] = []
    const walk = (async () => {
      for await (const page of walker.pages({ signal: controller.signal })) {
        seen.push(page.url)
        if (seen.length === 2) controller.abort(new Error('enough'))
      }
    })()
    await expect(walk).rejects.toThrow('enough')
    expect(seen).toHaveLength(2)
  })

  it('waits as a 503 asks, a bounded number of times, then throws its problem', async () => {
    // An instance in front of the API that is busy for the first `busy` requests of a second
    // page, as the runtime answers a database outage: a 503 problem with Retry-After.
    let busy = 2
    const sent: number[] = []
    const front = new Hono()
      .use(async (c, next) => {
        if (new URL(c.req.url).searchParams.get('page') === '2') {
          sent.push(Date.now())
          if (busy > 0) {
            busy -= 1
            throw new HydraError(503, 'The database is busy.', { headers: { 'Retry-After': '1' } })
          }
        }
        await next()
      })
      .route('/', appOf(prisma))
    front.onError(hydraErrorHandler)
    const server = await startServer(front.fetch)
    try {
      const authors = hc<typeof front>(server.origin).authors.$get
      const patient = await collect(hcWalker(authors)().pages())
      expect(patient).toHaveLength(3)
      expect(sent).toHaveLength(3)
      expect((sent[2] ?? 0) - (sent[0] ?? 0)).toBeGreaterThanOrEqual(1900)
      busy = 3
      sent.length = 0
      const hasty = hcWalker(authors, { retries: 1 })()
      const error = await collect(hasty.pages()).catch((thrown: unknown) => thrown)
      if (!(error instanceof HydraProblemError)) throw new Error(`no problem: ${String(error)}`)
      expect(error.status).toBe(503)
      expect(error.problem?.detail).toBe('The database is busy.')
      expect(sent).toHaveLength(2)
    } finally {
      await server.close()
    }
  }, 30_000)
})
