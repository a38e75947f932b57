/**
 * What the types and the OpenAPI document promise a caller, under access rules that hide fields
 * and guard routes (docs/security.md#rules-in-types): the example's schema served behind hono/jwt
 * with rules typed by the app's Env. Every answer a reader and an anonymous caller get is
 * validated against the OpenAPI document the same app serves; Hono's RPC client (`hc`) types
 * the fields a reader may not receive as optional, and a guarded route's 401 and 403.
 */

import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { HydraProblemError, hcWalker } from '@prisma-hydra/runtime/client'
import type { EmbeddedMember } from '@prisma-hydra/runtime/generated'
import { Hono } from 'hono'
import { hc } from 'hono/client'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import {
  type AuthorMember,
  type BookItemQuery,
  type BookMember,
  type BookShapedMember,
  createHydraApp,
  type HydraAccess,
  type HydraMembers,
  type LoanMember,
} from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { authenticate, type LibraryEnv, tokenFor } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { checkedAgainstOpenApi, type OpenApiCheck } from './support/openapi-check.js'

const SECRET = 'caller types test secret'

/** What the example's books embed of their author: every shown field (`properties: true`). */
type AuthorEmbed = {
  model: 'Author'
  fields: [
    { name: 'id'; type: 'Int' },
    { name: 'name'; type: 'String' },
    { name: 'country'; type: 'String'; required: false },
  ]
}

interface HydraClass {
  'hydra:title': string
  'hydra:supportedProperty': { 'hydra:title': string; 'hydra:required': boolean }[]
}

/** The rules, typed by the app's Env: each `c.get('jwtPayload')` is the example's claims. */
const access = {
  Author: {
    hidden: (c) => (c.get('jwtPayload')?.role === 'librarian' ? [] : ['name', 'country']),
  },
  Book: { hidden: (c) => (c.get('jwtPayload')?.role === 'librarian' ? [] : ['isbn']) },
  Loan: {
    guard: (c) => {
      const claims = c.get('jwtPayload')
      if (!claims) return 'unauthenticated'
      return claims.role === 'librarian' ? 'allow' : 'forbidden'
    },
  },
} satisfies HydraAccess<LibraryEnv>

// A rule reads only what the Env declares, and hides only fields the resource may hide.
const mistyped: HydraAccess<LibraryEnv>[] = [
  // @ts-expect-error: the Env has no variable `tenant`
  { Loan: { guard: (c) => (c.get('tenant') ? 'allow' : 'forbidden') } },
  // @ts-expect-error: the claims have no `tenant`
  { Loan: { scope: (c) => ({ borrower: c.get('jwtPayload')?.tenant }) } },
  // @ts-expect-error: an author's key is in its `@id`: no rule hides it
  { Author: { hidden: () => ['id'] } },
  // @ts-expect-error: nor shows it on some rows only
  { Author: { shownWhere: () => ({ id: { country: 'UK' } }) } },
  // @ts-expect-error: a link is hidden or scoped, never shown on some rows (its other side tells it)
  { Book: { shownWhere: () => ({ author: { genre: 'CHILDREN' } }) } },
  // @ts-expect-error: `/books/recent` is ordered by `publishedAt`, which bounds the hidden values
  { Book: { shownWhere: () => ({ publishedAt: { genre: 'CHILDREN' } }) } },
  // @ts-expect-error: `occurredAt` orders Activity's cursor, written in its links
  { Activity: { shownWhere: (c) => (c.get('jwtPayload') ? undefined : { occurredAt: {} }) } },
  // A field no order, cursor or key holds may be shown on some rows.
  { Book: { shownWhere: () => ({ isbn: { genre: 'CHILDREN' } }) } },
]

function createCallerApp(prisma: PrismaClient) {
  const app = new Hono<LibraryEnv>()
    .use(authenticate(SECRET))
    .route('/', createHydraApp({ prisma, access }))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  return app
}

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let close: () => Promise<void>
let openApi: OpenApiCheck
const tokens: Record<'reader' | 'librarian', string> = { reader: '', librarian: '' }

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  tokens.reader = await tokenFor({ sub: 'Reader 3', role: 'reader' }, SECRET)
  tokens.librarian = await tokenFor({ sub: 'Librarian', role: 'librarian' }, SECRET)
  openApi = checkedAgainstOpenApi(createCallerApp(prisma).fetch)
  ;({ origin, close } = await startServer(openApi.fetch))
}, 120_000)

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

const clientOf = (token?: string) =>
  hc<ReturnType<typeof createCallerApp>>(origin, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })

