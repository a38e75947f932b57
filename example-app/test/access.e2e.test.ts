/**
 * Access control end to end (docs/security.md): the example's schema, seeded, served with row
 * scopes, guards and hidden fields that read real HS256 tokens verified by `hono/jwt`. Each side
 * channel has its own case; the leak hunter then compares, for every identity, the members, totals,
 * links and cursors of each collection request with an oracle query applying the scope by hand.
 */

import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { validate } from '@readme/openapi-parser'
import { type Context, Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp, type HydraAccess } from '#generated/hydra/index.js'
import type { Prisma, PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import {
  authenticate,
  claimsOf,
  type LibraryClaims,
  type LibraryEnv,
  tokenFor,
} from '../src/auth.js'
import { popularBooks } from '../src/collections.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { type Answer, answerTo, comparableHeaders } from './support/caller-answer.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

const SECRET = 'access test secret'

/** The identities of the file, by name: their claims (none: anonymous). */
const IDENTITIES = {
  anonymous: undefined,
  reader3: { sub: 'Reader 3', role: 'reader' },
  reader7: { sub: 'Reader 7', role: 'reader' },
  librarian: { sub: 'Librarian', role: 'librarian' },
} satisfies Record<string, Omit<LibraryClaims, 'exp'> | undefined>
type Identity = keyof typeof IDENTITIES

/** Readers see the authors of one country each (reader3: AR, reader7: IT; anonymous: GB). */
const COUNTRY: Record<string, string> = { 'Reader 3': 'AR', 'Reader 7': 'IT' }

const claims = (c: Context) => claimsOf(c)
const librarian = (c: Context) => claims(c)?.role === 'librarian'

/** The scopes, written once: the rules below and the oracle queries both use them. */
const scopes = {
  Loan: (who: LibraryClaims | undefined): Prisma.LoanWhereInput | undefined =>
    who?.role === 'librarian' ? undefined : { borrower: who?.sub ?? '' },
  Author: (who: LibraryClaims | undefined): Prisma.AuthorWhereInput | undefined =>
    who?.role === 'librarian' ? undefined : { country: COUNTRY[who?.sub ?? ''] ?? 'GB' },
  Book: (who: LibraryClaims | undefined): Prisma.BookWhereInput | undefined =>
    who?.role === 'librarian' ? undefined : { genre: { not: 'POETRY' } },
  Activity: (who: LibraryClaims | undefined): Prisma.ActivityWhereInput | undefined =>
    who?.role === 'librarian' ? undefined : { kind: { in: ['loan', 'return'] } },
}

const access: HydraAccess = {
  Loan: {
    guard: (c) => (claims(c) ? 'allow' : 'unauthenticated'),
    scope: (c) => scopes.Loan(claims(c)),
  },
  Author: { scope: (c) => scopes.Author(claims(c)) },
  Book: {
    scope: (c) => scopes.Book(claims(c)),
    hidden: (c) => (librarian(c) ? [] : ['isbn', 'price']),
    operations: {
      recent: {
        guard: (c) => (librarian(c) ? 'allow' : claims(c) ? 'forbidden' : 'unauthenticated'),
      },
    },
  },
  Activity: { scope: (c) => scopes.Activity(claims(c)) },
}

// The rules are typed by the generated HydraAccess: a scope is the model's where, a hidden field
// one of its fields, an operation one of its names.
const mistyped: HydraAccess[] = [
  // @ts-expect-error: Book has no field `nope`
  { Book: { scope: () => ({ nope: 1 }) } },
  // @ts-expect-error: Book shows no field `nope`
  { Book: { hidden: () => ['nope'] } },
  // @ts-expect-error: Book has no operation `nope`
  { Book: { operations: { nope: {} } } },
  // @ts-expect-error: a guard answers allow, unauthenticated or forbidden
  { Loan: { guard: () => 'maybe' } },
]

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let database: TestDatabase
const tokens = new Map<Identity, string>()

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  for (const [name, who] of Object.entries(IDENTITIES))
    if (who) tokens.set(name as Identity, await tokenFor(who, SECRET))
  ;({ origin, close } = await serve(access))
}, 120_000)

