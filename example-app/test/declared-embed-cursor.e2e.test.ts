/**
 * Declared embeds on cursor pages (docs/member-shape.md, "Declared embeds"; docs/cursor-paging.md)
 * on test/fixtures/embeds: `/loans/feed` (loans by `loanedAt`, newest first, four a page) shows
 * each loan's book embedded, `/books/latest` (books by id, last first, three a page) each book's
 * first three loans. Each is walked forward through `hydra:next` to its end and back through
 * `hydra:previous` to its start, as a librarian and as a reader whose scopes of books and loans
 * cut across the relation, every page byte for byte alike on both engines. Expected values are
 * read from the database, never from the API.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HydraAccess } from '#fixtures/embeds/hydra/index.js'
import { type Prisma, PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { type LibraryEnv, tokenFor } from '../src/auth.js'
import { declaredLoans, EMBEDS_SCHEMA, embedsOnBothEngines } from './support/embeds-app.js'
import { createAdapter, freshDatabase, type TestDatabase } from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'

const SECRET = 'declared-embed cursor secret'

/** The books a reader sees: loans of theirs are of others too. */
const READER_BOOKS = [1, 2, 9, 10]
const isReader = (c: { get(key: 'jwtPayload'): LibraryEnv['Variables']['jwtPayload'] }) =>
  c.get('jwtPayload')?.role === 'reader'

/**
 * A reader sees their own loans, without when they were returned, and some books, without their
 * ISBN; a librarian sees everything; a caller without a token no loan.
 */
const access = {
  Loan: {
    guard: (c) => (c.get('jwtPayload') ? 'allow' : 'unauthenticated'),
    scope: (c) => (isReader(c) ? { borrower: c.get('jwtPayload')?.sub ?? '' } : undefined),
    hidden: (c) => (isReader(c) ? ['returnedAt' as const] : []),
  },
  Book: {
    scope: (c) => (isReader(c) ? { id: { in: READER_BOOKS } } : undefined),
    hidden: (c) => (isReader(c) ? ['isbn' as const] : []),
  },
} satisfies HydraAccess<LibraryEnv>

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let twin: string
const closers: Array<() => Promise<void>> = []
const tokens = new Map<string, string>()

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await seedLibrary(prisma)
  const servers = await embedsOnBothEngines(SECRET, { prisma, access, adapter })
  ;[origin, twin] = servers.origins
  closers.push(servers.close)
  tokens.set('librarian', await tokenFor({ sub: 'Ada', role: 'librarian' }, SECRET))
  tokens.set('reader', await tokenFor({ sub: 'Reader 1', role: 'reader' }, SECRET))
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

type Body = Record<string, unknown>

/** The answer to `path`, the same on both engines (byte for byte, status included). */
async function read(path: string, caller: string): Promise<Body> {
  const headers = { Authorization: `Bearer ${tokens.get(caller)}` }
  const answerOf = async (server: string) => {
    const response = await fetch(`${server}${path}`, { headers })
    return `${response.status} ${await response.text()}`
  }
  const [own, compiled] = await Promise.all([answerOf(origin), answerOf(twin)])
  expect(compiled, `${caller} ${path}`).toBe(own)
  expect(own.slice(0, 4), `${caller} ${path}`).toBe('200 ')
  return JSON.parse(own.slice(4)) as Body
}

/**
 * The pages of a walk from `start` through `direction`, each page's members in order; at most
 * twenty pages.
 */
async function walk(start: string, direction: 'hydra:next' | 'hydra:previous', caller: string) {
  const pages: Body[][] = []
  let path: string | undefined = start
  let last = start
  while (path !== undefined) {
    expect(pages.length, `${caller} ${start}`).toBeLessThan(20)
    const body = await read(path, caller)
    pages.push(body['hydra:member'] as Body[])
    last = path
    path = (body['hydra:view'] as Record<string, string | undefined>)[direction]
  }
  return { pages, last }
}

/** Walks `start` forward to its end and back: the pages each way, the same ones. */
async function walkBothWays(start: string, caller: string, perPage: number) {
  const forward = await walk(start, 'hydra:next', caller)
  const back = await walk(forward.last, 'hydra:previous', caller)
  expect(back.pages, `${caller} ${start}`).toStrictEqual([...forward.pages].reverse())
  for (const page of forward.pages.slice(0, -1)) expect(page).toHaveLength(perPage)
  expect(forward.pages.length).toBeGreaterThan(1)
  return forward.pages.flat()
}

/** The book embedded in a loan, as the declaration writes it, from the database's row. */
const embeddedBook = (book: { id: number; title: string; isbn: string }, reader: boolean) => ({
  '@id': `/books/${book.id}`,
  '@type': 'Book',
  title: book.title,
  ...(reader ? {} : { isbn: book.isbn }),
})

describe('a to-one declared embed on cursor pages', () => {
  for (const caller of ['librarian', 'reader']) {
    it(`embeds each loan's book walking /loans/feed each way, as a ${caller}`, async () => {
      const reader = caller === 'reader'
      const where: Prisma.LoanWhereInput = reader ? { borrower: 'Reader 1' } : {}
      const loans = await prisma.loan.findMany({
        where,
        orderBy: [{ loanedAt: 'desc' }, { id: 'desc' }],
        include: { book: true },
      })
      const members = await walkBothWays('/loans/feed', caller, 4)
      expect(members.map((loan) => loan['@id'])).toStrictEqual(
        loans.map((loan) => `/loans/${loan.id}`)
      )
      expect(members.map((loan) => loan.book)).toStrictEqual(
        loans.map((loan) =>
          reader && !READER_BOOKS.includes(loan.bookId)
            ? `/books/${loan.bookId}`
            : embeddedBook(loan.book, reader)
        )
      )
      // The reader's walk holds books of both kinds: in the scope and out of it.
      const shown = members.filter((loan) => typeof loan.book === 'object').length
      expect(shown).toBeGreaterThan(0)
      expect(shown < members.length).toBe(reader)
    })
  }
})

describe('a capped to-many declared embed on cursor pages', () => {
  for (const caller of ['librarian', 'reader']) {
    it(`embeds each book's first loans walking /books/latest each way, as a ${caller}`, async () => {
      const reader = caller === 'reader'
      const books = await prisma.book.findMany({
        where: reader ? { id: { in: READER_BOOKS } } : {},
        orderBy: { id: 'desc' },
        include: {
          loans: { where: reader ? { borrower: 'Reader 1' } : {}, orderBy: { id: 'asc' } },
        },
      })
      const members = await walkBothWays('/books/latest', caller, 3)
      expect(members.map((book) => book['@id'])).toStrictEqual(
        books.map((book) => `/books/${book.id}`)
      )
      expect(members.map((book) => book.loans)).toStrictEqual(
        books.map((book) => declaredLoans(book.id, book.loans, reader))
      )
      // The librarian sees books with more loans than shown; the reader none (its scope cuts
      // each book's loans to two at most), though the same books have more than three loans.
      const partial = members.filter((book) => 'hydra:view' in (book.loans as Body))
      expect(partial.length > 0).toBe(!reader)
      const all = await prisma.loan.count({ where: { bookId: { in: READER_BOOKS } } })
      const shown = books.reduce((sum, book) => sum + book.loans.length, 0)
      expect(all > shown).toBe(reader)
    })
  }
})
