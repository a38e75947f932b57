/**
 * Access rules over renamed relations (docs/security.md, test/fixtures/access): a book's author
 * served as its `writer`, an author's books as their `works`. Hiding a link by its API name hides
 * every parameter that would tell it (they are named by the Prisma field: `author=`,
 * `author.name=`, `exists[author]`, `order[author.name]`) and closes the sub-collections that
 * would list it, as does a parent hiding its own link to them; a sub-collection's page carries its parent's scope, so a parent leaving the
 * caller's scope between the parent's read and the page's lists none of its rows.
 */

import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { type Context, Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createAuthorApp,
  createBookApp,
  createHydraApp,
  createReviewApp,
  type HydraAccess,
} from '#fixtures/access/hydra/index.js'
import { PrismaClient } from '#fixtures/access/prisma/client.js'
import { authenticate, claimsOf, tokenFor } from '../src/auth.js'
import { type Answer, answerTo, comparableHeaders } from './support/caller-answer.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'

const SCHEMA = new URL('./fixtures/access/schema.prisma', import.meta.url).pathname
const SECRET = 'renamed access secret'

/**
 * `reader`: books hide their writer and shelves; `critic`: authors hide their works; `guest`: sees the
 * authors of AR, open shelves and books not titled `Withdrawn` only; `librarian`: everything.
 */
const IDENTITIES = ['reader', 'critic', 'guest', 'librarian'] as const
type Identity = (typeof IDENTITIES)[number]
const role = (c: Context) => claimsOf(c)?.sub

const access: HydraAccess = {
  Book: {
    hidden: (c) => (role(c) === 'reader' ? ['writer', 'shelves'] : []),
    scope: (c) => (role(c) === 'guest' ? { title: { not: 'Withdrawn' } } : undefined),
  },
  Author: {
    hidden: (c) => (role(c) === 'critic' ? ['works'] : []),
    scope: (c) => (role(c) === 'guest' ? { country: 'AR' } : undefined),
  },
  Shelf: { scope: (c) => (role(c) === 'guest' ? { open: true } : undefined) },
}

let prisma: PrismaClient
let database: TestDatabase
let origin: string
/** The resources' own apps, mounted side by side without createHydraApp. */
let separate: string
let close: () => Promise<void>
let closeSeparate: () => Promise<void>
const tokens = new Map<Identity, string>()
/** Set by a test: run once, after the next read of a row by its key (a parent's read). */
let afterParentRead: (() => Promise<unknown>) | undefined

beforeAll(async () => {
  database = await freshDatabase(SCHEMA)
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.author.createMany({
    data: [
      { id: 1, name: 'Ana', country: 'AR' },
      { id: 2, name: 'Bea', country: 'GB' },
      { id: 3, name: 'Cid', country: 'AR' },
    ],
  })
  await prisma.book.createMany({
    data: Array.from({ length: 12 }, (_, index) => ({
      id: index + 1,
      code: `B-${index + 1}`,
      title: `Book ${index + 1}`,
      // Books 10 to 12 have no author.
      authorId: index < 9 ? 1 + (index % 3) : null,
    })),
  })
  // Shelf 1 holds books 1 to 4, shelf 2 the others; book 1 has reviews 1 and 2.
  await prisma.shelf.create({
    data: {
      id: 1,
      name: 'Front',
      open: true,
      books: { connect: [1, 2, 3, 4].map((id) => ({ id })) },
    },
  })
  await prisma.shelf.create({
    data: { id: 2, name: 'Back', open: false, books: { connect: [5, 6].map((id) => ({ id })) } },
  })
  await prisma.review.createMany({
    data: [
      { id: 1, text: 'good', bookCode: 'B-1' },
      { id: 2, text: 'bad', bookCode: 'B-1' },
      { id: 3, text: 'meh', bookCode: 'B-2' },
    ],
  })
  for (const who of IDENTITIES)
    tokens.set(who, await tokenFor({ sub: who, role: 'reader' }, SECRET))
  // The app's client, with a query hook that lets a test change the database between the
  // sub-collection's parent read and its page.
  const client = prisma.$extends({
    query: {
      $allModels: {
        async findUnique({ args, query }) {
          const found = await query(args)
          const then = afterParentRead
          afterParentRead = undefined
          await then?.()
          return found
        },
      },
    },
  })
  const app = new Hono()
    .use(authenticate(SECRET))
    .route('/', createHydraApp({ prisma: client as unknown as PrismaClient, access }))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  ;({ origin, close } = await startServer(app.fetch))
  const own = new Hono()
    .use(authenticate(SECRET))
    .route('/', createAuthorApp(prisma, { access }))
    .route('/', createBookApp(prisma, { access }))
    .route('/', createReviewApp(prisma, { access }))
  own.onError(hydraErrorHandler)
  own.notFound(hydraNotFound)
  ;({ origin: separate, close: closeSeparate } = await startServer(own.fetch))
}, 120_000)

