/**
 * Fields shown on some rows only (docs/security.md#fields-shown-on-some-rows), on
 * test/fixtures/embeds and both engines: a reader's `shownWhere` rules show a loan's `returnedAt`
 * only on the loans they borrowed (a condition on the row's own column), a loan's `borrower` only
 * on loans of three books (through its to-one relation) and a book's `isbn` only on books they
 * returned late (through its to-many relation, with a date). Every answer the reader gets (full,
 * partial, cursor and unpaged pages, items, sub-collections, loans embedding their book and books
 * embedding their first loans, property selections, a filter on such a field) is walked: a field
 * is in a member exactly on the rows whose condition holds, no value of one is anywhere in an
 * answer on a row where it is hidden, and the answers are the caller's (`private`) and as the
 * OpenAPI document describes them; the compiled engine answers each itself. Without the rules,
 * or with a rule applied to the wrong rows, it fails.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type {
  BookMember,
  HydraAccess,
  HydraMembers,
  LoanMember,
} from '#fixtures/embeds/hydra/index.js'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { type LibraryEnv, tokenFor } from '../src/auth.js'
import { recordStatements, statementsOf } from './support/driver-statements.js'
import { EMBEDS_SCHEMA, embedsApp } from './support/embeds-app.js'
import {
  createAdapter,
  freshDatabase,
  startServer,
  TEST_DATABASE,
  type TestDatabase,
} from './support/harness.js'
import { BOOKS, LOANS, seedLibrary } from './support/library-rows.js'
import { checkedAgainstOpenApi } from './support/openapi-check.js'

const SECRET = 'shown-where'
const READER = 'Reader 2'
const SHOWN_BOOKS = ['Book 1', 'Book 2', 'Book 3']
const LATE = new Date(Date.UTC(2025, 1, 10))

const access = {
  Loan: {
    shownWhere: (c) =>
      c.get('jwtPayload')?.role === 'librarian'
        ? undefined
        : {
            returnedAt: { borrower: c.get('jwtPayload')?.sub ?? '' },
            borrower: { book: { is: { title: { in: SHOWN_BOOKS } } } },
          },
  },
  Book: {
    shownWhere: (c) =>
      c.get('jwtPayload')?.role === 'librarian'
        ? undefined
        : {
            isbn: {
              loans: {
                some: { borrower: c.get('jwtPayload')?.sub ?? '', returnedAt: { gte: LATE } },
              },
            },
          },
  },
} satisfies HydraAccess<LibraryEnv>

/** What the rules show the reader, row by row: the oracle the answers are held to. */
const shows = {
  Loan: {
    returnedAt: (id: number) => LOANS[id - 1]?.borrower === READER,
    borrower: (id: number) => SHOWN_BOOKS.includes(`Book ${LOANS[id - 1]?.bookId}`),
  },
  Book: {
    isbn: (id: number) =>
      LOANS.some(
        (loan) =>
          loan.bookId === id &&
          loan.borrower === READER &&
          loan.returnedAt !== null &&
          loan.returnedAt >= LATE
      ),
  },
} as const

type Body = Record<string, unknown>

/**
 * The values a hidden field would tell: the ISBNs of books that hide theirs, the return times of
 * loans that hide theirs (but those some loan was loaned at, which its `loanedAt` shows).
 */
function hiddenValues(): string[] {
  const loaned = new Set(LOANS.map((loan) => loan.loanedAt.toISOString()))
  const values: string[] = []
  for (const book of BOOKS) if (!shows.Book.isbn(book.id)) values.push(book.isbn)
  for (const loan of LOANS)
    if (!shows.Loan.returnedAt(loan.id) && loan.returnedAt)
      values.push(loan.returnedAt.toISOString())
  return values.filter((value) => !loaned.has(value))
}

/** Every member, item and embedded item of an answer, with its type and numeric id. */
function* nodes(value: unknown): Generator<{ type: string; id: number; node: Body }> {
  if (Array.isArray(value)) {
    for (const item of value) yield* nodes(item)
    return
  }
  if (!value || typeof value !== 'object') return
  const node = value as Body
  const type = node['@type']
  const match = /^\/(loans|books)\/([0-9]+)$/.exec(String(node['@id']))
  if ((type === 'Loan' || type === 'Book') && match) yield { type, id: Number(match[2]), node }
  for (const [key, child] of Object.entries(node)) if (key !== '@context') yield* nodes(child)
}