/** The example's generated API under `rules`, behind hono/jwt, on a server of its own. */
function serve(rules: HydraAccess) {
  const app = new Hono().use(authenticate(SECRET)).route(
    '/',
    createHydraApp({
      prisma,
      access: rules,
      providers: { book: { popular: popularBooks(prisma) } },
    })
  )
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  return startServer(app.fetch)
}

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

async function read(who: Identity, path: string, on = origin): Promise<Answer> {
  return answerTo(on, path, tokens.get(who))
}

const members = (body: Record<string, unknown>) =>
  (body['hydra:member'] ?? body.member) as Array<Record<string, unknown>>
const idsOf = (body: Record<string, unknown>) => members(body).map((member) => member.id)
const whoIs = (who: Identity) => IDENTITIES[who] as LibraryClaims | undefined
const and = <W>(...parts: (W | undefined)[]): { AND: W[] } => ({
  AND: parts.filter((part): part is W => part !== undefined),
})

it('types the rules by the generated HydraAccess (the type check holds the cases)', () => {
  expect(mistyped).toHaveLength(4)
})

describe('items', () => {
  it('answers an item outside the scope exactly as an id no row has', async () => {
    const poetry = await prisma.book.findFirstOrThrow({ where: { genre: 'POETRY' } })
    const hidden = await read('reader3', `/books/${poetry.id}`)
    const missing = await read('reader3', '/books/99999')
    expect(hidden.status).toBe(404)
    expect(JSON.stringify(hidden.body)).toBe(
      JSON.stringify(missing.body).replaceAll('99999', String(poetry.id))
    )
    expect(comparableHeaders(hidden)).toEqual(comparableHeaders(missing))
    expect(hidden.headers.get('content-type')).toBe(missing.headers.get('content-type'))
    // The librarian sees it.
    expect((await read('librarian', `/books/${poetry.id}`)).status).toBe(200)
  })

  it('answers a loan of another reader as a missing one, and the reader’s own', async () => {
    const own = await prisma.loan.findFirstOrThrow({ where: { borrower: 'Reader 3' } })
    const other = await prisma.loan.findFirstOrThrow({ where: { borrower: 'Reader 7' } })
    expect((await read('reader3', `/loans/${own.id}`)).status).toBe(200)
    const hidden = await read('reader3', `/loans/${other.id}`)
    const missing = await read('reader3', '/loans/99999')
    expect(hidden.status).toBe(404)
    expect(JSON.stringify(hidden.body)).toBe(
      JSON.stringify(missing.body).replaceAll('99999', String(other.id))
    )
  })
})

describe('guards', () => {
  it('asks an anonymous caller to authenticate (401 with WWW-Authenticate) before any read', async () => {
    for (const path of ['/loans', '/loans/1', '/books/1/loans', '/books/recent']) {
      const answer = await read('anonymous', path)
      expect(answer.status, path).toBe(401)
      expect(answer.headers.get('www-authenticate'), path).toBe('Bearer')
      expect(answer.headers.get('content-type'), path).toMatch(/^application\/problem\+json/)
      expect(answer.body.status).toBe(401)
    }
  })

  it('refuses a known caller an operation it may not use (403), whatever the row', async () => {
    const answer = await read('reader3', '/books/recent')
    expect(answer.status).toBe(403)
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect((await read('librarian', '/books/recent')).status).toBe(200)
  })

  it('answers a bad token with hono/jwt’s 401', async () => {
    const response = await fetch(`${origin}/books`, {
      headers: { Authorization: `Bearer ${tokens.get('reader3')}x` },
    })
    expect(response.status).toBe(401)
  })
})

