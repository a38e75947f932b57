/**
 * A capped to-many declared embed (`@property(embed: [returnedAt, borrower], first: 3)` on
 * `Book.loans`, test/fixtures/embeds) under a request's property filter (`@filter(properties:
 * true)` on books): `properties[]=loans` shows the relation embedded as declared, alone or beside
 * other names; `properties[]=title` leaves it out; `properties[loans][]=borrower` asks for what
 * only a to-one link may (an embedding by request), and is refused with a 400. On pages, unpaged
 * streams, cursor pages and items, as a librarian and as a reader whose scope of loans cuts each
 * book's loans, byte for byte alike on both engines. Expected values are read from the database.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HydraAccess } from '#fixtures/embeds/hydra/index.js'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { type LibraryEnv, tokenFor } from '../src/auth.js'
import { declaredLoans, EMBEDS_SCHEMA, embedsOnBothEngines } from './support/embeds-app.js'
import { createAdapter, freshDatabase, type TestDatabase } from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'

const SECRET = 'declared-embed properties secret'

/** A reader sees their own loans, without when they were returned; books are everyone's. */
const access = {
  Loan: {
    guard: (c) => (c.get('jwtPayload') ? 'allow' : 'unauthenticated'),
    scope: (c) => {
      const claims = c.get('jwtPayload')
      return claims?.role === 'reader' ? { borrower: claims.sub } : undefined
    },
    hidden: (c) => (c.get('jwtPayload')?.role === 'reader' ? ['returnedAt' as const] : []),
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
  const servers = await embedsOnBothEngines(SECRET, { prisma, access, batchSize: 4, adapter })
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

/** The status and body of `path`, the same on both engines, byte for byte. */
async function read(path: string, caller: string): Promise<{ status: number; body: Body }> {
  const headers = { Authorization: `Bearer ${tokens.get(caller)}` }
  const answerOf = async (server: string) => {
    const response = await fetch(`${server}${path}`, { headers })
    return { status: response.status, text: await response.text() }
  }
  const [own, compiled] = await Promise.all([answerOf(origin), answerOf(twin)])
  expect(compiled, `${caller} ${path}`).toStrictEqual(own)
  return { status: own.status, body: JSON.parse(own.text) as Body }
}

const members = (body: Body) => body['hydra:member'] as Body[]

/** Each book of `ids` with its loans as the declaration embeds them, from the database. */
async function declared(ids: readonly number[], reader: boolean): Promise<Map<number, Body>> {
  const books = await prisma.book.findMany({
    where: { id: { in: [...ids] } },
    include: {
      loans: { where: reader ? { borrower: 'Reader 1' } : {}, orderBy: { id: 'asc' } },
    },
  })
  return new Map(books.map((book) => [book.id, declaredLoans(book.id, book.loans, reader)]))
}

/** The routes of books that take the property filter, each with the books it shows. */
const ROUTES: Array<{ path: string; ids: number[] }> = [
  { path: '/books', ids: Array.from({ length: 10 }, (_, index) => index + 1) },
  { path: '/books?pagination=false', ids: Array.from({ length: 10 }, (_, index) => index + 1) },
  { path: '/books/latest', ids: [10, 9, 8] },
]

describe("a capped to-many declared embed under a request's property filter", () => {
  for (const caller of ['librarian', 'reader']) {
    const reader = caller === 'reader'

    it(`embeds the loans as declared when named, alone or beside others, as a ${caller}`, async () => {
      for (const { path, ids } of ROUTES) {
        const loans = await declared(ids, reader)
        const join = path.includes('?') ? '&' : '?'
        const alone = await read(`${path}${join}properties[]=loans`, caller)
        expect(alone.status, path).toBe(200)
        expect(members(alone.body), path).toStrictEqual(
          ids.map((id) => ({ '@id': `/books/${id}`, '@type': 'Book', loans: loans.get(id) }))
        )
        const beside = await read(`${path}${join}properties[]=title&properties[]=loans`, caller)
        expect(members(beside.body), path).toStrictEqual(
          ids.map((id) => ({
            '@id': `/books/${id}`,
            '@type': 'Book',
            title: `Book ${id}`,
            loans: loans.get(id),
          }))
        )
        // The same relation as without the parameter: the declaration, unchanged.
        const whole = await read(path, caller)
        expect(members(whole.body).map((book) => book.loans)).toStrictEqual(
          members(alone.body).map((book) => book.loans)
        )
      }
      // Reader 1 has two of book 1's five loans: the scope cuts what the declaration shows.
      const first = (await declared([1], reader)).get(1) as Body
      expect(first['hydra:member']).toHaveLength(reader ? 2 : 3)
      for (const id of [1, 9, 10]) {
        const item = await read(`/books/${id}?properties[]=loans`, caller)
        expect(item.status).toBe(200)
        expect(item.body).toStrictEqual({
          '@context': '/contexts/Book',
          '@id': `/books/${id}`,
          '@type': 'Book',
          loans: (await declared([id], reader)).get(id),
        })
      }
    })

    it(`leaves the loans out when other properties are named, as a ${caller}`, async () => {
      for (const { path, ids } of ROUTES) {
        const join = path.includes('?') ? '&' : '?'
        const { status, body } = await read(`${path}${join}properties[]=title`, caller)
        expect(status, path).toBe(200)
        expect(members(body)).toStrictEqual(
          ids.map((id) => ({ '@id': `/books/${id}`, '@type': 'Book', title: `Book ${id}` }))
        )
      }
      const item = await read('/books/1?properties[]=title&properties[]=isbn', caller)
      expect(Object.keys(item.body)).toStrictEqual(['@context', '@id', '@type', 'title', 'isbn'])
    })

    it(`refuses to embed the loans with fields of the request's, as a ${caller}`, async () => {
      for (const path of [
        '/books?properties[loans][]=borrower',
        '/books?properties[]=title&properties[loans][]=borrower',
        '/books/latest?properties[loans][]=returnedAt',
        '/books/1?properties[loans][]=borrower',
      ]) {
        const { status, body } = await read(path, caller)
        expect(status, path).toBe(400)
        expect(body.detail, path).toContain('"loans" is not a relation to embed')
      }
    })
  }
})
