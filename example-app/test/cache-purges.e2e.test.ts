/**
 * Purges that are complete and exact (docs/caching.md#what-a-write-purges), through a shared cache
 * in front of the example (test/support/shared-cache.ts, every answer kept five minutes), purged
 * by `hydraInvalidation` over HTTP, on both engines.
 *
 * Complete: an answer's cache tags name every model its selection reads, the models the caller's
 * scopes reach through relations included. The example's authors are served to anonymous callers
 * under a scope reading their books (`reads: 'credentials'`, so those answers are shared): an
 * author whose every book becomes poetry leaves the anonymous catalogue, which a write of books
 * alone must purge. Exact: a write of one book purges the answers showing that book and those whose
 * selection reads books, and another book's item stays cached; a book moved to another author
 * leaves both authors' books; a transaction rolled back purges nothing.
 */
import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type HydraAccess, hydraResources } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { claimsOf, type LibraryEnv } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { catalogueAccess } from './support/catalogue-access.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { sharedCache, sharedFreshness } from './support/shared-cache.js'

const SECRET = 'cache purges test secret'
const ENGINES = ['prisma', 'compiled'] as const

/** Anonymous callers see the authors of a book that is not poetry; librarians, every author. */
const access = {
  ...catalogueAccess,
  Author: {
    reads: 'credentials',
    scope: (c) =>
      claimsOf(c)?.role === 'librarian'
        ? undefined
        : { books: { some: { genre: { not: 'POETRY' } } } },
  },
} satisfies HydraAccess<LibraryEnv>

let prisma: PrismaClient
let database: TestDatabase
const served: { origin: string; close: () => Promise<void> }[] = []
type Cache = Awaited<ReturnType<typeof sharedCache>>
/** By rules and engine (`scoped prisma`, `catalogue compiled`): the cache and the origin. */
const apps = new Map<string, { cache: Cache; origin: string }>()

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  const rules = { scoped: access, catalogue: catalogueAccess }
  for (const [name, rule] of Object.entries(rules))
    for (const engine of ENGINES) {
      const app = createApp(prisma, {
        auth: { secret: SECRET, access: rule },
        cacheTags: {},
        engine,
        sharedCache: sharedFreshness(300),
      })
      const server = await startServer(app.fetch)
      const cache = await sharedCache(server.origin)
      served.push(server, cache)
      apps.set(`${name} ${engine}`, { cache, origin: server.origin })
    }
}, 120_000)

/** The app serving `rules` on `engine`. */
function appOf(rules: 'scoped' | 'catalogue', engine: string) {
  const app = apps.get(`${rules} ${engine}`)
  if (!app) throw new Error(`no app of ${rules} on ${engine}`)
  return app
}

afterAll(async () => {
  for (const server of served.reverse()) await server.close()
  await prisma?.$disconnect()
  await database?.remove()
})

async function get(on: string, path: string) {
  const response = await fetch(`${on}${path}`, { headers: { Accept: 'application/ld+json' } })
  return { status: response.status, headers: response.headers, body: await response.text() }
}

/** Waits until the cache has received `count` purges in all (they leave after the write). */
async function purgesReach(cache: { purges: string[][] }, count: number): Promise<void> {
  for (let tries = 0; cache.purges.length < count && tries < 200; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10))
}

/** A client whose writes purge `cache`. */
const purging = (cache: { origin: string }) =>
  prisma.$extends(
    hydraInvalidation({ purge: httpPurge({ url: `${cache.origin}/` }), resources: hydraResources })
  )

const memberIds = (body: string) =>
  (JSON.parse(body)['hydra:member'] as { '@id': string }[]).map((member) => member['@id'])

describe.each(ENGINES)('a write of a model only a scope reads (%s engine)', (engine) => {
  it('purges the pages and items whose scope reads it', async () => {
    const { cache, origin } = appOf('scoped', engine)
    const writes = purging(cache)
    // An author the anonymous catalogue shows, on its first page, with books that are not poetry.
    const page = await get(cache.origin, '/authors')
    const author = await prisma.author.findFirstOrThrow({
      where: { books: { some: { genre: { not: 'POETRY' } } } },
      orderBy: { id: 'asc' },
    })
    const iri = `/authors/${author.id}`
    expect(memberIds(page.body)).toContain(iri)
    expect((await get(cache.origin, iri)).status).toBe(200)
    expect((await get(cache.origin, '/authors')).headers.get('x-cache')).toBe('HIT')
    expect((await get(cache.origin, iri)).headers.get('x-cache')).toBe('HIT')
    const tags = (page.headers.get('cache-tag') ?? '').split(',')
    expect(tags).toContain('Book')

    // Books alone are written: every book of the author becomes poetry, and the author leaves
    // the anonymous catalogue.
    const before = cache.purges.length
    await writes.book.updateMany({ where: { authorId: author.id }, data: { genre: 'POETRY' } })
    await purgesReach(cache, before + 1)
    expect(cache.purges.slice(before).flat()).not.toContain('Author')

    const after = await get(cache.origin, '/authors')
    expect(after.headers.get('x-cache')).toBe('MISS')
    expect(memberIds(after.body)).not.toContain(iri)
    const item = await get(cache.origin, iri)
    expect([item.status, item.headers.get('x-cache')]).toEqual([404, 'MISS'])
    // What the origin answers, the cache answers.
    expect(after.body).toBe((await get(origin, '/authors')).body)
  })
})