describe('the OpenAPI document', () => {
  it('declares the 401 and 403 of guarded routes, and their scheme', async () => {
    const document = (await read('anonymous', '/openapi.json')).body
    expect(await validate(structuredClone(document) as never)).toMatchObject({ valid: true })
    const paths = document.paths as Record<string, { get: Record<string, unknown> }>
    const guarded = Object.entries(paths)
      .filter(([, { get }]) => get.security !== undefined)
      .map(([path]) => path)
    // Loans everywhere they are served, and Book's guarded operation.
    expect(guarded.sort()).toEqual(['/books/recent', '/books/{id}/loans', '/loans', '/loans/{id}'])
    for (const path of guarded) {
      expect(paths[path]?.get.security, path).toEqual([{ bearer: [] }])
      expect(Object.keys(paths[path]?.get.responses as object), path).toEqual(
        expect.arrayContaining(['401', '403'])
      )
    }
    expect(Object.keys(paths['/books']?.get.responses as object)).not.toContain('401')
    const components = document.components as Record<string, Record<string, unknown>>
    expect(components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } })
    expect(JSON.stringify(components.responses?.['401'])).toContain('WWW-Authenticate')
  })
})

describe('shared caches', () => {
  it('marks every answer that depends on the caller private, varying by its credentials', async () => {
    for (const [who, path] of [
      ['reader3', '/books'],
      ['reader3', '/books/99999'],
      ['anonymous', '/loans'],
      ['reader3', '/reviews?page=1'],
      ['reader3', '/languages'],
    ] as const) {
      const answer = await read(who, path)
      // Reviews have no rule, but a filter through books to their authors, whose scopes
      // depend on the caller (book.author.name): private too.
      if (path.startsWith('/languages')) {
        // Languages have no rule and no filter through a scoped relation: public.
        expect(answer.headers.get('cache-control'), path).toBe('public, max-age=3600')
        expect(answer.headers.get('vary'), path).toBe('Accept')
        continue
      }
      expect(answer.headers.get('cache-control'), path).toBe('private')
      // Loans let clients choose their totals: each of their answers varies by Prefer too.
      const prefer = path.startsWith('/loans') ? ', Prefer' : ''
      expect(answer.headers.get('vary'), path).toBe(`Accept, Authorization, Cookie${prefer}`)
    }
  })
})

describe('fields per caller', () => {
  it('leaves hidden fields out of members and items, and their parameters unknown', async () => {
    const reader = await read('reader3', '/books?page=1')
    for (const member of members(reader.body)) {
      expect(member).not.toHaveProperty('isbn')
      expect(member).not.toHaveProperty('price')
    }
    const item = await read('reader3', `/books/${idsOf(reader.body)[0]}`)
    expect(item.body).not.toHaveProperty('price')
    expect(members((await read('librarian', '/books?page=1')).body)[0]).toHaveProperty('price')
    // A hidden field's filter is ignored, as an undeclared parameter is.
    const filtered = await read('reader3', '/books?price[gt]=1000')
    expect(idsOf(filtered.body)).toEqual(idsOf(reader.body))
    expect((await read('librarian', '/books?price[gt]=1000')).body['hydra:totalItems']).toBe(0)
    // Its order is the 400 of an undeclared field, and the search template does not list it.
    const ordered = await read('reader3', '/books?order[price]=asc')
    const unknown = await read('reader3', '/books?order[pages]=asc')
    expect(ordered.status).toBe(400)
    expect(JSON.stringify(ordered.body)).toBe(
      JSON.stringify(unknown.body).replaceAll('pages', 'price')
    )
    const search = JSON.stringify(reader.body['hydra:search'])
    expect(search).not.toContain('price')
    expect(JSON.stringify((await read('librarian', '/books')).body['hydra:search'])).toContain(
      'price'
    )
  })
})