afterAll(async () => {
  await close?.()
  await closeSeparate?.()
  await prisma?.$disconnect()
  await database?.remove()
})

async function read(who: Identity, path: string): Promise<Answer> {
  return answerTo(origin, path, tokens.get(who))
}

const members = (body: Record<string, unknown>) =>
  body['hydra:member'] as Array<Record<string, unknown>>
const idsOf = (body: Record<string, unknown>) => members(body).map((member) => member.id)
const search = (body: Record<string, unknown>) => JSON.stringify(body['hydra:search'])

/** The answer to `path` is exactly the 404 of `/authors/99999/<segment>`. */
async function expectMissingParent(who: Identity, segment: string, id: number) {
  const hidden = await read(who, `/authors/${id}/${segment}`)
  const missing = await read(who, `/authors/99999/${segment}`)
  expect(hidden.status).toBe(404)
  expect(JSON.stringify(hidden.body)).toBe(
    JSON.stringify(missing.body).replaceAll('99999', String(id))
  )
  expect(comparableHeaders(hidden)).toEqual(comparableHeaders(missing))
}

/**
 * The link between books and their writer, hidden from `reader` by Book (`writer`) and from
 * `critic` by Author on its other side (`works`): the same fact, so the same answers.
 */
describe.each([
  ['reader', 'by its API name'],
  ['critic', 'on its other side'],
] as const)('a renamed link hidden from %s %s', (who, _how) => {
  const FILTERS = [
    '/books?author=/authors/1',
    '/books?author=2',
    '/books?author[]=1&author[]=3',
    '/books?author.name=Ana',
    '/books?exists[author]=false',
    '/books?exists[author]=true',
  ]

  it('leaves it out of members and items, on both of its sides', async () => {
    const all = await read(who, '/books')
    for (const member of members(all.body)) expect(member).not.toHaveProperty('writer')
    expect((await read(who, '/books/1')).body).not.toHaveProperty('writer')
    expect((await read('librarian', '/books/1')).body.writer).toBe('/authors/1')
    for (const member of members((await read(who, '/authors')).body))
      expect(member).not.toHaveProperty('works')
    expect((await read(who, '/authors/1')).body).not.toHaveProperty('works')
    expect((await read('librarian', '/authors/1')).body.works).toBe('/authors/1/works')
  })

  it('ignores every filter through it, as undeclared parameters are', async () => {
    const all = idsOf((await read(who, '/books')).body)
    expect(all).toHaveLength(10)
    for (const path of FILTERS) {
      const reader = await read(who, path)
      expect(reader.status, path).toBe(200)
      expect(idsOf(reader.body), path).toEqual(all)
      expect(reader.body['hydra:totalItems'], path).toBe(12)
      // The same filter narrows the librarian's books: it would tell the reader the link.
      const librarian = await read('librarian', path)
      expect(librarian.body['hydra:totalItems'], path).toBeLessThan(12)
    }
  })

  it('refuses the order through it as an undeclared one, and lists none of them', async () => {
    const ordered = await read(who, '/books?order[author.name]=asc')
    const unknown = await read(who, '/books?order[author.nick]=asc')
    expect(ordered.status).toBe(400)
    expect(JSON.stringify(ordered.body)).toBe(
      JSON.stringify(unknown.body).replaceAll('author.nick', 'author.name')
    )
    expect((await read('librarian', '/books?order[author.name]=asc')).status).toBe(200)
    const reader = search((await read(who, '/books')).body)
    const librarian = search((await read('librarian', '/books')).body)
    for (const variable of [
      '"author"',
      '"author[]"',
      '"author.name"',
      '"exists[author]"',
      '"order[author.name]"',
    ]) {
      expect(reader, variable).not.toContain(variable)
      expect(librarian, variable).toContain(variable)
    }
    expect(reader).toContain('"title"')
  })

  it('hides a filter and order through it two relations away, by its name on the middle model', async () => {
    // Reviews 1 and 2 are of book 1, by Ana; review 3 of book 2, by Bea.
    expect(idsOf((await read('librarian', '/reviews?book.author.name=Ana')).body)).toEqual([1, 2])
    expect(idsOf((await read('librarian', '/reviews?book.author.name=Bea')).body)).toEqual([3])
    const reader = await read(who, '/reviews?book.author.name=Bea')
    expect(reader.status).toBe(200)
    expect(idsOf(reader.body)).toEqual([1, 2, 3])
    expect(search(reader.body)).not.toContain('book.author.name')
    expect(search((await read('librarian', '/reviews')).body)).toContain(
      '"order[book.author.name]"'
    )
    expect((await read(who, '/reviews?order[book.author.name]=asc')).status).toBe(400)
    expect((await read('librarian', '/reviews?order[book.author.name]=desc')).body).toMatchObject({
      'hydra:member': [{ id: 3 }, { id: 1 }, { id: 2 }],
    })
  })

  it('hides a path ending at the renamed link, and holds the scope of the model it names', async () => {
    // Bea (2) wrote book 2, reviewed by review 3; Ana (1) book 1, reviewed by 1 and 2.
    expect(idsOf((await read('librarian', '/reviews?book.author=2')).body)).toEqual([3])
    expect(idsOf((await read('librarian', '/reviews?book.author=/authors/1')).body)).toEqual([1, 2])
    // The link is hidden from the caller: the parameter is not hers (ignored, not listed).
    const reader = await read(who, '/reviews?book.author=2')
    expect(idsOf(reader.body)).toEqual([1, 2, 3])
    expect(search(reader.body)).not.toContain('"book.author"')
    expect(search((await read('librarian', '/reviews')).body)).toContain('"book.author"')
    // The guest sees the authors of AR only: Bea is not hers to name.
    expect(idsOf((await read('guest', '/reviews?book.author=1')).body)).toEqual([1, 2])
    expect(idsOf((await read('guest', '/reviews?book.author=2')).body)).toEqual([])
  })

  it('answers a filter two relations away within the last model’s scope', async () => {
    // The guest sees the authors of AR only: Bea's review is not hers to find through Bea.
    expect(idsOf((await read('guest', '/reviews?book.author.name=Ana')).body)).toEqual([1, 2])
    expect(idsOf((await read('guest', '/reviews?book.author.name=Bea')).body)).toEqual([])
    expect((await read('guest', '/reviews?order[book.author.name]=asc')).status).toBe(400)
    // The middle model's scope too: a withdrawn book's reviews are not found through it.
    await prisma.book.update({ where: { id: 1 }, data: { title: 'Withdrawn' } })
    try {
      expect(idsOf((await read('guest', '/reviews?book.author.name=Ana')).body)).toEqual([])
      expect(idsOf((await read('librarian', '/reviews?book.author.name=Ana')).body)).toEqual([1, 2])
    } finally {
      await prisma.book.update({ where: { id: 1 }, data: { title: 'Book 1' } })
    }
  })

  it('answers the sub-collection listing the books of one writer as a missing author', async () => {
    await expectMissingParent(who, 'works', 1)
    expect((await read('librarian', '/authors/1/works')).status).toBe(200)
  })
})

