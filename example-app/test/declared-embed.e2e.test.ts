/**
 * Relations embedded by declaration (docs/member-shape.md, "Declared embeds") on
 * test/fixtures/embeds: each loan declares its book embedded with its title and ISBN on every
 * operation another line does not name (`@property(embed: [title, isbn])`), so those loans show
 * it without a request parameter, on pages, partial pages, unpaged streams read in batches and
 * items, byte for byte alike on both engines; its "recent" operation and the sub-collection of a
 * book's loans declare the title alone (`operations: [recent, Book.loans]`). A request's
 * property filter combines with them; the access rules of books hold through them: a book outside
 * the caller's scope of books stays its IRI, a field books hide from the caller is left out of
 * the embedded item, a guard refusing books embeds nothing. Each book declares its loans embedded
 * on its collection and items, capped at three (`@property(embed: [returnedAt, borrower],
 * first: 3, operations: [collection, item, latest])`): the first page of its sub-collection, with a
 * partial view when it has more, the caller's scope of loans applied (only the loans the caller
 * may see are read), a field loans hide left out, a guard refusing loans its IRI; its "catalog"
 * operation shows the sub-collection's IRI, and depends on no rule of loans. Expected values are
 * read back from the database, never from the API.
 */
import { parseHydraDocumentation } from '@api-platform/api-doc-parser'
import { shareAdapter } from '@prisma-hydra/runtime'
import { hc } from 'hono/client'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type {
  BookMember,
  HydraAccess,
  HydraMembers,
  LoanMember,
} from '#fixtures/embeds/hydra/index.js'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { type LibraryEnv, tokenFor } from '../src/auth.js'
import { declaredLoans, EMBEDS_SCHEMA, embedsApp } from './support/embeds-app.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'

const SECRET = 'declared-embed test secret'

/**
 * Loans as the example's rules give them: a reader sees the loans they borrowed, a librarian every
 * loan, and a caller without a token none (readers do not see when a loan was returned). Books:
 * readers see one (that of Reader 1's first loan, read from the database), without its ISBN;
 * "barred" (a librarian) may read no book at all.
 */
let seenBook = 0
const access = {
  Loan: {
    guard: (c) => (c.get('jwtPayload') ? 'allow' : 'unauthenticated'),
    scope: (c) => {
      const claims = c.get('jwtPayload')
      return claims?.role === 'librarian' ? undefined : { borrower: claims?.sub ?? '' }
    },
    hidden: (c) => (c.get('jwtPayload')?.role === 'reader' ? ['returnedAt' as const] : []),
  },
  Book: {
    guard: (c) => (c.get('jwtPayload')?.sub === 'barred' ? 'forbidden' : 'allow'),
    scope: (c) => (c.get('jwtPayload')?.role === 'reader' ? { id: { in: [seenBook] } } : undefined),
    hidden: (c) => (c.get('jwtPayload')?.role === 'reader' ? ['isbn' as const] : []),
  },
} satisfies HydraAccess<LibraryEnv>

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let twin: string
/** The routes with rules for books alone: loans have none of their own. */
let booksOnly: string
/** The routes with rules for loans alone: books have none of their own. */
let loansOnly: string
/** The routes without rules. */
let open: string
const closers: Array<() => Promise<void>> = []
const tokens = new Map<string, string>()
let books: Map<number, { title: string; isbn: string }>

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await seedLibrary(prisma)
  const options = { prisma, batchSize: 7, access }
  const own = await startServer(embedsApp(SECRET, options).fetch)
  const compiled = await startServer(
    embedsApp(SECRET, { ...options, engine: 'compiled', adapter }).fetch
  )
  ;({ origin } = own)
  twin = compiled.origin
  const ruled = await startServer(
    embedsApp(SECRET, { prisma, access: { Book: access.Book } }).fetch
  )
  booksOnly = ruled.origin
  const none = await startServer(embedsApp(SECRET, { prisma }).fetch)
  open = none.origin
  // Loans' guard and scope alone: a hidden rule of loans might hide their `book`, and with it
  // every book's link to its loans (docs/security.md), so every book would depend on the caller.
  const { guard, scope } = access.Loan
  const lending = await startServer(
    embedsApp(SECRET, { prisma, access: { Loan: { guard, scope } } }).fetch
  )
  loansOnly = lending.origin
  closers.push(own.close, compiled.close, ruled.close, none.close, lending.close)
  tokens.set('librarian', await tokenFor({ sub: 'Ada', role: 'librarian' }, SECRET))
  tokens.set('barred', await tokenFor({ sub: 'barred', role: 'librarian' }, SECRET))
  tokens.set('reader', await tokenFor({ sub: 'Reader 1', role: 'reader' }, SECRET))
  const first = await prisma.loan.findFirstOrThrow({
    where: { borrower: 'Reader 1' },
    orderBy: { id: 'asc' },
  })
  seenBook = first.bookId
  books = new Map(
    (await prisma.book.findMany()).map((book) => [book.id, { title: book.title, isbn: book.isbn }])
  )
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