describe('members under rules that hide fields', () => {
  it('types the fields a rule may hide as optional, and a reader gets none of them', async () => {
    expect(mistyped).toHaveLength(8)
    type Author = HydraMembers<typeof access>['Author']
    expectTypeOf<Author>().toEqualTypeOf<AuthorMember<'name' | 'country'>>()
    expectTypeOf<HydraMembers<typeof access>['Book']>().toEqualTypeOf<BookMember<'isbn'>>()
    // Resources whose rules hide nothing keep every field.
    expectTypeOf<HydraMembers<typeof access>['Loan']>().toEqualTypeOf<LoanMember>()
    const response = await clientOf(tokens.reader).authors.$get()
    if (!response.ok) throw new Error(`GET /authors: ${response.status}`)
    const page = await response.json()
    expectTypeOf(page['hydra:member']).toEqualTypeOf<Author[]>()
    const [first] = page['hydra:member']
    if (!first) throw new Error('no author')
    // @ts-expect-error: a reader may not receive an author's name; a client trusting it crashes
    const trusting = () => first.name.length
    expect(trusting).toThrow(TypeError)
    expect(first.books).toEqual(expect.any(String))
    expect(Object.keys(first)).toEqual(['@id', '@type', 'id', 'books'])
    const item = await clientOf(tokens.reader).authors[':id'].$get({
      param: { id: String(first.id) },
    })
    if (!item.ok) throw new Error(`GET /authors/${first.id}: ${item.status}`)
    const author = await item.json()
    expectTypeOf(author.country).toEqualTypeOf<string | null | undefined>()
    expect('country' in author).toBe(false)
  })

  it('gives a librarian every field, as the types allow', async () => {
    const response = await clientOf(tokens.librarian).authors.$get()
    if (!response.ok) throw new Error(`GET /authors: ${response.status}`)
    const [first] = (await response.json())['hydra:member']
    expect(Object.keys(first ?? {})).toEqual(['@id', '@type', 'id', 'name', 'country', 'books'])
  })

  it('types the members of a sub-collection by their own rules', async () => {
    const response = await clientOf(tokens.reader).authors[':id'].books.$get({
      param: { id: '1' },
    })
    if (!response.ok) throw new Error(`GET /authors/1/books: ${response.status}`)
    const books = (await response.json())['hydra:member']
    expectTypeOf(books).toEqualTypeOf<BookMember<'isbn'>[]>()
    expect(books.length).toBeGreaterThan(0)
    for (const book of books) expect(book).not.toHaveProperty('isbn')
  })

  it('answers every caller as the OpenAPI document says', async () => {
    for (const token of [undefined, tokens.reader, tokens.librarian])
      for (const path of ['/authors', '/authors/2', '/books?itemsPerPage=5', '/books/4'])
        await fetch(`${origin}${path}`, {
          headers: token ? { Authorization: `Bearer ${token}` } : {},
        }).then((response) => response.arrayBuffer())
    await fetch(`${origin}/authors/1/books`).then((response) => response.arrayBuffer())
    const result = await openApi.result()
    expect(result.violations).toEqual([])
    for (const path of ['/authors', '/authors/{id}', '/books', '/books/{id}'])
      expect(result.byPath[path]).toBeGreaterThanOrEqual(3)
  })
})

describe('the Hydra documentation under rules that hide fields', () => {
  it('marks required only what every caller receives', async () => {
    const documentation = (await fetch(`${origin}/docs.jsonld`).then((response) =>
      response.json()
    )) as { 'hydra:supportedClass': HydraClass[] }
    const required = (name: string) =>
      documentation['hydra:supportedClass']
        .find((type) => type['hydra:title'] === name)
        ?.['hydra:supportedProperty'].filter((property) => property['hydra:required'])
        .map((property) => property['hydra:title'])
        .sort()
    const reader = { Authorization: `Bearer ${tokens.reader}` }
    for (const [name, path] of [
      ['Author', '/authors/2'],
      ['Book', '/books/4'],
    ] as const) {
      const item = (await fetch(`${origin}${path}`, { headers: reader }).then((response) =>
        response.json()
      )) as Record<string, unknown>
      const names = required(name)
      expect(names).toEqual(['id'])
      for (const field of names ?? []) expect(item).toHaveProperty(field)
    }
    // A type no rule hides keeps every field required.
    expect(required('Review')?.length).toBeGreaterThan(1)
  })
})

