/**
 * The leak hunter of declared embeds (docs/security.md, "Side channels, and how each is closed"),
 * on test/fixtures/embeds: loans declare their book embedded (to-one) and books their first three
 * loans (to-many, capped), served with rules that read tokens `hono/jwt` verifies. Each identity
 * sees some loans and some books, written as the rules' scopes and, by hand, as predicates over
 * the seeded rows. Its oracle is the same API without scopes or guards (with the identity's hidden
 * fields, so that both answers have the same shape) over databases holding only what the identity
 * may see: the loans it sees beside every book (which their foreign keys need) for the routes of
 * loans, the books it sees and their loans it sees for the routes of books. A loan whose book the
 * identity may not see shows the book's IRI, where the oracle embeds it: that one difference is
 * written into the oracle's answer by hand (its books by the predicate, never by the API), and so
 * is the IRI a guard refusing the related model leaves. Every answer, on both engines, must then
 * be the oracle's byte for byte (cursor pages walked each way), and no item embedded in it may be
 * one the identity does not see or show a field its model hides from it, nor a relation hidden
 * from it be shown. Every request goes through a shared cache (test/support/shared-cache.ts, or Varnish with
 * `HYDRA_TEST_SHARED_CACHE=varnish`) in
 * front of the server, whose answers without `Cache-Control` are shared for five minutes:
 * identities ask the same URLs one after the other, so an answer wrongly shared would reach the
 * next one.
 */

