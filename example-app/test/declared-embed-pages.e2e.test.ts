/**
 * A to-many relation declared embedded is the first page of its sub-collection as the caller would
 * receive it (docs/member-shape.md, "Declared embeds"; docs/security.md): on test/fixtures/embeds,
 * books embed their first three loans. Rules that differ between loans' main collection operation
 * and their items (a guard or a scope of `operations.collection` alone), a guard of books' items
 * (the sub-collection's parent), and a link hidden on the loans' side decide what
 * `/books/N/loans` answers each caller; every embed of every book, on pages of both kinds, an
 * unpaged stream, the cursor operation and items, on both engines, must then be that answer's
 * first three members (with the declared fields), or the sub-collection's IRI where that answer
 * is a refusal, or nothing where the link is hidden. The oracle is the sub-collection route
 * itself, read by the same caller: a rule that held on one road and not the other shows here.
 */

import { shareAdapter } from '@prisma-hydra/runtime'
import type { Context } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HydraAccess } from '#fixtures/embeds/hydra/index.js'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { claimsOf, type LibraryEnv, tokenFor } from '../src/auth.js'
import { EMBEDS_SCHEMA, embedsOnBothEngines } from './support/embeds-app.js'
import { createAdapter, freshDatabase, type TestDatabase } from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'

const SECRET = 'declared-embed pages secret'

/**
 * The callers, by their token's `sub`: each makes loans' sub-collection answer otherwise than
 * loans' items would (which is what an embed read by the item rules showed).
 */
const CALLERS = [
  'librarian',
  // Loans' main collection is for librarians: every loan item is readable, no list of them.
  'no-lists',
  // Loans' main collection lists Reader 1's loans only; every loan item is readable.
  'reader-lists',
  // Books' items are barred (their pages are not): no book's sub-collection is served.
  'no-book-items',
  // Loans hide their book: listing a book's loans would tell that link.
  'no-loan-books',
  // Books' items are those of 1, 2 and 9 (their pages list every book): the others' loans are
  // the sub-collection of a missing parent.
  'few-book-items',
] as const

const subOf = (c: Context<LibraryEnv>) => claimsOf(c)?.sub

const access = {
  Loan: {
    hidden: (c) => (subOf(c) === 'no-loan-books' ? ['book' as const] : []),
    operations: {
      collection: {
        guard: (c) => (subOf(c) === 'no-lists' ? 'forbidden' : 'allow'),
        scope: (c) => (subOf(c) === 'reader-lists' ? { borrower: 'Reader 1' } : undefined),
      },
    },
  },
  Book: {
    operations: {
      item: {
        guard: (c) => (subOf(c) === 'no-book-items' ? 'forbidden' : 'allow'),
        scope: (c) => (subOf(c) === 'few-book-items' ? { id: { in: [1, 2, 9] } } : undefined),
      },
    },
  },
} satisfies HydraAccess<LibraryEnv>

type Body = Record<string, unknown>

let prisma: PrismaClient
let database: TestDatabase
const origins: string[] = []
const closers: Array<() => Promise<void>> = []
const tokens = new Map<string, string>()

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await seedLibrary(prisma)
  const servers = await embedsOnBothEngines(SECRET, { prisma, access, batchSize: 4, adapter })
  origins.push(...servers.origins)
  closers.push(servers.close)
  for (const sub of CALLERS) tokens.set(sub, await tokenFor({ sub, role: 'reader' }, SECRET))
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

async function read(origin: string, caller: string, path: string) {
  const response = await fetch(`${origin}${path}`, {
    headers: { Authorization: `Bearer ${tokens.get(caller)}` },
  })
  const text = await response.text()
  return { status: response.status, body: JSON.parse(text) as Body }
}

const membersOf = (body: Body) => (body['hydra:member'] ?? []) as Body[]

/**
 * What a book's `loans` must be for the caller: the first three members of its sub-collection,
 * each with the fields loans declare embedded, and whether more exist; its IRI where the
 * sub-collection refuses the caller (401, 403) or has no parent for them (404), nothing where the
 * rules hide the link itself (and the sub-collection is the same 404).
 */