describe('relations', () => {
  it('leaves out the filters through a field the related model hides from the caller', async () => {
    // Authors' names hidden from readers: `author.name=` would otherwise tell a reader a name.
    const rules: HydraAccess = {
      ...access,
      Author: { ...access.Author, hidden: (c) => (librarian(c) ? [] : ['name']) },
    }
    const server = await serve(rules)
    try {
      const get = (who: Identity, path: string) => read(who, path, server.origin)
      const { name } = (await prisma.author.findFirstOrThrow({ where: { country: 'AR' } })) as {
        name: string
      }
      const all = await get('reader3', '/books?itemsPerPage=50')
      const filtered = await get(
        'reader3',
        `/books?itemsPerPage=50&author.name=${encodeURIComponent(name)}`
      )
      // Ignored, as an undeclared parameter is; the librarian's filter narrows.
      expect(idsOf(filtered.body)).toEqual(idsOf(all.body))
      const librarian = await get('librarian', `/books?author.name=${encodeURIComponent(name)}`)
      const everything = await get('librarian', '/books')
      expect(librarian.body['hydra:totalItems']).toBeLessThan(
        everything.body['hydra:totalItems'] as number
      )
      expect(JSON.stringify(all.body['hydra:search'])).not.toContain('author.name')
    } finally {
      await server.close()
    }
  })

  it('answers a sub-collection through a link hidden from the caller as a missing parent', async () => {
    // Books' author links hidden from readers: /authors/3/books would list the books by author.
    const rules: HydraAccess = {
      ...access,
      Book: { ...access.Book, hidden: (c) => (librarian(c) ? [] : ['author']) },
    }
    const server = await serve(rules)
    try {
      const get = (who: Identity, path: string) => read(who, path, server.origin)
      const { id } = await prisma.author.findFirstOrThrow({ where: { country: 'AR' } })
      const hidden = await get('reader3', `/authors/${id}/books`)
      const missing = await get('reader3', '/authors/99999/books')
      expect(hidden.status).toBe(404)
      expect(JSON.stringify(hidden.body)).toBe(
        JSON.stringify(missing.body).replaceAll('99999', String(id))
      )
      expect((await get('librarian', `/authors/${id}/books`)).status).toBe(200)
    } finally {
      await server.close()
    }
  })

  it('refuses an order through a relation whose rows the caller sees in part', async () => {
    const answer = await read('reader3', '/books?order[author.name]=asc')
    expect(answer.status).toBe(400)
    expect(JSON.stringify((await read('reader3', '/books')).body['hydra:search'])).not.toContain(
      'order[author.name]'
    )
    expect((await read('librarian', '/books?order[author.name]=asc')).status).toBe(200)
  })

  it('matches filters through a relation against visible related rows only', async () => {
    // Author 1 is from GB: reader3 (AR) cannot see them, by id or by name.
    const author = await prisma.author.findUniqueOrThrow({ where: { id: 1 } })
    expect(author.country).toBe('GB')
    for (const path of [
      '/books?author=/authors/1',
      `/books?author.name=${encodeURIComponent(author.name)}`,
    ]) {
      const reader = await read('reader3', path)
      expect(reader.status, path).toBe(200)
      expect(
        members(reader.body).filter((member) => member.author === '/authors/1'),
        path
      ).toEqual([])
      expect(
        members((await read('librarian', path)).body).some(
          (member) => member.author === '/authors/1'
        ),
        path
      ).toBe(true)
    }
  })

  it('answers a sub-collection of an invisible parent as one of a missing parent', async () => {
    const hidden = await read('reader3', '/authors/1/books')
    const missing = await read('reader3', '/authors/99999/books')
    expect(hidden.status).toBe(404)
    expect(JSON.stringify(hidden.body)).toBe(JSON.stringify(missing.body).replaceAll('99999', '1'))
    expect((await read('anonymous', '/authors/1/books')).status).toBe(200)
  })
})