let prisma: PrismaClient
let database: TestDatabase
let token: string
let librarian: string
const servers: { origin: string; close: () => Promise<void> }[] = []
let openApi: ReturnType<typeof checkedAgainstOpenApi>
const seen = { shown: 0, hidden: 0, answers: 0 }

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await seedLibrary(prisma)
  recordStatements(TEST_DATABASE)
  token = await tokenFor({ sub: READER, role: 'reader' }, SECRET)
  librarian = await tokenFor({ sub: 'Librarian', role: 'librarian' }, SECRET)
  openApi = checkedAgainstOpenApi(embedsApp(SECRET, { prisma, adapter, access }).fetch)
  servers.push(await startServer(openApi.fetch))
  // Server-Timing names a read the compiled engine hands to Prisma: it must hand none.
  const compiled = { prisma, adapter, access, engine: 'compiled' as const, serverTiming: true }
  servers.push(await startServer(embedsApp(SECRET, compiled).fetch))
}, 120_000)

afterAll(async () => {
  for (const server of servers) await server.close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The reader's answer at `path`, checked: fields shown exactly where the rules show them. */
async function checked(origin: string, path: string, as = token): Promise<Body> {
  const response = await fetch(`${origin}${path}`, { headers: { Authorization: `Bearer ${as}` } })
  const text = await response.text()
  expect(response.status, `${path}: ${text}`).toBe(200)
  expect(response.headers.get('Cache-Control'), path).toContain('private')
  expect(response.headers.get('Server-Timing') ?? '', path).not.toContain('handoff')
  const body = JSON.parse(text) as Body
  seen.answers++
  if (as !== token) return body
  for (const value of hiddenValues()) expect(text, `${path} tells ${value}`).not.toContain(value)
  for (const { type, id, node } of nodes(body)) {
    const rules = shows[type as keyof typeof shows] as Record<string, (id: number) => boolean>
    for (const [field, holds] of Object.entries(rules)) {
      if (holds(id)) continue
      seen.hidden++
      expect(node, `${path}: ${type} ${id} shows ${field}`).not.toHaveProperty(field)
    }
  }
  return body
}

/** Every page of a collection from `path` on, following `hydra:next`. */
async function walk(origin: string, path: string): Promise<Body[]> {
  const pages: Body[] = []
  let next: string | undefined = path
  while (next) {
    const page = await checked(origin, next)
    pages.push(page)
    next = (page['hydra:view'] as Body | undefined)?.['hydra:next'] as string | undefined
    expect(pages.length).toBeLessThan(60)
  }
  return pages
}

const members = (pages: Body[]) => pages.flatMap((page) => page['hydra:member'] as Body[])

describe.each([
  ['prisma', 0],
  ['compiled', 1],
])('on the %s engine', (_engine, index) => {
  const origin = () => (servers[index] as { origin: string }).origin

  it('shows each field on exactly the rows its condition holds for, on every page', async () => {
    const loans = members(await walk(origin(), '/loans'))
    expect(loans).toHaveLength(LOANS.length)
    for (const loan of loans) {
      const id = Number(String(loan['@id']).split('/').pop())
      // Shown where the condition holds: a rule applied to too many rows fails here.
      expect('returnedAt' in loan, `loan ${id}`).toBe(shows.Loan.returnedAt(id))
      expect('borrower' in loan, `loan ${id}`).toBe(shows.Loan.borrower(id))
      if (shows.Loan.returnedAt(id)) seen.shown++
    }
    const books = members(await walk(origin(), '/books'))
    expect(books).toHaveLength(BOOKS.length)
    for (const book of books) {
      const id = Number(String(book['@id']).split('/').pop())
      expect('isbn' in book, `book ${id}`).toBe(shows.Book.isbn(id))
    }
    expect(books.some((book) => 'isbn' in book)).toBe(true)
    expect(books.some((book) => !('isbn' in book))).toBe(true)
  })

  it('holds on partial, cursor and unpaged pages and on the other operations', async () => {
    for (const path of [
      '/loans?partial=true',
      '/loans/recent',
      '/loans/open',
      '/loans/feed',
      '/books/latest',
      '/books/catalog',
    ])
      expect(members(await walk(origin(), path)).length).toBeGreaterThan(0)
    expect(members([await checked(origin(), '/loans?pagination=false')])).toHaveLength(LOANS.length)
    expect(members([await checked(origin(), '/books?pagination=false')])).toHaveLength(BOOKS.length)
  })

  it('holds on items and sub-collections, and embedded both ways', async () => {
    for (const loan of LOANS) {
      const item = await checked(origin(), `/loans/${loan.id}`)
      expect('returnedAt' in item).toBe(shows.Loan.returnedAt(loan.id))
      // The loan embeds its book (title, isbn): the book's rule holds in it.
      const book = item.book as Body
      expect('isbn' in book, `loan ${loan.id}'s book`).toBe(shows.Book.isbn(loan.bookId))
    }
    for (const book of BOOKS) {
      const item = await checked(origin(), `/books/${book.id}`)
      expect('isbn' in item).toBe(shows.Book.isbn(book.id))
      // The book embeds its first three loans (returnedAt, borrower): the loans' rules hold.
      const loans = (item.loans as Body)['hydra:member'] as Body[]
      for (const loan of loans) {
        const id = Number(String(loan['@id']).split('/').pop())
        expect('borrower' in loan, `book ${book.id}'s loan ${id}`).toBe(shows.Loan.borrower(id))
      }
      await walk(origin(), `/books/${book.id}/loans`)
    }
  })

  it('selects such a field, shown where its condition holds', async () => {
    const selected = members(
      await walk(
        origin(),
        '/loans?properties[]=borrower&properties[]=returnedAt&properties[book][]=title'
      )
    )
    expect(selected.filter((loan) => 'borrower' in loan).length).toBe(
      LOANS.filter((loan) => shows.Loan.borrower(loan.id)).length
    )
    await walk(origin(), '/books?properties[]=isbn')
  })

  it('takes no filter on such a field: it would tell the value of the other rows', async () => {
    const all = members(await walk(origin(), '/loans'))
    for (const value of ['true', 'false']) {
      const filtered = members(await walk(origin(), `/loans?exists[returnedAt]=${value}`))
      expect(filtered.map((loan) => loan['@id'])).toStrictEqual(all.map((loan) => loan['@id']))
    }
    const page = await checked(origin(), '/loans')
    const search = JSON.stringify(page['hydra:search'])
    expect(search).not.toContain('returnedAt')
    // A caller the rule does not bear on keeps the filter.
    const open = await checked(origin(), '/loans?exists[returnedAt]=false', librarian)
    expect(open['hydra:totalItems']).toBe(LOANS.filter((loan) => !loan.returnedAt).length)
    expect(JSON.stringify(open['hydra:member'])).toContain('returnedAt')
  })
})

// MariaDB's driver keeps the compiled engine's prepared statements where the recording cannot see
// them (test/support/driver-statements.ts).
it.skipIf(TEST_DATABASE === 'mysql')(
  'reads the conditions in the page’s own statement on the compiled engine',
  async () => {
    const [prisma, compiled] = servers.map((server) => server.origin) as [string, string]
    const path = '/loans?properties[]=borrower&properties[]=returnedAt&page=2'
    await checked(compiled, path)
    const sent = await statementsOf(() => checked(compiled, path))
    expect(sent.map((statement) => statement.sql)).toHaveLength(1)
    expect(sent[0]?.sql).toContain('CASE WHEN')
    // The prisma engine reads the page, then the keys of its rows that hold each condition.
    await checked(prisma, path)
    const read = await statementsOf(() => checked(prisma, path))
    expect(read.length).toBeGreaterThan(1)
  }
)

it('checked hidden fields on many rows, and answered as the OpenAPI document says', async () => {
  expect(seen.hidden).toBeGreaterThan(500)
  expect(seen.shown).toBeGreaterThan(10)
  const result = await openApi.result()
  expect(result.violations).toStrictEqual([])
  expect(result.checked).toBeGreaterThan(50)
})

/** Whether `K` is an optional property of `T`. */
type Optional<T, K extends keyof T> = Record<never, never> extends Pick<T, K> ? true : false

it('types such fields optional for the callers of these rules, embedded too', () => {
  type Loan = HydraMembers<typeof access>['Loan']
  expectTypeOf<Optional<Loan, 'returnedAt'>>().toEqualTypeOf<true>()
  expectTypeOf<Optional<Loan, 'borrower'>>().toEqualTypeOf<true>()
  expectTypeOf<Optional<Loan, 'loanedAt'>>().toEqualTypeOf<false>()
  // The book a loan embeds: with its title and ISBN, or (on `recent`) its title alone.
  type WithIsbn<B> = B extends unknown ? ('isbn' extends keyof B ? B : never) : never
  type EmbeddedBook = WithIsbn<Exclude<Loan['book'], string>>
  expectTypeOf<Optional<EmbeddedBook, 'isbn'>>().toEqualTypeOf<true>()
  expectTypeOf<Optional<EmbeddedBook, 'title'>>().toEqualTypeOf<false>()
  expectTypeOf<HydraMembers<typeof access>['Book']>().not.toEqualTypeOf<BookMember>()
  // A rule answering one of two values names the fields of both.
  const open = { borrower: { returnedAt: null } }
  const returned = { returnedAt: { borrower: READER } }
  const either = {
    Loan: { shownWhere: (c) => (c.get('jwtPayload') ? open : returned) },
  } satisfies HydraAccess<LibraryEnv>
  type Either = HydraMembers<typeof either>['Loan']
  expectTypeOf<Optional<Either, 'borrower'>>().toEqualTypeOf<true>()
  expectTypeOf<Optional<Either, 'returnedAt'>>().toEqualTypeOf<true>()
  expectTypeOf<Optional<Either, 'loanedAt'>>().toEqualTypeOf<false>()
  expectTypeOf<HydraMembers<{ Book: { hidden: () => [] } }>['Loan']>().toEqualTypeOf<LoanMember>()
})

it('shows such a field on no row a custom data provider read, which no check marked', async () => {
  // The `open` loans read by the app's own query: the runtime checks none of its rows.
  const open = async () => {
    const rows = await prisma.loan.findMany({ where: { returnedAt: null }, orderBy: { id: 'asc' } })
    return rows as never
  }
  const options = { prisma, access, providers: { loan: { open } } }
  const server = await startServer(embedsApp(SECRET, options).fetch)
  try {
    const response = await fetch(`${server.origin}/loans/open`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    const page = (await response.json()) as Body
    const loans = page['hydra:member'] as Body[]
    expect(loans.length).toBeGreaterThan(0)
    for (const loan of loans) {
      expect(loan).not.toHaveProperty('borrower')
      expect(loan).toHaveProperty('loanedAt')
    }
  } finally {
    await server.close()
  }
})

describe('a shownWhere rule on what every member must show', () => {
  /** The status and problem of `path` served with `rules`, on the prisma engine. */
  async function answer(rules: HydraAccess<LibraryEnv>, path: string) {
    const server = await startServer(embedsApp(SECRET, { prisma, access: rules }).fetch)
    try {
      const response = await fetch(`${server.origin}${path}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
      return { status: response.status, body: await response.text() }
    } finally {
      await server.close()
    }
  }

  it.each([
    ['the key', { Loan: { shownWhere: () => ({ id: { borrower: READER } }) } }, '/loans'],
    [
      'the key, on items',
      { Loan: { shownWhere: () => ({ id: { borrower: READER } }) } },
      '/loans/1',
    ],
    ['a link', { Loan: { shownWhere: () => ({ book: { borrower: READER } }) } }, '/loans'],
    [
      "a cursor's order",
      { Loan: { shownWhere: () => ({ loanedAt: { borrower: READER } }) } },
      '/loans/feed',
    ],
    [
      "an operation's own order",
      { Loan: { shownWhere: () => ({ loanedAt: { borrower: READER } }) } },
      '/loans/recent',
    ],
    [
      'a field answered undefined',
      { Loan: { shownWhere: () => ({ borrower: undefined }) } },
      '/loans',
    ],
  ] as const)('is a configuration error: %s', async (_what, rules, path) => {
    const { status, body } = await answer(rules as HydraAccess<LibraryEnv>, path)
    expect(status, body).toBe(500)
    expect(body).not.toContain('Reader')
  })
})

it('shows a field with the value the check that shows it read, whatever a write did before it', async () => {
  // A write committed between the rows' read and their check (what a concurrent transaction does
  // at once): loan 3, Reader 3's, lent again to the reader, with a new return time.
  const loan = LOANS[2] as (typeof LOANS)[number]
  let armed = false
  const concurrent = prisma.$extends({
    query: {
      loan: {
        async $allOperations({ operation, args, query }) {
          const result = await query(args)
          const rows = (Array.isArray(result) ? result : [result]) as { id?: number }[]
          const read = ['findMany', 'findUnique', 'findFirst'].includes(operation)
          if (armed && read && rows.some((row) => row?.id === loan.id && 'returnedAt' in row)) {
            armed = false
            await prisma.loan.update({
              where: { id: loan.id },
              data: { borrower: READER, returnedAt: new Date('2030-01-01T00:00:00Z') },
            })
          }
          return result
        },
      },
    },
  })
  const server = await startServer(
    embedsApp(SECRET, { prisma: concurrent as unknown as PrismaClient, access }).fetch
  )
  const other = loan.returnedAt?.toISOString() as string
  try {
    for (const path of [
      '/loans?partial=true&itemsPerPage=5',
      `/loans/${loan.id}`,
      '/loans?pagination=false',
    ]) {
      await prisma.loan.update({
        where: { id: loan.id },
        data: { borrower: loan.borrower, returnedAt: loan.returnedAt },
      })
      armed = true
      const response = await fetch(`${server.origin}${path}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
      const text = await response.text()
      expect(response.status, text).toBe(200)
      // The write happened: the check came after it.
      expect(armed, path).toBe(false)
      const [member] = [...nodes(JSON.parse(text))].filter(
        ({ type, id }) => type === 'Loan' && id === loan.id
      )
      expect(member, path).toBeDefined()
      expect(member?.node.returnedAt, `${path} tells Reader 3's return time`).not.toBe(other)
    }
  } finally {
    await server.close()
    await prisma.loan.update({
      where: { id: loan.id },
      data: { borrower: loan.borrower, returnedAt: loan.returnedAt },
    })
  }
})