async function firstPage(origin: string, caller: string, book: number) {
  const iri = `/books/${book}/loans`
  const { status, body } = await read(origin, caller, iri)
  if (status === 404 && caller === 'no-loan-books') return undefined
  if (status !== 200) return iri
  const members = membersOf(body)
  return {
    members: members.slice(0, 3).map((loan) => ({
      '@id': loan['@id'],
      borrower: loan.borrower,
      returnedAt: loan.returnedAt,
    })),
    more: (body['hydra:totalItems'] as number) > 3,
  }
}

/** A book's `loans` as its embed writes it, in the terms of {@link firstPage}. */
function shown(loans: unknown) {
  if (loans === undefined || typeof loans === 'string') return loans
  const collection = loans as Body
  return {
    members: membersOf(collection).map((loan) => ({
      '@id': loan['@id'],
      borrower: loan.borrower,
      returnedAt: loan.returnedAt,
    })),
    more: collection['hydra:view'] !== undefined,
  }
}

/** Every answer that embeds books' loans: pages, a partial page, a stream, the cursor feed. */
const PAGES = [
  '/books',
  '/books?partial=true',
  '/books?pagination=false',
  '/books/latest',
  '/books?properties[]=title&properties[]=loans',
]

describe("a to-many relation declared embedded, as its sub-collection's first page", () => {
  for (const caller of CALLERS)
    it(`shows ${caller} what the sub-collection shows, on every page, stream and item`, async () => {
      for (const origin of origins) {
        const expected = new Map<number, unknown>()
        for (let book = 1; book <= 10; book++)
          expected.set(book, await firstPage(origin, caller, book))
        for (const path of PAGES) {
          const { status, body } = await read(origin, caller, path)
          // A link hidden from the caller is not a property it may select: the 400 of an unknown one.
          if (caller === 'no-loan-books' && path.includes('=loans')) {
            expect(status, path).toBe(400)
            continue
          }
          expect(status, path).toBe(200)
          const books = membersOf(body)
          expect(books.length, path).toBeGreaterThan(0)
          for (const book of books) {
            const id = Number(String(book['@id']).split('/').pop())
            expect(shown(book.loans), `${path} book ${id}`).toStrictEqual(expected.get(id))
          }
        }
        for (const book of [1, 9, 10]) {
          const { status, body } = await read(origin, caller, `/books/${book}`)
          if (caller === 'no-book-items' || (caller === 'few-book-items' && book === 10)) {
            expect(status).toBe(caller === 'no-book-items' ? 403 : 404)
            continue
          }
          expect(shown(body.loans), `/books/${book}`).toStrictEqual(expected.get(book))
        }
      }
    })

  it('makes each rule tell: the callers see different first pages', async () => {
    const [origin] = origins as [string]
    const answers = await Promise.all(CALLERS.map((caller) => firstPage(origin, caller, 1)))
    // The librarian's three loans, of all readers; a reader's lists Reader 1's alone.
    const [librarian, noLists, readerLists, noBookItems, noLoanBooks] = answers as [
      { members: Body[] },
      unknown,
      { members: Body[] },
      unknown,
      unknown,
    ]
    const [, , , , , fewBookItems] = answers
    expect(fewBookItems).toStrictEqual(librarian)
    expect(await firstPage(origin, 'few-book-items', 3)).toBe('/books/3/loans')
    expect(new Set(librarian.members.map((loan) => loan.borrower)).size).toBeGreaterThan(1)
    expect(readerLists.members.map((loan) => loan.borrower)).toStrictEqual(
      readerLists.members.map(() => 'Reader 1')
    )
    expect(readerLists.members.length).toBeGreaterThan(0)
    expect(noLists).toBe('/books/1/loans')
    expect(noBookItems).toBe('/books/1/loans')
    expect(noLoanBooks).toBeUndefined()
    // Every loan item stays readable to those whose lists are barred or narrowed.
    for (const caller of ['no-lists', 'reader-lists'])
      for (const loan of librarian.members)
        expect((await read(origin, caller, String(loan['@id']))).status).toBe(200)
  })
})