describe('"no row" written as Prisma documents it', () => {
  it('holds for a custom data provider, unpaged streams, items and sub-collections', async () => {
    // Prisma reads these as no row at the top of a where, some of them as every row nested.
    for (const none of [
      { OR: [] },
      { AND: [{ OR: [] }] },
      { NOT: {} },
    ] as Prisma.BookWhereInput[]) {
      const rules: HydraAccess = {
        Book: { scope: (c) => (librarian(c) ? undefined : none) },
        Author: { scope: (c) => (librarian(c) ? undefined : (none as Prisma.AuthorWhereInput)) },
        Loan: { scope: (c) => (librarian(c) ? undefined : (none as Prisma.LoanWhereInput)) },
      }
      const server = await serve(rules)
      try {
        const at = (path: string) => read('reader3', path, server.origin)
        const label = JSON.stringify(none)
        // The provider nests its where in its own AND and in a relation's filter.
        const popular = await at('/books/popular')
        expect(popular.body['hydra:totalItems'], label).toBe(0)
        expect(popular.body['hydra:member'], label).toEqual([])
        expect(
          (await read('librarian', '/books/popular', server.origin)).body['hydra:totalItems']
        ).toBe((await read('librarian', '/books/popular')).body['hydra:totalItems'])
        for (const path of ['/loans?pagination=false', '/loans?partial=true', '/loans'])
          expect((await at(path)).body['hydra:member'], `${label} ${path}`).toEqual([])
        const books = await at('/books?title=a&page=1')
        expect(books.body['hydra:totalItems'], label).toBe(0)
        expect((await at('/books/1')).status, label).toBe(404)
        expect((await at('/authors/1')).status, label).toBe(404)
        expect((await at('/authors/1/books')).status, label).toBe(404)
        // Through a relation, an author no row of which is visible matches no book.
        const through = await read('librarian', '/books?author.name=a', server.origin)
        expect(through.body['hydra:totalItems']).toBeGreaterThan(0)
      } finally {
        await server.close()
      }
    }
  })
})

/** A collection request and the oracle of an identity: the ids, in order, and the total. */
interface Case {
  path: string
  /** The page size (default 10). */
  perPage?: number
  oracle: (
    who: LibraryClaims | undefined
  ) => Promise<{ ids: unknown[]; total?: number; status?: number }>
}

const bookIds = async (where: Prisma.BookWhereInput, window = {}, orderBy?: object[]) => {
  const rows = await prisma.book.findMany({
    where,
    orderBy: (orderBy ?? [{ id: 'asc' }]) as Prisma.BookOrderByWithRelationInput[],
    select: { id: true },
    ...window,
  })
  return rows.map((row) => row.id)
}

const CASES: Case[] = [
  {
    path: '/books?page=2',
    oracle: async (who) => ({
      ids: await bookIds(and(scopes.Book(who)), { skip: 10, take: 10 }),
      total: await prisma.book.count({ where: and(scopes.Book(who)) }),
    }),
  },
  {
    path: '/books?author.name=a&order[title]=desc&page=1',
    oracle: async (who) => {
      const where = and<Prisma.BookWhereInput>(scopes.Book(who), {
        author: {
          is: and<Prisma.AuthorWhereInput>(scopes.Author(who), { name: { contains: 'a' } }),
        },
      })
      return {
        ids: await bookIds(where, { take: 10 }, [{ title: 'desc' }, { id: 'asc' }]),
        total: await prisma.book.count({ where }),
      }
    },
  },
  {
    path: '/books?author[]=/authors/2&author[]=3',
    oracle: async () => ({ ids: [] }),
  },
  {
    path: '/authors/2/books',
    oracle: async (who) => {
      // The parent must be visible: otherwise the 404 of a missing author.
      const parent = await prisma.author.count({ where: and({ id: 2 }, scopes.Author(who)) })
      if (parent === 0) return { ids: [], status: 404 }
      const where = and<Prisma.BookWhereInput>(scopes.Book(who), { authorId: 2 })
      return { ids: await bookIds(where, { take: 10 }), total: await prisma.book.count({ where }) }
    },
  },
  {
    path: '/books/popular',
    perPage: 5,
    oracle: async (who) => {
      const where = and<Prisma.BookWhereInput>(scopes.Book(who), { loans: { some: {} } })
      return { ids: [], total: await prisma.book.count({ where }) }
    },
  },
  {
    path: '/loans?partial=true&page=2',
    oracle: async (who) => ({
      ids: (
        await prisma.loan.findMany({
          where: and(scopes.Loan(who)),
          orderBy: { id: 'asc' },
          skip: 10,
          take: 10,
          select: { id: true },
        })
      ).map((row) => row.id),
    }),
  },
  {
    path: '/loans?pagination=false&exists[returnedAt]=false',
    oracle: async (who) => ({
      ids: (
        await prisma.loan.findMany({
          where: and<Prisma.LoanWhereInput>(scopes.Loan(who), { returnedAt: null }),
          orderBy: { id: 'asc' },
          select: { id: true },
        })
      ).map((row) => row.id),
    }),
  },
  {
    path: '/books/3/loans',
    oracle: async (who) => {
      // Book 3 is not poetry: every identity sees it.
      expect((await prisma.book.findUniqueOrThrow({ where: { id: 3 } })).genre).not.toBe('POETRY')
      const where = and<Prisma.LoanWhereInput>(scopes.Loan(who), { bookId: 3 })
      return {
        ids: (
          await prisma.loan.findMany({
            where,
            orderBy: { id: 'asc' },
            take: 10,
            select: { id: true },
          })
        ).map((row) => row.id),
        total: await prisma.loan.count({ where }),
      }
    },
  },
]