type Body = Record<string, unknown>

async function read(
  path: string,
  caller = 'librarian',
  server = origin
): Promise<{ status: number; body: Body; text: string; headers: Headers }> {
  const token = tokens.get(caller)
  // A caller without a token ("anonymous") sends no Authorization header.
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {}
  const response = await fetch(`${server}${path}`, { headers })
  const text = await response.text()
  return {
    status: response.status,
    body: JSON.parse(text) as Body,
    text,
    headers: response.headers,
  }
}

const members = (body: Body) => (body['hydra:member'] ?? body.member) as Body[]

/** The loans of the database, in id order, with their book's id. */
const loansOf = (where: { bookId?: number; borrower?: string } = {}) =>
  prisma.loan.findMany({ where, orderBy: { id: 'asc' }, select: { id: true, bookId: true } })

/** The embedded book as the declaration writes it, its fields read from the database. */
function embedded(bookId: number, fields: readonly ('title' | 'isbn')[] = ['title', 'isbn']) {
  const book = books.get(bookId)
  const item: Body = { '@id': `/books/${bookId}`, '@type': 'Book' }
  for (const field of fields) item[field] = book?.[field]
  return item
}

describe('a relation embedded by declaration', () => {
  it('shows the book embedded in every loan of a page, in place of its IRI', async () => {
    const { status, body } = await read('/loans?itemsPerPage=30')
    expect(status).toBe(200)
    const page = members(body)
    const loans = (await loansOf()).slice(0, 30)
    expect(page.map((loan) => loan['@id'])).toStrictEqual(loans.map((loan) => `/loans/${loan.id}`))
    for (const [index, loan] of page.entries()) {
      expect(loan.book, String(loan['@id'])).toStrictEqual(embedded(loans[index]?.bookId ?? 0))
      expect(Object.keys(loan)).toStrictEqual([
        '@id',
        '@type',
        'id',
        'borrower',
        'loanedAt',
        'returnedAt',
        'book',
      ])
    }
  })

  it('embeds in an unpaged stream read in batches, and in partial pages', async () => {
    const stream = await read('/loans?pagination=false')
    const loans = await loansOf()
    expect(members(stream.body).map((loan) => loan.book)).toStrictEqual(
      loans.map((loan) => embedded(loan.bookId))
    )
    const partial = await read('/loans?partial=true&page=2&itemsPerPage=5')
    expect(members(partial.body).map((loan) => loan.book)).toStrictEqual(
      loans.slice(5, 10).map((loan) => embedded(loan.bookId))
    )
  })

  it("embeds in a book's sub-collection of loans (as it declares) and in an item", async () => {
    const [first] = await loansOf()
    const bookId = first?.bookId ?? 0
    const sub = await read(`/books/${bookId}/loans`)
    expect(sub.status).toBe(200)
    const own = await loansOf({ bookId })
    expect(members(sub.body).length).toBe(own.length)
    expect(members(sub.body).map((loan) => loan.book)).toStrictEqual(
      own.map(() => embedded(bookId, ['title']))
    )
    const item = await read(`/loans/${first?.id}`)
    expect(item.status).toBe(200)
    const loan = item.body as LoanMember
    expect(loan.book).toStrictEqual(embedded(bookId))
    // The member type says so: the embedded book, or its IRI where the caller may not see it.
    const title: string = typeof loan.book === 'object' ? loan.book.title : loan.book
    expect(title).toBe(books.get(bookId)?.title)
    // @ts-expect-error: an IRI has no title, so the book is narrowed first
    expect(loan.book.isbn).toBe(books.get(bookId)?.isbn)
    expect(Object.keys(item.body)[0]).toBe('@context')
  })

  it("combines with a request's property filter", async () => {
    const loans = (await loansOf()).slice(0, 30)
    const without = await read('/loans?properties[]=borrower')
    expect(members(without.body).every((loan) => !('book' in loan))).toBe(true)
    const named = await read('/loans?itemsPerPage=30&properties[]=borrower&properties[]=book')
    expect(members(named.body).map((loan) => loan.book)).toStrictEqual(
      loans.map((loan) => embedded(loan.bookId))
    )
    const asked = await read('/loans?itemsPerPage=30&properties[book][]=title')
    expect(members(asked.body)).toStrictEqual(
      loans.map((loan) => ({
        '@id': `/loans/${loan.id}`,
        '@type': 'Loan',
        book: embedded(loan.bookId, ['title']),
      }))
    )
  })

  it('answers byte for byte alike on both engines, for every caller', async () => {
    const [first] = await loansOf()
    for (const caller of ['librarian', 'reader', 'barred'])
      for (const path of [
        '/loans?itemsPerPage=30',
        '/loans?pagination=false',
        '/loans?partial=true&page=2',
        '/loans?exists[returnedAt]=false&properties[]=book&properties[]=borrower',
        '/loans?properties[book][]=title',
        `/books/${first?.bookId}/loans`,
        `/loans/${first?.id}`,
      ]) {
        const [own, compiled] = await Promise.all(
          [origin, twin].map(async (server) => {
            const { status, text } = await read(path, caller, server)
            return `${status} ${text}`
          })
        )
        expect(compiled, `${caller} ${path}`).toBe(own)
      }
  })
})