describe.each(ENGINES)('a write of one row (%s engine)', (engine) => {
  // Under the catalogue's rules alone: no scope of authors reads books, so a book's item reads
  // no other book (through its author's scope, which it may embed).
  const cacheOf = () => appOf('catalogue', engine).cache
  const direct = (path: string) => get(appOf('catalogue', engine).origin, path)
  /**
   * Two books the anonymous catalogue shows, of two authors it shows; the first one's author has
   * another, so that it is still shown without it.
   */
  async function twoBooks() {
    const shown = { genre: { not: 'POETRY' as const } }
    const books = await prisma.book.findMany({ where: shown, orderBy: { id: 'asc' } })
    const one = books.find((book) =>
      books.some((other) => other.authorId === book.authorId && other.id !== book.id)
    )
    const two = books.find((book) => book.authorId !== one?.authorId)
    if (!one || !two) throw new Error('the seed has no two shown books of two authors')
    return [one, two] as const
  }
  /** Asks each path twice: the second answer must come from the cache. */
  async function cached(paths: readonly string[]) {
    for (const path of paths) await get(cacheOf().origin, path)
    for (const path of paths)
      expect((await get(cacheOf().origin, path)).headers.get('x-cache'), path).toBe('HIT')
  }
  /** Each path's answer through the cache: whether it came from it, and whether it is the origin's. */
  async function seen(path: string) {
    const through = await get(cacheOf().origin, path)
    return [through.headers.get('x-cache'), through.body === (await direct(path)).body]
  }

  it('purges its item and the pages of its model, and leaves another row’s item cached', async () => {
    const cache = cacheOf()
    const [one, two] = await twoBooks()
    await cached([`/books/${one.id}`, `/books/${two.id}`, '/books', `/authors/${one.authorId}`])
    const before = cache.purges.length
    await purging(cache).book.update({ where: { id: one.id }, data: { title: `${engine} once` } })
    await purgesReach(cache, before + 1)
    // An update naming its fields purges those fields' readers, not the model (Book).
    expect(cache.purges.slice(before).map((tags) => [...tags].sort())).toEqual([
      [`/books/${one.id}`, 'Book.*', 'Book.publishedAt', 'Book.title'].sort(),
    ])
    expect(await seen(`/books/${one.id}`)).toEqual(['MISS', true])
    expect(await seen('/books')).toEqual(['MISS', true])
    expect(await seen(`/books/${two.id}`)).toEqual(['HIT', true])
    // Its author's item shows the author alone, and a review's item the review and its link to
    // its book: neither reads the book's row.
    expect(await seen(`/authors/${one.authorId}`)).toEqual(['HIT', true])
    const review = await prisma.review.findFirstOrThrow({ where: { bookId: two.id } })
    await cached([`/reviews/${review.id}`])
    await purging(cache).book.update({ where: { id: one.id }, data: { title: `${engine} twice` } })
    await purgesReach(cache, before + 2)
    expect(await seen(`/reviews/${review.id}`)).toEqual(['HIT', true])
  })

  it('leaves both authors’ books when a book moves from one to the other', async () => {
    const cache = cacheOf()
    const [one, two] = await twoBooks()
    const from = `/authors/${one.authorId}/books`
    const to = `/authors/${two.authorId}/books`
    await cached([from, to, `/books/${two.id}`])
    expect(memberIds((await get(cache.origin, from)).body)).toContain(`/books/${one.id}`)
    const before = cache.purges.length
    await purging(cache).book.update({ where: { id: one.id }, data: { authorId: two.authorId } })
    await purgesReach(cache, before + 1)
    const left = await get(cache.origin, from)
    expect([left.headers.get('x-cache'), memberIds(left.body)]).toEqual([
      'MISS',
      expect.not.arrayContaining([`/books/${one.id}`]),
    ])
    expect(await seen(to)).toEqual(['MISS', true])
    const total = (body: string) => JSON.parse(body)['hydra:totalItems']
    expect(total((await get(cache.origin, to)).body)).toBe(
      await prisma.book.count({ where: { authorId: two.authorId, genre: { not: 'POETRY' } } })
    )
    expect(await seen(`/books/${two.id}`)).toEqual(['HIT', true])
    await purging(cache).book.update({ where: { id: one.id }, data: { authorId: one.authorId } })
    await purgesReach(cache, before + 2)
  })

  it('purges nothing for a transaction rolled back, and its rows once one commits', async () => {
    const cache = cacheOf()
    const [one, two] = await twoBooks()
    await cached([`/books/${one.id}`, `/books/${two.id}`])
    const before = cache.purges.length
    const client = purging(cache)
    const rolledBack = client.$transaction(async (tx) => {
      await tx.book.update({ where: { id: one.id }, data: { title: 'Never seen' } })
      throw new Error('rolled back')
    })
    await expect(rolledBack).rejects.toThrow('rolled back')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(cache.purges.length).toBe(before)
    expect(await seen(`/books/${one.id}`)).toEqual(['HIT', true])
    await client.$transaction(async (tx) => {
      await tx.book.update({ where: { id: one.id }, data: { title: `${engine} committed` } })
    })
    await purgesReach(cache, before + 1)
    expect(await seen(`/books/${one.id}`)).toEqual(['MISS', true])
    expect(await seen(`/books/${two.id}`)).toEqual(['HIT', true])
  })

  it('purges every answer showing a row of the model when a write names no row', async () => {
    const cache = cacheOf()
    const [one, two] = await twoBooks()
    await cached([`/books/${one.id}`, `/books/${two.id}`])
    const before = cache.purges.length
    await purging(cache).book.updateMany({
      where: { id: one.id },
      data: { title: `${engine} many` },
    })
    await purgesReach(cache, before + 1)
    expect(cache.purges.slice(before)).toEqual([['Book', 'Book:rows']])
    expect(await seen(`/books/${one.id}`)).toEqual(['MISS', true])
    expect(await seen(`/books/${two.id}`)).toEqual(['MISS', true])
  })
})