describe('the leak hunter', () => {
  for (const who of Object.keys(IDENTITIES) as Identity[]) {
    it(`gives ${who} exactly the rows its scopes allow`, async () => {
      for (const { path, oracle, perPage = 10 } of CASES) {
        const answer = await read(who, path)
        if (path.includes('/loans') && who === 'anonymous') {
          expect(answer.status, path).toBe(401)
          continue
        }
        const expected = await oracle(whoIs(who))
        expect(answer.status, `${who} ${path}`).toBe(expected.status ?? 200)
        if (expected.status) continue
        if (!path.startsWith('/books/popular') && !path.includes('author[]=/authors/2'))
          expect(idsOf(answer.body), `${who} ${path}`).toEqual(expected.ids)
        if (path.startsWith('/books/popular')) {
          const visible = await bookIds(and(scopes.Book(whoIs(who))))
          for (const id of idsOf(answer.body)) expect(visible, `${who} ${path}`).toContain(id)
        }
        if (path.includes('author[]=/authors/2')) {
          const visible = await prisma.book.findMany({
            where: and<Prisma.BookWhereInput>(scopes.Book(whoIs(who)), {
              authorId: { in: [2, 3] },
              author: { is: and(scopes.Author(whoIs(who))) },
            }),
            orderBy: { id: 'asc' },
            take: 10,
            select: { id: true },
          })
          expect(idsOf(answer.body), `${who} ${path}`).toEqual(visible.map((row) => row.id))
        }
        if (expected.total !== undefined)
          expect(answer.body['hydra:totalItems'], `${who} ${path}`).toBe(expected.total)
        // Links name pages of this caller's rows only: the last page holds its last rows.
        const view = answer.body['hydra:view'] as Record<string, string> | undefined
        if (expected.total !== undefined && view?.['hydra:last']) {
          const last = Math.max(1, Math.ceil(expected.total / perPage))
          expect(view['hydra:last'], `${who} ${path}`).toMatch(new RegExp(`page=${last}$`))
        }
      }
    })

    it(`walks ${who}'s activity feed by cursor through visible events only`, async () => {
      const scope = scopes.Activity(whoIs(who))
      const expected = (
        await prisma.activity.findMany({
          where: and(scope),
          orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
          take: 60,
          select: { id: true, occurredAt: true },
        })
      ).map((row) => row.id)
      const seen: unknown[] = []
      let next: string | undefined = '/activities?kind[]=loan&kind[]=review&kind[]=return'
      const wanted = (
        await prisma.activity.findMany({
          where: and<Prisma.ActivityWhereInput>(scope, {
            kind: { in: ['loan', 'review', 'return'] },
          }),
          orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
          take: 60,
          select: { id: true },
        })
      ).map((row) => row.id)
      for (let page = 0; page < 3 && next; page += 1) {
        const answer = await read(who, next)
        expect(answer.status).toBe(200)
        seen.push(...idsOf(answer.body))
        const view = answer.body['hydra:view'] as Record<string, string>
        next = view['hydra:next']
        // The cursor names the last visible event of the page.
        const last = members(answer.body).at(-1)
        if (next && last) expect(decodeURIComponent(next)).toContain(String(last.occurredAt))
      }
      expect(seen).toEqual(wanted)
      expect(expected.length).toBeGreaterThan(0)
    })
  }
})