describe("a guarded route's problems", () => {
  it('types the 401 and 403 a guard answers', async () => {
    const anonymous = await clientOf().loans.$get()
    if (anonymous.ok) throw new Error('GET /loans answered an anonymous caller')
    if (anonymous.status === 401) {
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer')
      expect((await anonymous.json()).status).toBe(401)
    } else throw new Error(`GET /loans: ${anonymous.status}, not 401`)
    const reader = await clientOf(tokens.reader).loans[':id'].$get({ param: { id: '1' } })
    // Loan items take the property filter: a malformed selection is a 400 (docs/member-shape.md).
    expectTypeOf(reader.status).toEqualTypeOf<200 | 400 | 401 | 403 | 404 | 406 | 500 | 503>()
    const author = await clientOf(tokens.reader).authors[':id'].$get({ param: { id: '1' } })
    expectTypeOf(author.status).toEqualTypeOf<200 | 401 | 403 | 404 | 406 | 500 | 503>()
    await author.arrayBuffer()
    expect(reader.status).toBe(403)
    await reader.arrayBuffer()
  })
})

describe('shaped answers (docs/member-shape.md)', () => {
  it("types a selection's members, whose embedded author's fields a client reads", async () => {
    const client = clientOf(tokens.librarian)
    const query = { 'properties[]': ['title' as const], 'properties[author][]': ['name' as const] }
    // @ts-expect-error: Author offers no email to embed, so hc refuses to send it
    const misspelt = { 'properties[author][]': ['email' as const] } satisfies BookItemQuery
    expect(misspelt).toBeDefined()
    const response = await client.books[':id'].$get({ param: { id: '1' }, query })
    if (!response.ok) throw new Error(`GET /books/1: ${response.status}`)
    const book: BookShapedMember = await response.json()
    expectTypeOf(book.title).toEqualTypeOf<string | undefined>()
    const { author } = book
    expectTypeOf(author).toEqualTypeOf<string | EmbeddedMember<AuthorEmbed> | undefined>()
    if (typeof author !== 'object') throw new Error('the author is not embedded')
    expectTypeOf(author.name).toEqualTypeOf<string | undefined>()
    // An optional field of the author may be null, as its member's.
    expectTypeOf(author.country).toEqualTypeOf<string | null | undefined>()
    // @ts-expect-error: an embedded author has no email, the type says so
    expect(author.email).toBeUndefined()
    const row = await prisma.book.findUniqueOrThrow({ where: { id: 1 }, include: { author: true } })
    expect(author.name).toBe(row.author.name)
    expect(book.title).toBe(row.title)
    // A page's members, read the same way.
    const page = await client.books.$get({ query })
    if (!page.ok) throw new Error(`GET /books: ${page.status}`)
    const members: BookShapedMember[] = (await page.json())['hydra:member']
    for (const member of members)
      if (typeof member.author === 'object') expect(member.author['@type']).toBe('Author')
    // A selection is not a whole member: the whole member's type refuses to stand for it.
    // @ts-expect-error: a shaped member may lack the title a whole member has
    const whole: BookMember = book
    expect(whole).toBeDefined()
  })
})

describe('walks selecting fields a rule may hide (docs/clients.md)', () => {
  const walkerAs = (token: string) =>
    hcWalker(clientOf(token).books.$get, {
      headers: { Authorization: `Bearer ${token}` },
    }).shaped<BookShapedMember>()

  it('types a selected field required: every member of a successful answer has it', async () => {
    const walker = walkerAs(tokens.librarian)({
      query: { 'properties[]': ['isbn'], 'properties[author][]': ['name'], itemsPerPage: 50 },
    })
    const books = []
    for await (const book of walker.members()) books.push(book)
    expectTypeOf(books).toEqualTypeOf<
      {
        '@id': string
        '@type': 'Book'
        isbn: string
        author: string | { '@id': string; '@type': 'Author'; name: string }
      }[]
    >()
    const rows = await prisma.book.findMany({ include: { author: true }, orderBy: { id: 'asc' } })
    const nameOf = (author: string | { name: string }) =>
      typeof author === 'string' ? `not embedded: ${author}` : author.name
    expect(books.map((book) => [book.isbn, nameOf(book.author)])).toEqual(
      rows.map((row) => [row.isbn, row.author.name])
    )
  })

  it('answers a caller each field is hidden from with a 400, not a member without it', async () => {
    const walker = walkerAs(tokens.reader)
    for (const selecting of [
      walker({ query: { 'properties[]': ['isbn'] } }),
      walker({ query: { 'properties[author][]': ['name'] } }),
    ]) {
      const error = await selecting.page(null).catch((thrown: unknown) => thrown)
      if (!(error instanceof HydraProblemError)) throw new Error(`no problem: ${String(error)}`)
      expect(error.status).toBe(400)
    }
  })
})
