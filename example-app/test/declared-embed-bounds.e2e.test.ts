/**
 * What a capped to-many embed reads (docs/member-shape.md, "Declared embeds"): on
 * test/fixtures/embeds, books embed their first three loans, and two books have hundreds. Prisma
 * applies a nested `take` of a `findMany` in memory, after reading every related row; the page's
 * first pages are read together with a limit, and the members the limit may have cut short apart,
 * so each answer reads at most 2 x members x (first + 1) + 1 loans, on every paging mode, stream
 * and item, both engines, with and without a scope of loans, and members with few loans take one
 * statement: counted as the rows the database hands back for statements reading the Loan table.
 * The compiled engine limits each member's loans apart (on PostgreSQL a LATERAL subquery of the
 * books, elsewhere a read a member joined by UNION ALL): one statement a page or a stream's batch,
 * whatever a member has, with the prisma engine's answer.
 */

import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HydraAccess } from '#fixtures/embeds/hydra/index.js'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { claimsOf, type LibraryEnv, tokenFor } from '../src/auth.js'
import { EMBEDS_SCHEMA, embedsOnBothEngines } from './support/embeds-app.js'
import {
  createAdapter,
  freshDatabase,
  TEST_DATABASE,
  type TestDatabase,
} from './support/harness.js'
import { LOANS, seedLibrary } from './support/library-rows.js'
import { countRows, type RowCount } from './support/row-count.js'

const SECRET = 'declared-embed bounds secret'
/** Loans of books 1 and 2 beside the library's own: far more than three each. */
const MANY = 400

/** A reader lists their own loans; the librarian every loan. */
const access = {
  Loan: {
    scope: (c) =>
      claimsOf(c)?.role === 'reader' ? { borrower: claimsOf(c)?.sub ?? '' } : undefined,
  },
} satisfies HydraAccess<LibraryEnv>

let prisma: PrismaClient
let database: TestDatabase
let loans: RowCount<ReturnType<typeof createAdapter>>
const origins: string[] = []
const closers: Array<() => Promise<void>> = []
const tokens = new Map<string, string>()

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  loans = countRows(createAdapter(database.url), 'Loan')
  const adapter = shareAdapter(loans.factory)
  prisma = new PrismaClient({ adapter })
  await seedLibrary(prisma)
  const more = Array.from({ length: MANY * 2 }, (_, index) => ({
    ...(LOANS[index % LOANS.length] as (typeof LOANS)[number]),
    id: 1000 + index,
    borrower: `Reader ${1 + (index % 3)}`,
    bookId: 1 + (index % 2),
  }))
  await prisma.loan.createMany({ data: more })
  const servers = await embedsOnBothEngines(SECRET, { prisma, access, batchSize: 4, adapter })
  origins.push(...servers.origins)
  closers.push(servers.close)
  tokens.set('librarian', await tokenFor({ sub: 'Ada', role: 'librarian' }, SECRET))
  tokens.set('reader', await tokenFor({ sub: 'Reader 2', role: 'reader' }, SECRET))
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

type Body = Record<string, unknown>

/** The answer to `path` for `caller`, and the loans its reads took from the database. */
async function read(origin: string, caller: string, path: string) {
  loans.reset()
  const response = await fetch(`${origin}${path}`, {
    headers: { Authorization: `Bearer ${tokens.get(caller)}` },
  })
  const body = (await response.json()) as Body
  return {
    status: response.status,
    body,
    read: loans.read(),
    statements: loans.statements().length,
  }
}

const membersOf = (body: Body) => (body['hydra:member'] ?? []) as Body[]

/** The answers that embed books' first loans, and how many books each shows. */
const PAGES: ReadonlyArray<readonly [string, number]> = [
  ['/books', 10],
  ['/books?partial=true', 10],
  ['/books?pagination=false', 10],
  ['/books/latest', 3],
  ['/books?properties[]=loans', 10],
]

describe('a capped to-many embed', () => {
  for (const caller of ['librarian', 'reader'])
    it(`reads at most 2 x members x (first + 1) + 1 related rows for the ${caller}`, async () => {
      for (const origin of origins) {
        for (const [path, members] of PAGES) {
          const { status, body, read: taken } = await read(origin, caller, path)
          expect(status, path).toBe(200)
          expect(membersOf(body), path).toHaveLength(members)
          expect(taken, `${path} read ${taken} loans`).toBeLessThanOrEqual(2 * members * 4 + 1)
          // Books 1 and 2 show three loans of hundreds, and say that more exist.
          const first = membersOf(body).find((book) => book['@id'] === '/books/1')
          if (first) {
            const shown = first.loans as Body
            expect(membersOf(shown), path).toHaveLength(3)
            expect(shown['hydra:view'], path).toBeDefined()
            if (caller === 'reader')
              for (const loan of membersOf(shown)) expect(loan.borrower).toBe('Reader 2')
          }
        }
        const item = await read(origin, caller, '/books/2')
        expect(item.status).toBe(200)
        expect(membersOf(item.body.loans as Body)).toHaveLength(3)
        expect(item.read).toBeLessThanOrEqual(2 * 4 + 1)
      }
    })

  for (const caller of ['librarian', 'reader'])
    it(`reads the loans of books with few in one statement for the ${caller}`, async () => {
      for (const origin of origins) {
        // The three newest books have a few loans each: one statement reads all three first pages.
        const { status, body, statements } = await read(origin, caller, '/books/latest')
        expect(status).toBe(200)
        expect(membersOf(body).map((book) => book['@id'])).not.toContain('/books/1')
        expect(statements).toBe(1)
      }
    })

  for (const caller of ['librarian', 'reader'])
    it(`reads every first page in one statement on the compiled engine for the ${caller}`, async () => {
      const [own, compiled] = origins as [string, string]
      for (const [path, members] of PAGES) {
        // Books 1 and 2 have hundreds of loans: Prisma's reads cut the shared limit short at
        // them and read them again alone; the compiled engine limits each book's loans apart.
        const prisma = await read(own, caller, path)
        const apart = await read(compiled, caller, path)
        expect(apart.status, path).toBe(200)
        expect(apart.body, path).toEqual(prisma.body)
        const heavy = membersOf(prisma.body).some((book) => book['@id'] === '/books/1')
        if (heavy) expect(prisma.statements, path).toBeGreaterThan(1)
        // An unpaged stream reads its books in batches of four, each batch's loans after it.
        const batches = path.includes('pagination=false') ? Math.ceil(members / 4) : 1
        expect(apart.statements, path).toBe(batches)
        const apartEach = TEST_DATABASE === 'postgresql' ? /CROSS JOIN LATERAL/ : /UNION ALL/
        for (const statement of loans.statements()) expect(statement, path).toMatch(apartEach)
        expect(apart.read, path).toBeLessThanOrEqual(membersOf(apart.body).length * 4)
      }
      const item = await read(compiled, caller, '/books/2')
      expect(item.statements).toBe(1)
      expect(membersOf(item.body.loans as Body)).toHaveLength(3)
    })
})