describe("the app's own routes (src/loan-returns.ts)", () => {
  it('write only what the rules of the reads let the caller read', async () => {
    const returning = async (on: string, who: Identity, id: number | string) => {
      const token = tokens.get(who)
      const response = await fetch(`${on}/loans/${id}/return`, {
        method: 'POST',
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, text }
    }
    const open = (borrower: string) =>
      prisma.loan.findFirstOrThrow({
        where: { borrower, returnedAt: null },
        orderBy: { id: 'asc' },
      })
    const example = await startServer(createApp(prisma, { auth: { secret: SECRET } }).fetch)
    try {
      const theirs = await open('Reader 7')
      // Another reader's loan is a missing one, and stays open.
      const other = await returning(example.origin, 'reader3', theirs.id)
      const missing = await returning(example.origin, 'reader3', 99999)
      expect(other.status).toBe(404)
      expect(other.text).toBe(missing.text.replaceAll('99999', String(theirs.id)))
      expect((await prisma.loan.findUniqueOrThrow({ where: { id: theirs.id } })).returnedAt).toBe(
        null
      )
      // The guard's 401, with its challenge, before any read, saying what the route does.
      const anonymous = await returning(example.origin, 'anonymous', theirs.id)
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get('WWW-Authenticate')).toBe('Bearer')
      expect(JSON.parse(anonymous.text)).toMatchObject({
        detail: 'Authentication is required to write this resource.',
      })
      const reading = await fetch(`${example.origin}/loans/${theirs.id}`)
      expect(await reading.json()).toMatchObject({
        status: 401,
        detail: 'Authentication is required to read this resource.',
      })
      for (const id of ['0', '3abc', '99999999999', '-1'])
        expect((await returning(example.origin, 'reader3', id)).status, id).toBe(404)
      // The reader's own loan, and any loan for a librarian.
      const mine = await open('Reader 3')
      expect((await returning(example.origin, 'reader3', mine.id)).status).toBe(204)
      expect((await prisma.loan.findUniqueOrThrow({ where: { id: mine.id } })).returnedAt).not.toBe(
        null
      )
      expect((await returning(example.origin, 'reader3', mine.id)).status).toBe(204)
      expect((await returning(example.origin, 'librarian', theirs.id)).status).toBe(204)
      expect(
        (await prisma.loan.findUniqueOrThrow({ where: { id: theirs.id } })).returnedAt
      ).not.toBe(null)
    } finally {
      await example.close()
    }
  })

  it("answer a guard's 403 for a write as refusing the write, and reads as refusing the read", async () => {
    const loan = await prisma.loan.findFirstOrThrow({ where: { borrower: 'Reader 3' } })
    const rules: HydraAccess<LibraryEnv> = { Loan: { guard: () => 'forbidden' } }
    const example = await startServer(
      createApp(prisma, { auth: { secret: SECRET, access: rules } }).fetch
    )
    const answer = async (method: string, path: string) => {
      const response = await fetch(`${example.origin}${path}`, {
        method,
        headers: { Authorization: `Bearer ${tokens.get('reader3')}` },
      })
      return {
        status: response.status,
        detail: ((await response.json()) as Record<string, unknown>).detail,
      }
    }
    try {
      expect(await answer('POST', `/loans/${loan.id}/return`)).toEqual({
        status: 403,
        detail: 'The caller may not write this resource.',
      })
      for (const path of ['/loans', `/loans/${loan.id}`, `/books/${loan.bookId}/loans`])
        expect(await answer('GET', path), path).toEqual({
          status: 403,
          detail: 'The caller may not read this resource.',
        })
    } finally {
      await example.close()
    }
    expect(await prisma.loan.findUniqueOrThrow({ where: { id: loan.id } })).toEqual(loan)
  })

  it('read "no row" as no row, however the scope writes it', async () => {
    const loan = await prisma.loan.findFirstOrThrow({ where: { returnedAt: null } })
    for (const none of [{ OR: [] }, { AND: [{ OR: [] }] }, { NOT: {} }]) {
      const rules: HydraAccess<LibraryEnv> = { Loan: { scope: () => none } }
      const example = await startServer(
        createApp(prisma, { auth: { secret: SECRET, access: rules } }).fetch
      )
      try {
        const response = await fetch(`${example.origin}/loans/${loan.id}/return`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${tokens.get('reader3')}` },
        })
        expect(response.status, JSON.stringify(none)).toBe(404)
      } finally {
        await example.close()
      }
    }
    expect((await prisma.loan.findUniqueOrThrow({ where: { id: loan.id } })).returnedAt).toBe(null)
  })
})

describe('the example server (src/auth.ts)', () => {
  it('refuses anonymous callers its loans, shows readers theirs and librarians every one, with the borrowers of those still out', async () => {
    const example = await startServer(createApp(prisma, { auth: { secret: SECRET } }).fetch)
    try {
      const loans = async (who: Identity) => {
        const token = tokens.get(who)
        const response = await fetch(`${example.origin}/loans?pagination=false`, {
          headers: token ? { Authorization: `Bearer ${token}` } : {},
        })
        return { status: response.status, body: (await response.json()) as Record<string, unknown> }
      }
      const anonymous = await loans('anonymous')
      expect(anonymous.status).toBe(401)
      const own = await prisma.loan.findMany({
        where: { borrower: 'Reader 3' },
        orderBy: { id: 'asc' },
        select: { id: true },
      })
      expect(own.length).toBeGreaterThan(0)
      expect(idsOf((await loans('reader3')).body)).toEqual(own.map((row) => row.id))
      const all = await loans('librarian')
      expect(idsOf(all.body)).toHaveLength(await prisma.loan.count())
      // A librarian sees the borrower of a loan still out, a reader of every loan of theirs.
      const out = new Set(
        (await prisma.loan.findMany({ where: { returnedAt: null }, select: { id: true } })).map(
          (row) => row.id
        )
      )
      expect(out.size).toBeGreaterThan(0)
      expect(out.size).toBeLessThan(idsOf(all.body).length)
      for (const loan of all.body['hydra:member'] as Record<string, unknown>[])
        expect('borrower' in loan, String(loan['@id'])).toBe(out.has(Number(loan.id)))
      const mine = (await loans('reader3')).body['hydra:member'] as Record<string, unknown>[]
      expect(mine.every((loan) => loan.borrower === 'Reader 3')).toBe(true)
      // The rest of the library stays public.
      expect((await fetch(`${example.origin}/books/1`)).status).toBe(200)
    } finally {
      await example.close()
    }
  })

  it('reads a signed token whose claim holds NUL as no caller: a 401 on every loan route', async () => {
    const example = await startServer(createApp(prisma, { auth: { secret: SECRET } }).fetch)
    const loan = await prisma.loan.findFirstOrThrow({ where: { borrower: 'Reader 3' } })
    const routes = [
      ['GET', '/loans'],
      ['GET', '/loans?pagination=false'],
      ['GET', `/loans/${loan.id}`],
      ['GET', `/books/${loan.bookId}/loans`],
      ['POST', `/loans/${loan.id}/return`],
    ] as const
    const answer = async (method: string, path: string, token?: string) => {
      const response = await fetch(`${example.origin}${path}`, {
        method,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      })
      return { status: response.status, headers: comparable(response), body: await response.text() }
    }
    const comparable = (response: Response) =>
      [...response.headers].filter(([name]) => name !== 'date' && name !== 'content-length')
    try {
      for (const sub of ['Reader 3\u0000', '\u0000', 'Reader\u00003']) {
        // hono/jwt verifies its signature: only the claims' own check can refuse it.
        const token = await tokenFor({ sub, role: 'reader' }, SECRET)
        for (const [method, path] of routes) {
          const refused = await answer(method, path, token)
          expect(refused.status, `${JSON.stringify(sub)} ${method} ${path}`).toBe(401)
          expect(refused).toEqual(await answer(method, path))
        }
      }
      expect(await prisma.loan.findUniqueOrThrow({ where: { id: loan.id } })).toEqual(loan)
    } finally {
      await example.close()
    }
  })
})