import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { type Context, Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/embeds/hydra/index.js'
import { type Prisma, PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { authenticate, claimsOf, type LibraryEnv, tokenFor } from '../src/auth.js'
import { EMBEDS_SCHEMA } from './support/embeds-app.js'
import { createAdapter, freshDatabase, type TestDatabase } from './support/harness.js'
import { BOOKS, type BookRow, LOANS, type LoanRow, seedLibrary } from './support/library-rows.js'
import { servedThroughSharedCache, sharedFreshness } from './support/shared-cache.js'

const SECRET = 'declared-embed hunter secret'

/** One model's rules for an identity, and what they let it see, as a predicate on the row. */
interface Rules<Row, Where, Field> {
  guard?: 'forbidden'
  scope?: Where
  /**
   * The scope holds no row by its very form (`{ OR: [] }`, `{ NOT: {} }`): the runtime reads it
   * as a guard refusing, and a to-many relation is then left unread, its IRI.
   */
  unread?: true
  sees: (row: Row) => boolean
  hidden?: Field[]
}
interface Identity {
  books: Rules<BookRow, Prisma.BookWhereInput, 'title' | 'isbn' | 'loans'>
  loans: Rules<LoanRow, Prisma.LoanWhereInput, 'borrower' | 'loanedAt' | 'returnedAt' | 'book'>
}

const every = { sees: () => true }
const among =
  (ids: readonly number[]) =>
  ({ id }: { id: number }) =>
    ids.includes(id)
const nothing = () => false

/**
 * The identities: scopes of both models that cut across each other (a loan seen whose book is
 * not, a book seen whose loans are not all), the idioms of "no row" on either side, and guards
 * refusing either model.
 */
const IDENTITIES: Record<string, Identity> = {
  librarian: { books: every, loans: every },
  'reader-1': {
    books: { scope: { id: { in: [1, 2, 9, 10] } }, sees: among([1, 2, 9, 10]), hidden: ['isbn'] },
    loans: {
      scope: { borrower: 'Reader 1' },
      sees: (loan) => loan.borrower === 'Reader 1',
      hidden: ['returnedAt'],
    },
  },
  'reader-2': {
    books: {
      scope: { title: { in: ['Book 3', 'Book 5', 'Book 9'] } },
      sees: (book) => ['Book 3', 'Book 5', 'Book 9'].includes(book.title),
      hidden: ['title'],
    },
    loans: {
      scope: { AND: [{ borrower: 'Reader 2' }, { loanedAt: { gte: new Date('2025-01-10') } }] },
      sees: (loan) =>
        loan.borrower === 'Reader 2' && loan.loanedAt >= new Date('2025-01-10T00:00:00Z'),
    },
  },
  'no-books-in': {
    books: { scope: { id: { in: [] } }, sees: nothing },
    loans: { scope: { borrower: 'Reader 3' }, sees: (loan) => loan.borrower === 'Reader 3' },
  },
  'no-books-and': {
    books: { scope: { AND: [{ OR: [] }] }, sees: nothing },
    loans: { scope: { borrower: 'Reader 2' }, sees: (loan) => loan.borrower === 'Reader 2' },
  },
  'no-loans-or': { books: every, loans: { scope: { OR: [] }, sees: nothing, unread: true } },
  'no-loans-not': {
    books: { scope: { id: { lte: 4 } }, sees: (book) => book.id <= 4 },
    loans: { scope: { NOT: {} }, sees: nothing, unread: true },
  },
  // A scope Prisma finds no row in, though its form does not say so: read, and empty.
  'no-loans-in': {
    books: { scope: { id: { gte: 6 } }, sees: (book) => book.id >= 6 },
    loans: { scope: { id: { in: [] } }, sees: nothing },
  },
  // The relations themselves hidden: neither declaration shows.
  'hidden-links': {
    books: { scope: { id: { lte: 5 } }, sees: (book) => book.id <= 5, hidden: ['loans'] },
    loans: {
      scope: { borrower: 'Reader 2' },
      sees: (loan) => loan.borrower === 'Reader 2',
      hidden: ['book'],
    },
  },
  'barred-books': {
    books: { guard: 'forbidden', sees: nothing },
    loans: { scope: { borrower: 'Reader 3' }, sees: (loan) => loan.borrower === 'Reader 3' },
  },
  'barred-loans': {
    books: { scope: { id: { in: [1, 3, 5, 9] } }, sees: among([1, 3, 5, 9]) },
    loans: { guard: 'forbidden', sees: nothing },
  },
}

const identityOf = (c: Context<LibraryEnv>) => IDENTITIES[claimsOf(c)?.sub ?? '']

/** The rules of the scoped API: each identity's, and a caller without a token reads no loan. */
const access = {
  Book: {
    guard: (c) => identityOf(c)?.books.guard ?? 'allow',
    scope: (c) => identityOf(c)?.books.scope,
    hidden: (c) => identityOf(c)?.books.hidden ?? [],
  },
  Loan: {
    guard: (c) => identityOf(c)?.loans.guard ?? (claimsOf(c) ? 'allow' : 'unauthenticated'),
    scope: (c) => identityOf(c)?.loans.scope,
    hidden: (c) => identityOf(c)?.loans.hidden ?? [],
  },
} satisfies HydraAccess<LibraryEnv>

/** The oracle's rules: the identity's hidden fields alone. */
const hiddenOf = (identity: Identity) =>
  ({
    Book: { hidden: () => identity.books.hidden ?? [] },
    Loan: { hidden: () => identity.loans.hidden ?? [] },
  }) satisfies HydraAccess<LibraryEnv>

const clients: PrismaClient[] = []
const databases: TestDatabase[] = []
/** Oracle databases by the ids they hold: identities that see the same rows share one. */
const oracles = new Map<string, PrismaClient>()
/** The shared cache's origin, in front of the server. */
let origin: string
let close: () => Promise<void>
let kept: () => Promise<string[]>
const tokens = new Map<string, string>()

async function database(books: readonly BookRow[], loans: readonly LoanRow[]) {
  const key = JSON.stringify([books.map((book) => book.id), loans.map((loan) => loan.id)])
  const known = oracles.get(key)
  if (known) return known
  const created = await freshDatabase(EMBEDS_SCHEMA)
  databases.push(created)
  const client = new PrismaClient({ adapter: createAdapter(created.url) })
  clients.push(client)
  await seedLibrary(client, books, loans)
  oracles.set(key, client)
  return client
}

beforeAll(async () => {
  const all = await database(BOOKS, LOANS)
  const app = new Hono()
    .use(sharedFreshness(300))
    .use(authenticate(SECRET))
    .route('/scoped', createHydraApp({ prisma: all, access, batchSize: 7 }))
    .route('/compiled', createHydraApp({ prisma: all, access, batchSize: 7, engine: 'compiled' }))
  for (const [name, identity] of Object.entries(IDENTITIES)) {
    const loans = LOANS.filter(identity.loans.sees)
    const books = BOOKS.filter(identity.books.sees)
    const ofBooks = loans.filter((loan) => books.some((book) => book.id === loan.bookId))
    const rules = hiddenOf(identity)
    const prisma = await database(BOOKS, loans)
    app.route(`/loans-of-${name}`, createHydraApp({ prisma, access: rules, batchSize: 7 }))
    const seen = await database(books, ofBooks)
    app.route(`/books-of-${name}`, createHydraApp({ prisma: seen, access: rules, batchSize: 7 }))
    tokens.set(name, await tokenFor({ sub: name, role: 'reader' }, SECRET))
  }
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  ;({ origin, kept, close } = await servedThroughSharedCache(app.fetch))
}, 240_000)

afterAll(async () => {
  await close?.()
  for (const client of clients) await client.$disconnect()
  for (const created of databases) await created.remove()
})

/** The routes of loans: every paging mode, the property filter, every item and one past them. */
const LOAN_ROUTES = [
  '/loans',
  '/loans?page=2',
  '/loans?page=5',
  '/loans?itemsPerPage=7&page=2',
  '/loans?partial=true&page=2&itemsPerPage=4',
  '/loans?pagination=false',
  '/loans?exists[returnedAt]=false',
  '/loans?properties[]=book&properties[]=borrower',
  '/loans?properties[book][]=title',
  '/loans?properties[]=borrower',
  ...LOANS.map((loan) => `/loans/${loan.id}`),
  '/loans/44',
]

/** The routes of books: pages, streams, items, and each book's sub-collection of loans. */
const BOOK_ROUTES = [
  '/books',
  '/books?page=2',
  '/books?pagination=false',
  '/books?properties[]=loans',
  '/books?pagination=false&properties[]=id&properties[]=loans',
  '/books?properties[]=title',
  '/books/1?properties[]=loans',
  ...[...BOOKS, { id: 11 }].flatMap(({ id }) => [
    `/books/${id}`,
    `/books/${id}/loans`,
    `/books/${id}/loans?pagination=false`,
  ]),
]

type Json = Record<string, unknown>

/** The answer to `path` under `mount`, with the mount written as `/api` in it. */
async function answer(mount: string, path: string, token?: string) {
  const response = await fetch(`${origin}${mount}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  const text = (await response.text()).replaceAll(mount, '/api')
  return { status: response.status, text }
}

const idOf = (iri: unknown) => Number(String(iri).split('/').pop())

/**
 * Visits every object of `value` with the key it is held at: `book` for a loan's embedded book,
 * and the members of a book's `loans` collection as `loans`.
 */
function visit(value: unknown, at: string, seen: (object: Json, at: string) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => visit(item, at, seen))
  if (typeof value !== 'object' || value === null) return value
  const replaced = seen(value as Json, at)
  if (replaced !== value) return replaced
  // A book's collection of loans holds loans; a page's members are held at no key.
  const member = at === 'loans' ? 'loans' : ''
  return Object.fromEntries(
    Object.entries(value as Json).map(([key, item]) => [
      key,
      visit(item, key === 'hydra:member' ? member : key, seen),
    ])
  )
}

/**
 * The oracle's answer as the identity must see it: a book it may not see (or whose guard refuses
 * it) its IRI, a book's loans whose guard refuses it (or whose scope is "no row" by its form)
 * their sub-collection's IRI.
 */
function expected(text: string, identity: Identity): string {
  const book = (object: Json, at: string) =>
    at === 'book' &&
    object['@type'] === 'Book' &&
    (identity.books.guard === 'forbidden' ||
      !identity.books.sees(BOOKS[idOf(object['@id']) - 1] as BookRow))
      ? object['@id']
      : object
  const loans = (object: Json, at: string) =>
    at === 'loans' &&
    (identity.loans.guard === 'forbidden' || identity.loans.unread) &&
    'hydra:member' in object
      ? object['@id']
      : object
  return JSON.stringify(
    visit(JSON.parse(text), '', (object, at) => (at === 'book' ? book : loans)(object, at))
  )
}

/** Every item embedded in `text` the identity may not see, or with a field hidden from it. */
function leaks(text: string, identity: Identity): string[] {
  const found: string[] = []
  visit(JSON.parse(text), '', (object, at) => {
    // A relation hidden from the identity is not shown, embedded or not.
    if (object['@type'] === 'Loan' && identity.loans.hidden?.includes('book') && 'book' in object)
      found.push(`${object['@id']} shows book`)
    if (object['@type'] === 'Book' && identity.books.hidden?.includes('loans') && 'loans' in object)
      found.push(`${object['@id']} shows loans`)
    if (at === 'book' && object['@type'] === 'Book') {
      const row = BOOKS[idOf(object['@id']) - 1]
      if (identity.books.guard || !row || !identity.books.sees(row))
        found.push(`${object['@id']} embedded`)
      for (const field of identity.books.hidden ?? [])
        if (field in object) found.push(`${object['@id']} shows ${field}`)
    }
    if (at === 'loans' && object['@type'] === 'Loan') {
      const row = LOANS[idOf(object['@id']) - 1]
      if (identity.loans.guard || !row || !identity.loans.sees(row))
        found.push(`${object['@id']} embedded`)
      for (const field of identity.loans.hidden ?? [])
        if (field in object) found.push(`${object['@id']} shows ${field}`)
    }
    return object
  })
  return found
}

/**
 * Follows `direction` (`hydra:next` or `hydra:previous`) from `start`, each page answered to
 * `name` as the oracle at `seen` answers it, on both engines, and embedding nothing it may not
 * see: the members counted, and the path of the last page.
 */
async function walk(
  name: string,
  identity: Identity,
  seen: string,
  start: string,
  direction: string
) {
  const token = tokens.get(name)
  let path: string | undefined = start
  let last = start
  let members = 0
  for (let pages = 0; path !== undefined; pages++) {
    expect(pages, `${name} ${start} ${direction}`).toBeLessThan(20)
    const oracle = await answer(seen, path)
    const wanted = expected(oracle.text, identity)
    let body: Json = {}
    for (const mount of ['/scoped', '/compiled']) {
      const scoped = await answer(mount, path, token)
      expect(scoped.status, `${name} ${mount}${path}`).toBe(200)
      body = JSON.parse(scoped.text) as Json
      expect(JSON.stringify(body), `${name} ${mount}${path}`).toBe(wanted)
      expect(leaks(scoped.text, identity), `${name} ${mount}${path}`).toStrictEqual([])
    }
    members += (body['hydra:member'] as Json[]).length
    last = path
    const view = body['hydra:view'] as Record<string, string | undefined> | undefined
    path = view?.[direction]?.replace('/api', '')
  }
  return { members, last }
}

describe('the leak hunter of declared embeds', () => {
  for (const [name, identity] of Object.entries(IDENTITIES)) {
    it(`answers ${name} as an API holding only its rows, on both engines`, async () => {
      const token = tokens.get(name)
      const routes = [
        ...(identity.loans.guard ? [] : LOAN_ROUTES.map((path) => ({ path, of: 'loans' }))),
        ...(identity.books.guard ? [] : BOOK_ROUTES.map((path) => ({ path, of: 'books' }))),
      ].filter(({ path }) => !(identity.loans.guard && path.includes('/loans')))
      let compared = 0
      for (const { path, of } of routes) {
        const oracle = await answer(`/${of}-of-${name}`, path)
        const wanted = expected(oracle.text, identity)
        for (const mount of ['/scoped', '/compiled']) {
          const scoped = await answer(mount, path, token)
          expect(scoped.status, `${name} ${mount}${path}`).toBe(oracle.status)
          expect(JSON.stringify(JSON.parse(scoped.text)), `${name} ${mount}${path}`).toBe(wanted)
          expect(leaks(scoped.text, identity), `${name} ${mount}${path}`).toStrictEqual([])
        }
        compared++
      }
      expect(compared).toBe(routes.length)
    })
  }

  for (const [name, identity] of Object.entries(IDENTITIES)) {
    it(`walks ${name}'s cursor pages each way as the oracle does, on both engines`, async () => {
      const walks = [
        { start: '/loans/feed', of: 'loans', rows: LOANS.filter(identity.loans.sees).length },
        { start: '/books/latest', of: 'books', rows: BOOKS.filter(identity.books.sees).length },
      ].filter(({ of }) => !(of === 'loans' ? identity.loans.guard : identity.books.guard))
      for (const { start, of, rows } of walks) {
        const forward = await walk(name, identity, `/${of}-of-${name}`, start, 'hydra:next')
        expect(forward.members, `${name} ${start}`).toBe(rows)
        // Back from the last page to the first, past every row again.
        const back = await walk(name, identity, `/${of}-of-${name}`, forward.last, 'hydra:previous')
        expect(back.members, `${name} ${start} back`).toBe(rows)
      }
    })
  }

  it('is asked where scopes cut across the relation, each way', () => {
    const bookOf = (loan: LoanRow) => BOOKS[loan.bookId - 1] as BookRow
    // A loan seen whose book is not: the to-one check of the book's scope.
    const toOne = ({ books, loans }: Identity) =>
      LOANS.some((loan) => loans.sees(loan) && !books.sees(bookOf(loan)))
    // A book seen with a loan that is not: the scope in the to-many relation's read.
    const toMany = ({ books, loans }: Identity) =>
      LOANS.some((loan) => !loans.sees(loan) && books.sees(bookOf(loan)))
    const of = (name: string) => IDENTITIES[name] as Identity
    for (const name of ['reader-1', 'reader-2', 'no-books-in', 'no-books-and', 'barred-books'])
      expect(toOne(of(name)), name).toBe(true)
    for (const name of ['reader-1', 'reader-2', 'no-loans-in'])
      expect(toMany(of(name)), name).toBe(true)
  })

  it('refuses the routes of a model whose guard refuses, and embeds nothing of it', async () => {
    for (const mount of ['/scoped', '/compiled']) {
      const books = await answer(mount, '/books/1', tokens.get('barred-books'))
      expect(books.status).toBe(403)
      // A book's loans are read through the book: its guard holds on them too.
      const sub = await answer(mount, '/books/1/loans', tokens.get('barred-books'))
      expect(sub.status).toBe(403)
      const loans = await answer(mount, '/loans/1', tokens.get('barred-loans'))
      expect(loans.status).toBe(403)
      const page = await answer(mount, '/loans?pagination=false', tokens.get('barred-books'))
      const members = (JSON.parse(page.text) as Json)['hydra:member'] as Json[]
      expect(members.length).toBeGreaterThan(0)
      expect(members.every((loan) => typeof loan.book === 'string')).toBe(true)
      const shelf = await answer(mount, '/books?pagination=false', tokens.get('barred-loans'))
      const shown = (JSON.parse(shelf.text) as Json)['hydra:member'] as Json[]
      expect(shown.map((book) => book.loans)).toStrictEqual(
        [1, 3, 5, 9].map((id) => `/api/books/${id}/loans`)
      )
    }
  })
})

describe('the shared cache in front', () => {
  it('kept none of a caller’s own answers', async () => {
    const answers = await kept()
    expect(answers.filter((url) => /^\/(scoped|compiled)\//.test(url))).toEqual([])
  })
})