describe('access rules through a declared embed', () => {
  it("embeds only the books in the caller's scope, without the fields it may not see", async () => {
    const mine = await loansOf({ borrower: 'Reader 1' })
    for (const path of ['/loans?pagination=false', '/loans?itemsPerPage=30']) {
      const { status, body, headers } = await read(path, 'reader')
      expect(status).toBe(200)
      expect(headers.get('cache-control')).toContain('private')
      const page = members(body)
      expect(page.length).toBe(mine.length)
      const seen = mine.filter((loan) => loan.bookId === seenBook)
      expect(seen.length, 'loans of books seen and of others').toBeGreaterThan(0)
      expect(seen.length).toBeLessThan(mine.length)
      expect(page.map((loan) => loan.book)).toStrictEqual(
        mine.map((loan) =>
          loan.bookId === seenBook ? embedded(loan.bookId, ['title']) : `/books/${loan.bookId}`
        )
      )
    }
    for (const loan of mine) {
      const item = await read(`/loans/${loan.id}`, 'reader')
      expect(item.body.book).toStrictEqual(
        loan.bookId === seenBook ? embedded(loan.bookId, ['title']) : `/books/${loan.bookId}`
      )
    }
  })

  it("varies by caller where only the related model's rules bear on the answer", async () => {
    for (const path of ['/loans', '/loans/1', '/books/1/loans']) {
      const seen = await fetch(`${booksOnly}${path}`, {
        headers: { Authorization: `Bearer ${tokens.get('reader')}` },
      })
      expect(seen.status, path).toBe(200)
      expect(seen.headers.get('cache-control'), path).toContain('private')
      expect(seen.headers.get('vary'), path).toContain('Authorization')
    }
    // Without rules for books, nothing bears on a loan: its answers are everyone's.
    const response = await fetch(`${open}/loans/1`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control') ?? '').not.toContain('private')
    expect(response.headers.get('vary') ?? '').not.toContain('Authorization')
  })

  it('types the embedded fields a rule may hide as optional, and a reader gets none', async () => {
    const client = hc<ReturnType<typeof embedsApp<typeof access>>>(origin, {
      headers: { Authorization: `Bearer ${tokens.get('reader')}` },
    })
    // A book's embedded loans: Loan's rule may hide when each was returned.
    const response = await client.books[':id'].$get({ param: { id: String(seenBook) } })
    if (!response.ok) throw new Error(`GET /books/${seenBook}: ${response.status}`)
    const { loans } = await response.json()
    if (typeof loans !== 'object') throw new Error('the loans are not embedded')
    const [loan] = loans['hydra:member']
    if (!loan) throw new Error('no loan embedded')
    expectTypeOf(loan.returnedAt).toEqualTypeOf<string | null | undefined>()
    // @ts-expect-error: a reader may not receive when a loan was returned, the type says so
    const returned: string | null = loan.returnedAt
    expect(returned).toBeUndefined()
    expect(Object.keys(loan)).toEqual(['@id', '@type', 'borrower'])
    // A loan's embedded book: Book's rule may hide its ISBN.
    const [mine] = await loansOf({ borrower: 'Reader 1', bookId: seenBook })
    if (!mine) throw new Error("no loan of Reader 1's book")
    const item = await client.loans[':id'].$get({ param: { id: String(mine.id) } })
    if (!item.ok) throw new Error(`GET /loans/${mine.id}: ${item.status}`)
    const { book } = await item.json()
    if (typeof book !== 'object') throw new Error('the book is not embedded')
    // Of the shapes an embedded book takes (each operation declares its own), those with an ISBN.
    type WithIsbn<B> = B extends object ? ('isbn' extends keyof B ? B : never) : never
    expectTypeOf<WithIsbn<typeof book>['isbn']>().toEqualTypeOf<string | undefined>()
    expect(Object.keys(book)).toEqual(['@id', '@type', 'title'])
    // The member types of the app's rules say the same.
    type Book = HydraMembers<typeof access>['Book']
    type EmbeddedLoan = Extract<Book['loans'], object>['hydra:member'][number]
    expectTypeOf<EmbeddedLoan['returnedAt']>().toEqualTypeOf<string | null | undefined>()
  })

  it('embeds nothing of books for a caller their guard refuses', async () => {
    const loans = (await loansOf()).slice(0, 30)
    const { status, body } = await read('/loans?itemsPerPage=30', 'barred')
    expect(status).toBe(200)
    expect(members(body).map((loan) => loan.book)).toStrictEqual(
      loans.map((loan) => `/books/${loan.bookId}`)
    )
    const item = await read(`/loans/${loans[0]?.id}`, 'barred')
    expect(item.body.book).toBe(`/books/${loans[0]?.bookId}`)
    expect((await read('/books/1', 'barred')).status).toBe(403)
  })
})

describe('a declared embed as clients discover it', () => {
  it('is described in the OpenAPI document and the Hydra documentation', async () => {
    const openapi = (await read('/openapi.json')).body as {
      components: { schemas: Record<string, { properties: Record<string, Body> }> }
    }
    type Shape = { description: string; properties: Record<string, unknown> }
    const shapes = (schema: string) =>
      (openapi.components.schemas[schema]?.properties.book as { anyOf: Body[] } | undefined)
        ?.anyOf ?? []
    // The item's schema: its IRI, a request's selection, the item's own declaration.
    const item = shapes('Loan.jsonld')
    expect(item).toHaveLength(3)
    const shape = item[2] as Shape
    expect(shape.description).toContain('embedded with the fields the resource declares')
    expect(shape.description).not.toContain('Embedded so by')
    expect(Object.keys(shape.properties)).toStrictEqual(['@id', '@type', 'title', 'isbn'])
    // The members' schema, which every collection operation answers with: each one's shape.
    const member = shapes('Loan').slice(2) as Shape[]
    expect(member.map((choice) => Object.keys(choice.properties))).toStrictEqual([
      ['@id', '@type', 'title', 'isbn'],
      ['@id', '@type', 'title'],
    ])
    // The line without `operations` is every other operation's: its shape says no names.
    expect(member.map((choice) => choice.description.split('. ').at(-1))).toStrictEqual([
      'The related Book, embedded with the fields the resource declares (a field hidden from the caller left out), or its IRI when the caller may not see it.',
      'Embedded so by recent, Book.loans only.',
    ])
    const docs = (await read('/docs.jsonld')).text
    expect(docs).toContain(
      'Embedded by operation (collection, an extra operation, item, a sub-collection as Parent.link): on recent, Book.loans, the related Book with its @id, @type and title (a field hidden from the caller left out); its IRI when the caller may not see it; on every other operation, the related Book with its @id, @type and title, isbn (a field hidden from the caller left out); its IRI when the caller may not see it.'
    )
    expect(docs).toContain("Every other operation shows the sub-collection's IRI.")
  })

  it("is read by API Platform's api-doc-parser as the documentation describes it", async () => {
    const { api } = await parseHydraDocumentation(open)
    const field = (resource: string, name: string) =>
      api.resources
        ?.find((candidate) => candidate.name === resource)
        ?.fields?.find((candidate) => candidate.name === name)
    // Books' loans: embedded by some operations, the sub-collection's IRI on "catalog": a
    // hydra:Link to a collection, which the parser takes as neither.
    const loans = field('books', 'loans')
    expect(loans?.reference).toBeNull()
    expect(loans?.embedded).toBeNull()
    // Loans' book: a line without `operations` embeds it on every operation another does not
    // name, so it stays embedded (declared-embed-admin.e2e.test.ts reads it).
    const book = field('loans', 'book')
    expect(book?.embedded).toMatchObject({ name: 'books' })
    expect(book?.reference).toBeNull()
  })
})

/**
 * A book's loans as its declared embed writes them (declaredLoans), of `borrower` when given, read
 * from the database.
 */
async function embeddedLoans(bookId: number, borrower?: string, hidden = false): Promise<Body> {
  const loans = await prisma.loan.findMany({
    where: { bookId, ...(borrower ? { borrower } : {}) },
    orderBy: { id: 'asc' },
    select: { id: true, borrower: true, returnedAt: true },
  })
  return declaredLoans(bookId, loans, hidden)
}

describe('a to-many relation embedded by declaration (first: 3)', () => {
  it('shows the first three loans of each book on a page, a partial view when it has more', async () => {
    const { status, body } = await read('/books')
    expect(status).toBe(200)
    const page = members(body)
    expect(page.map((book) => book['@id'])).toStrictEqual(
      Array.from({ length: 10 }, (_, index) => `/books/${index + 1}`)
    )
    for (const book of page) {
      const id = Number(String(book['@id']).split('/').pop())
      expect(book.loans, String(book['@id'])).toStrictEqual(await embeddedLoans(id))
    }
    // Books with more loans than shown, with as many, and with none.
    const [first, none, three] = [page[0], page[8], page[9]].map((book) => book?.loans as Body)
    expect(first).toHaveProperty(['hydra:view'])
    expect(three).not.toHaveProperty(['hydra:view'])
    expect(three?.['hydra:member']).toHaveLength(3)
    expect(none).toStrictEqual({
      '@id': '/books/9/loans',
      '@type': 'hydra:Collection',
      'hydra:member': [],
    })
  })

  it('embeds them in an unpaged stream read in batches and in an item', async () => {
    const stream = await read('/books?pagination=false')
    expect(stream.status).toBe(200)
    const expected = await Promise.all(
      Array.from({ length: 10 }, (_, index) => embeddedLoans(index + 1))
    )
    expect(members(stream.body).map((book) => book.loans)).toStrictEqual(expected)
    for (const id of [1, 9, 10]) {
      const item = await read(`/books/${id}`)
      expect(item.status).toBe(200)
      expect(item.body.loans).toStrictEqual(await embeddedLoans(id))
    }
    // The member type says so: the embedded collection, or its IRI.
    const book = (await read('/books/1')).body as BookMember
    const shown = typeof book.loans === 'string' ? [] : book.loans['hydra:member']
    expect(shown.map((loan) => loan.borrower)).toHaveLength(3)
  })

  it("reads only the loans in the caller's scope, without the fields it may not see", async () => {
    // A reader sees their own loans only, and not when they were returned.
    const { status, body } = await read('/books?pagination=false', 'reader')
    expect(status).toBe(200)
    expect(members(body).map((book) => book.loans)).toStrictEqual([
      await embeddedLoans(seenBook, 'Reader 1', true),
    ])
    const item = await read(`/books/${seenBook}`, 'reader')
    expect(item.body.loans).toStrictEqual(await embeddedLoans(seenBook, 'Reader 1', true))
    // The book's first loans are not all Reader 1's: the others' are not read at all.
    const all = await embeddedLoans(seenBook, undefined, true)
    expect(all).toHaveProperty(['hydra:view'])
    expect(item.body.loans).not.toStrictEqual(all)
    expect(item.body.loans).not.toHaveProperty(['hydra:view'])
  })

  it('keeps the IRI for a caller whose guard of loans refuses', async () => {
    const { status, body } = await read('/books', 'anonymous')
    expect(status).toBe(200)
    expect(members(body).map((book) => book.loans)).toStrictEqual(
      Array.from({ length: 10 }, (_, index) => `/books/${index + 1}/loans`)
    )
    expect((await read('/books/1', 'anonymous')).body.loans).toBe('/books/1/loans')
    expect((await read('/loans', 'anonymous')).status).toBe(401)
  })

  it('answers byte for byte alike on both engines, for every caller', async () => {
    for (const caller of ['librarian', 'reader', 'barred', 'anonymous'])
      for (const path of ['/books', '/books?pagination=false', '/books/1', '/books/9']) {
        const [own, compiled] = await Promise.all(
          [origin, twin].map(async (server) => {
            const { status, text } = await read(path, caller, server)
            return `${status} ${text}`
          })
        )
        expect(compiled, `${caller} ${path}`).toBe(own)
      }
  })

  it('is described in the OpenAPI document and the Hydra documentation', async () => {
    const openapi = (await read('/openapi.json')).body as {
      components: { schemas: Record<string, { properties: Record<string, Body> }> }
    }
    for (const name of ['Book', 'Book.jsonld']) {
      const loans = openapi.components.schemas[name]?.properties.loans as { anyOf: Body[] }
      expect(loans?.anyOf, name).toHaveLength(2)
      const shape = loans.anyOf[1] as {
        description: string
        properties: Record<string, { maxItems?: number }>
      }
      expect(shape.description).toContain('The first 3 related Loan items')
      expect(Object.keys(shape.properties)).toStrictEqual([
        '@id',
        '@type',
        'hydra:member',
        'hydra:view',
      ])
      expect(shape.properties['hydra:member']?.maxItems).toBe(3)
    }
    const docs = (await read('/docs.jsonld')).text
    expect(docs).toContain('a hydra:Collection holding at most 3 related Loan items')
  })
})

/** The loans of the database as an operation ordered by `loanedAt` descending lists them. */
const recentLoans = (where: { borrower?: string } = {}) =>
  prisma.loan.findMany({
    where,
    orderBy: [{ loanedAt: 'desc' }, { id: 'asc' }],
    select: { id: true, bookId: true },
  })

describe('declarations limited to operations', () => {
  it('embeds what the operation declares: the title alone on "recent"', async () => {
    const loans = (await recentLoans()).slice(0, 30)
    const { status, body } = await read('/loans/recent?itemsPerPage=30')
    expect(status).toBe(200)
    expect(members(body).map((loan) => loan['@id'])).toStrictEqual(
      loans.map((loan) => `/loans/${loan.id}`)
    )
    expect(members(body).map((loan) => loan.book)).toStrictEqual(
      loans.map((loan) => embedded(loan.bookId, ['title']))
    )
    // The same loans' items embed the title and the ISBN, as they declare.
    const item = await read(`/loans/${loans[0]?.id}`)
    expect(item.body.book).toStrictEqual(embedded(loans[0]?.bookId ?? 0))
    // The member type, which every route shares, is any declared shape: the ISBN may be absent.
    const [first] = members(body) as LoanMember[]
    const book = first?.book ?? ''
    // @ts-expect-error: "recent" embeds the title alone, so the ISBN is read once narrowed
    expect(typeof book === 'object' ? book.isbn : 'its IRI').toBeUndefined()
    expect(typeof book === 'object' ? book.title : book).toBe(
      books.get(loans[0]?.bookId ?? 0)?.title
    )
    const stream = await read('/loans/recent?pagination=false')
    expect(members(stream.body).map((loan) => loan.book)).toStrictEqual(
      (await recentLoans()).map((loan) => embedded(loan.bookId, ['title']))
    )
  })

  it('embeds as the line without operations says on an operation no other line names', async () => {
    const loans = (await loansOf()).slice(0, 30)
    const declared = (bookId: number) => embedded(bookId, ['title', 'isbn'])
    const { status, body } = await read('/loans/open?itemsPerPage=30')
    expect(status).toBe(200)
    expect(members(body).map((loan) => loan.book)).toStrictEqual(
      loans.map((loan) => declared(loan.bookId))
    )
    const stream = await read('/loans/open?pagination=false')
    expect(members(stream.body).map((loan) => loan.book)).toStrictEqual(
      (await loansOf()).map((loan) => declared(loan.bookId))
    )
    const partial = await read('/loans/open?partial=true&page=2&itemsPerPage=5')
    expect(members(partial.body).map((loan) => loan.book)).toStrictEqual(
      (await loansOf()).slice(5, 10).map((loan) => declared(loan.bookId))
    )
    // Naming the relation embeds it as declared; naming its fields embeds those, on request.
    const named = await read('/loans/open?itemsPerPage=30&properties[]=book')
    expect(members(named.body).map((loan) => loan.book)).toStrictEqual(
      loans.map((loan) => declared(loan.bookId))
    )
    const asked = await read('/loans/open?itemsPerPage=30&properties[book][]=title')
    expect(members(asked.body).map((loan) => loan.book)).toStrictEqual(
      loans.map((loan) => embedded(loan.bookId, ['title']))
    )
  })

  it('shows a to-many relation as its sub-collection on an operation it does not name', async () => {
    const { status, body } = await read('/books/catalog')
    expect(status).toBe(200)
    expect(members(body).map((book) => book.loans)).toStrictEqual(
      Array.from({ length: 10 }, (_, index) => `/books/${index + 1}/loans`)
    )
    const stream = await read('/books/catalog?pagination=false')
    expect(members(stream.body).map((book) => book.loans)).toStrictEqual(
      Array.from({ length: 10 }, (_, index) => `/books/${index + 1}/loans`)
    )
  })

  it('holds the rules of books on the operations that embed them, and only there', async () => {
    // A reader: the books outside its scope stay IRIs, on "recent" as on the collection.
    const mine = await recentLoans({ borrower: 'Reader 1' })
    const recent = await read('/loans/recent?pagination=false', 'reader')
    expect(recent.status).toBe(200)
    expect(recent.headers.get('cache-control')).toContain('private')
    expect(members(recent.body).map((loan) => loan.book)).toStrictEqual(
      mine.map((loan) =>
        loan.bookId === seenBook ? embedded(loan.bookId, ['title']) : `/books/${loan.bookId}`
      )
    )
    // A caller the guard of books refuses: nothing embedded.
    const barred = await read('/loans/recent?itemsPerPage=30', 'barred')
    expect(members(barred.body).map((loan) => loan.book)).toStrictEqual(
      (await recentLoans()).slice(0, 30).map((loan) => `/books/${loan.bookId}`)
    )
    // Rules for loans alone: the books that embed their loans answer each caller its own, the
    // catalog, which does not, everyone alike.
    const headers = { Authorization: `Bearer ${tokens.get('reader')}` }
    const books = await fetch(`${loansOnly}/books`, { headers })
    expect(books.status).toBe(200)
    expect(books.headers.get('cache-control')).toContain('private')
    expect(books.headers.get('vary')).toContain('Authorization')
    const catalog = await fetch(`${loansOnly}/books/catalog`, { headers })
    expect(catalog.status).toBe(200)
    expect(catalog.headers.get('cache-control') ?? '').not.toContain('private')
    expect(catalog.headers.get('vary') ?? '').not.toContain('Authorization')
    // With a hidden rule of loans, the catalog's link to a book's loans may be hidden: it varies.
    const hiding = await fetch(`${origin}/books/catalog`, { headers })
    expect(hiding.headers.get('cache-control')).toContain('private')
    // A reader's books embed its own loans alone; the catalog is the same for every caller.
    expect(await books.text()).not.toBe((await read('/books', 'librarian', loansOnly)).text)
    expect(await catalog.text()).toBe((await read('/books/catalog', 'librarian', loansOnly)).text)
  })

  it('gives each operation its own representation and ETag', async () => {
    const books = await fetch(`${open}/books`)
    const tag = books.headers.get('etag') ?? ''
    expect(tag).not.toBe('')
    const catalog = await fetch(`${open}/books/catalog`, { headers: { 'If-None-Match': tag } })
    expect(catalog.status).toBe(200)
    expect(catalog.headers.get('etag')).not.toBe(tag)
    const again = await fetch(`${open}/books/catalog`, {
      headers: { 'If-None-Match': catalog.headers.get('etag') ?? '' },
    })
    expect(again.status).toBe(304)
  })

  it('answers byte for byte alike on both engines, for every caller', async () => {
    for (const caller of ['librarian', 'reader', 'barred', 'anonymous'])
      for (const path of [
        '/loans/recent?itemsPerPage=30',
        '/loans/recent?pagination=false',
        '/loans/recent?properties[book][]=title&properties[]=borrower',
        '/loans/open',
        '/loans/open?properties[book][]=title',
        '/books/catalog',
        '/books/catalog?pagination=false',
        '/books/2/loans',
      ]) {
        const [own, compiled] = await Promise.all(
          [origin, twin].map(async (server) => {
            const { status, text } = await read(path, caller, server)
            return `${status} ${text}`
          })
        )
        expect(compiled, `${caller} ${path}`).toBe(own)
      }
  })
})