describe("a link hidden on its other side, through each resource's own app", () => {
  it('is hidden as through createHydraApp', async () => {
    const token = tokens.get('critic')
    const books = await answerTo(separate, '/books', token)
    expect(books.status).toBe(200)
    for (const member of members(books.body)) expect(member).not.toHaveProperty('writer')
    const filtered = await answerTo(separate, '/books?author.name=Ana', token)
    expect(filtered.body['hydra:totalItems']).toBe(12)
    expect(search(books.body)).not.toContain('"author.name"')
    expect((await answerTo(separate, '/reviews?order[book.author.name]=asc', token)).status).toBe(
      400
    )
    const librarian = await answerTo(separate, '/books?author.name=Ana', tokens.get('librarian'))
    expect(librarian.body['hydra:totalItems']).toBeLessThan(12)
  })
})

describe('a many-to-many link hidden on one side', () => {
  it('answers the books of one shelf as a missing shelf when books hide their shelves', async () => {
    const hidden = await read('reader', '/shelves/1/books')
    const missing = await read('reader', '/shelves/99999/books')
    expect(hidden.status).toBe(404)
    expect(JSON.stringify(hidden.body)).toBe(JSON.stringify(missing.body).replaceAll('99999', '1'))
    expect(comparableHeaders(hidden)).toEqual(comparableHeaders(missing))
    expect(idsOf((await read('librarian', '/shelves/1/books')).body)).toEqual([1, 2, 3, 4])
  })

  it('leaves the shelves’ link to their books out too', async () => {
    expect((await read('reader', '/shelves/1')).body).not.toHaveProperty('books')
    for (const member of members((await read('reader', '/shelves')).body))
      expect(member).not.toHaveProperty('books')
    expect((await read('librarian', '/shelves/1')).body.books).toBe('/shelves/1/books')
  })
})

describe('a parent hiding its own to-many link', () => {
  it('answers its sub-collection exactly as one of a missing parent', async () => {
    await expectMissingParent('critic', 'works', 1)
    expect((await read('critic', '/authors/1')).body).not.toHaveProperty('works')
    const librarian = await read('librarian', '/authors/1/works')
    expect(librarian.status).toBe(200)
    expect(idsOf(librarian.body)).toEqual([1, 4, 7])
  })
})

describe('a sub-collection’s parent leaving the scope', () => {
  /** Each kind of condition: a foreign key, a many-to-many relation, a relation by another key. */
  const RACES = [
    {
      kind: 'column',
      path: '/authors/3/works',
      rows: [3, 6, 9],
      leave: () => prisma.author.update({ where: { id: 3 }, data: { country: 'GB' } }),
      back: () => prisma.author.update({ where: { id: 3 }, data: { country: 'AR' } }),
    },
    {
      kind: 'some',
      path: '/shelves/1/books',
      rows: [1, 2, 3, 4],
      leave: () => prisma.shelf.update({ where: { id: 1 }, data: { open: false } }),
      back: () => prisma.shelf.update({ where: { id: 1 }, data: { open: true } }),
    },
    {
      kind: 'is',
      path: '/books/1/reviews',
      rows: [1, 2],
      leave: () => prisma.book.update({ where: { id: 1 }, data: { title: 'Withdrawn' } }),
      back: () => prisma.book.update({ where: { id: 1 }, data: { title: 'Book 1' } }),
    },
  ]

  /**
   * The parent leaves the guest's scope once its read found it visible; `answer` is what the
   * request then answers; after it, the parent is a missing one.
   */
  async function race(
    { path, rows, leave, back }: (typeof RACES)[number],
    answer: (raced: Awaited<ReturnType<typeof read>>) => void
  ) {
    expect(idsOf((await read('guest', path)).body)).toEqual(rows)
    afterParentRead = leave
    try {
      const raced = await read('guest', path)
      expect(afterParentRead).toBeUndefined()
      expect(raced.status).toBe(200)
      answer(raced)
      // From now on the parent is invisible: the 404 of a missing one.
      const base = path.split('?')[0] as string
      const missing = base.replace(/\/\d+\//, '/99999/')
      const now = await read('guest', base)
      expect(now.status).toBe(404)
      expect(JSON.stringify(now.body)).toBe(
        JSON.stringify((await read('guest', missing)).body).replaceAll(
          '99999',
          base.split('/')[2] as string
        )
      )
    } finally {
      afterParentRead = undefined
      await back()
    }
    expect(idsOf((await read('guest', path)).body)).toEqual(rows)
    expect(idsOf((await read('librarian', path)).body)).toEqual(rows)
  }

  for (const entry of RACES) {
    it(`reads a page with its count in its parent's snapshot (${entry.kind})`, async () => {
      // The parent, the page and the count in one transaction: the parent's leaving after its
      // read is after that snapshot, whose rows the answer lists.
      await race(entry, (raced) => {
        expect(idsOf(raced.body)).toEqual(entry.rows)
        expect(raced.body['hydra:totalItems']).toBe(entry.rows.length)
      })
    })

    it(`lists none of its rows when it leaves between its read and the rows' (${entry.kind})`, async () => {
      // A page without its count reads its parent on its own first: the rows' own condition
      // holds the parent's scope, so a parent gone by then lists none.
      await race({ ...entry, path: `${entry.path}?partial=true` }, (raced) => {
        expect(idsOf(raced.body)).toEqual([])
      })
    })
  }

  it('answers an invisible parent’s sub-collection as a missing one’s', async () => {
    await expectMissingParent('guest', 'works', 2)
    expect((await read('guest', '/shelves/2/books')).status).toBe(404)
  })
})
