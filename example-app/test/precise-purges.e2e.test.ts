/**
 * Purges that keep the cache warm (docs/caching.md#what-a-write-purges), through a real Varnish
 * with vmod xkey configured as docs/caching.md says (test/support/varnish.ts), on both engines.
 *
 * Precise: an update naming only fields no page's selection reads (a book's `pages`) purges the
 * rows it changed and the pages showing them, and leaves a cached filtered page that does not
 * show the row a hit. Complete: after every kind of write (updates of a filtered, an ordered, a
 * scoped and an unread field, a field of a related model a filter and an order read, a move
 * between authors, inserts, deletes, `updateMany`, a rollback, and an interactive transaction),
 * awaited with `settled()`, every page and item asked through the cache is the one the app gives
 * directly: no stale answer. Neither after an update of a row a streamed (unpaged) collection
 * shows, which has no IRI tags, nor after an update changing an author's key, which leaves the
 * pages of its books keyed by the old one.
 *
 * Needs Debian's `varnish` and `varnish-modules`; without them the file is skipped with a message,
 * except under CI (`CI` set), where it fails.
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
import { sharedFreshness } from './support/shared-cache.js'
import { startVarnish, varnishPresent } from './support/varnish.js'

const SECRET = 'precise purges test secret'
const ENGINES = ['prisma', 'compiled'] as const
const hasVarnish = varnishPresent('the precise purges test')

/** Anonymous callers see no poetry, and the authors of a book that is not poetry. */
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
type Varnish = Awaited<ReturnType<typeof startVarnish>>
const stops: (() => Promise<void>)[] = []
/** By engine: the app's origin and the Varnish in front of it. */
const apps = new Map<string, { origin: string; varnish: Varnish }>()

beforeAll(async () => {
  if (!hasVarnish) return
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  // Each engine under `access`, and under the catalogue's rules alone (no scope of authors reads
  // books, so that the pages of books are narrowed by their equalities alone).
  for (const [name, rules] of [
    ['', access],
    [':catalogue', catalogueAccess],
  ] as const)
    for (const engine of ENGINES) {
      const app = createApp(prisma, {
        auth: { secret: SECRET, access: rules },
        cacheTags: { header: 'xkey' },
        engine,
        sharedCache: sharedFreshness(300),
      })
      const server = await startServer(app.fetch)
      const varnish = await startVarnish(server.origin)
      stops.push(server.close, varnish.stop)
      apps.set(`${engine}${name}`, { origin: server.origin, varnish })
    }
}, 120_000)

afterAll(async () => {
  for (const stop of stops.reverse()) await stop()
  await prisma?.$disconnect()
  await database?.remove()
})

async function get(on: string, path: string) {
  const response = await fetch(`${on}${path}`, { headers: { Accept: 'application/ld+json' } })
  return {
    status: response.status,
    cache: response.headers.get('x-cache'),
    body: await response.text(),
  }
}

const memberIds = (body: string) =>
  (JSON.parse(body)['hydra:member'] as { '@id': string }[]).map((member) => member['@id'])

/** The pages and items the staleness check asks through the cache after every write. */
function watched(bookId: number, authorIds: readonly number[]): string[] {
  return [
    '/books',
    '/books?genre=FICTION',
    '/books?genre=SCIENCE&itemsPerPage=5',
    '/books?order[title]=asc',
    '/books?order[price]=desc&itemsPerPage=7',
    '/books?title=a&itemsPerPage=4',
    '/books?author.name=a',
    '/books?order[author.name]=desc',
    '/books?price[lt]=20',
    '/books/recent',
    '/authors',
    ...authorIds.flatMap((id) => [`/authors/${id}`, `/authors/${id}/books`]),
    `/books/${bookId}`,
    '/reviews?book.author.name=a',
    '/loans?exists[returnedAt]=false',
    '/books?genre=POETRY',
    `/books?id[]=${bookId}&id[]=1`,
    ...authorIds.flatMap((id) => [
      `/books?author=${id}`,
      `/authors/${id}/books?genre=FICTION`,
      `/authors/${id}/books?genre=FICTION&page=2&itemsPerPage=1`,
    ]),
  ]
}

/** Every watched path asked through the cache, then of the app: the paths answered stale. */
async function staleAnswers(app: { origin: string; varnish: Varnish }, paths: readonly string[]) {
  const stale: string[] = []
  for (const path of paths) {
    const cached = await get(app.varnish.origin, path)
    const fresh = await get(app.origin, path)
    if (cached.status !== fresh.status || cached.body !== fresh.body) stale.push(path)
  }
  return stale
}

describe.skipIf(!hasVarnish).each(ENGINES)(
  'precise purges through Varnish (%s engine)',
  (engine) => {
    it('keeps a filtered page cached when a row it does not show changes a field it does not read', async () => {
      const app = apps.get(engine) as { origin: string; varnish: Varnish }
      const invalidation = hydraInvalidation({
        purge: httpPurge({ url: `${app.varnish.origin}/` }),
        resources: hydraResources,
      })
      const writes = prisma.$extends(invalidation)
      const page = '/books?genre=FICTION&itemsPerPage=3'
      const shown = memberIds((await get(app.varnish.origin, page)).body)
      expect((await get(app.varnish.origin, page)).cache).toBe('HIT')
      const other = await prisma.book.findFirstOrThrow({
        where: {
          genre: 'FICTION',
          id: { notIn: shown.map((iri) => Number(iri.split('/').pop())) },
        },
      })
      const item = `/books/${other.id}`
      await get(app.varnish.origin, item)
      expect((await get(app.varnish.origin, item)).cache).toBe('HIT')

      await writes.book.update({ where: { id: other.id }, data: { pages: other.pages + 1 } })
      await invalidation.settled()
      // The page neither shows the book nor reads its pages: still the cache's.
      expect((await get(app.varnish.origin, page)).cache).toBe('HIT')
      // The book's own item is purged and answered afresh.
      const fresh = await get(app.varnish.origin, item)
      expect(fresh.cache).toBe('MISS')
      expect(JSON.parse(fresh.body).pages).toBe(other.pages + 1)

      // A row the page shows: the page is purged by the row's IRI.
      const first = Number(shown[0]?.split('/').pop())
      await writes.book.update({ where: { id: first }, data: { pages: 999 } })
      await invalidation.settled()
      expect((await get(app.varnish.origin, page)).cache).toBe('MISS')
    })

    it('keeps the pages of other authors and genres cached when a book is inserted or deleted', async () => {
      const app = apps.get(`${engine}:catalogue`) as { origin: string; varnish: Varnish }
      const invalidation = hydraInvalidation({
        purge: httpPurge({ url: `${app.varnish.origin}/` }),
        resources: hydraResources,
      })
      const writes = prisma.$extends(invalidation)
      const [mine, other] = await prisma.author.findMany({
        where: { books: { some: { genre: 'FICTION' } } },
        orderBy: { id: 'asc' },
        take: 2,
      })
      if (!mine || !other) throw new Error('the seed has two authors of fiction')
      const kept = [
        `/authors/${other.id}/books`,
        `/authors/${other.id}/books?genre=FICTION`,
        '/books?genre=SCIENCE',
        `/books?author=${other.id}`,
      ]
      const purged = [
        `/authors/${mine.id}/books`,
        `/authors/${mine.id}/books?genre=FICTION`,
        '/books?genre=FICTION',
        '/books?title=arrival',
        '/books',
      ]
      const cachedAll = async () => {
        for (const path of [...kept, ...purged]) await get(app.varnish.origin, path)
        for (const path of [...kept, ...purged])
          expect((await get(app.varnish.origin, path)).cache, path).toBe('HIT')
      }
      const afterWrite = async (kind: string) => {
        await invalidation.settled()
        for (const path of kept)
          expect((await get(app.varnish.origin, path)).cache, `${kind}: ${path}`).toBe('HIT')
        for (const path of purged)
          expect((await get(app.varnish.origin, path)).cache, `${kind}: ${path}`).toBe('MISS')
        expect(await staleAnswers(app, [...kept, ...purged]), kind).toEqual([])
      }
      await app.varnish.clear()
      await cachedAll()
      const inserted = await writes.book.create({
        data: {
          id: engine === 'prisma' ? 91_001 : 91_002,
          title: 'Arrival in Leeds',
          isbn: `insert-${engine}`,
          genre: 'FICTION',
          pages: 10,
          price: 5,
          publishedAt: new Date('2001-01-01'),
          authorId: mine.id,
        },
      })
      await afterWrite('an insert')
      await cachedAll()
      await writes.book.delete({ where: { id: inserted.id } })
      await afterWrite('a delete')
    }, 120_000)

    // Under the rules of `access`, where authors' scope reads books, and under the catalogue's,
    // where the pages of books are narrowed by the values of their equalities (value tags).
    it.each(['', ':catalogue'])(
      'leaves no stale answer after any kind of write (rules%s)',
      async (rules) => {
        const app = apps.get(`${engine}${rules}`) as { origin: string; varnish: Varnish }
        const run = `${engine}${rules}`
        /** An id of this run's own: the seed's explicit ids leave PostgreSQL's sequence at 1. */
        const idOf = (base: number) => base + (engine === 'prisma' ? 1 : 2) + (rules ? 5 : 0)
        const invalidation = hydraInvalidation({
          purge: httpPurge({ url: `${app.varnish.origin}/` }),
          resources: hydraResources,
        })
        const writes = prisma.$extends(invalidation)
        const book = await prisma.book.findFirstOrThrow({
          where: { genre: 'FICTION' },
          orderBy: { id: 'asc' },
        })
        const target = await prisma.author.findFirstOrThrow({
          where: { id: { not: book.authorId } },
          orderBy: { id: 'asc' },
        })
        const paths = watched(book.id, [book.authorId, target.id])
        const steps: Array<[string, () => Promise<unknown>]> = [
          [
            'an unread field',
            () => writes.book.update({ where: { id: book.id }, data: { pages: 1 } }),
          ],
          [
            'a filtered and ordered field',
            () =>
              writes.book.update({ where: { id: book.id }, data: { title: 'Aardvark at dawn' } }),
          ],
          [
            'an ordered field',
            () => writes.book.update({ where: { id: book.id }, data: { price: 1 } }),
          ],
          [
            'a date the feed orders by',
            () =>
              writes.book.update({
                where: { id: book.id },
                data: { publishedAt: new Date('2100-01-01') },
              }),
          ],
          [
            'a scoped and filtered field',
            () => writes.book.update({ where: { id: book.id }, data: { genre: 'SCIENCE' } }),
          ],
          [
            'a field a related model filters and orders by',
            () => writes.author.update({ where: { id: target.id }, data: { name: 'Zzz Aaa' } }),
          ],
          [
            'a move between authors',
            () => writes.book.update({ where: { id: book.id }, data: { authorId: target.id } }),
          ],
          [
            'a move by connect',
            () =>
              writes.book.update({
                where: { id: book.id },
                data: { author: { connect: { id: book.authorId } } },
              }),
          ],
          [
            'every book of an author made poetry',
            () =>
              writes.book.updateMany({ where: { authorId: target.id }, data: { genre: 'POETRY' } }),
          ],
          [
            'an insert',
            () =>
              writes.book.create({
                data: {
                  id: idOf(90_000),
                  title: 'A new arrival',
                  isbn: `precise-${run}`,
                  genre: 'FICTION',
                  pages: 10,
                  price: 5,
                  publishedAt: new Date('2101-01-01'),
                  authorId: target.id,
                },
              }),
          ],
          ['a delete', () => writes.book.delete({ where: { isbn: `precise-${run}` } })],
          [
            'an insert of poetry, which the authors page does not see',
            () =>
              writes.book.create({
                data: {
                  id: idOf(90_010),
                  title: 'An ode',
                  isbn: `ode-${run}`,
                  genre: 'POETRY',
                  pages: 3,
                  price: 2,
                  publishedAt: new Date('1901-01-01'),
                  authorId: book.authorId,
                },
              }),
          ],
          [
            'the ode made fiction',
            () => writes.book.update({ where: { isbn: `ode-${run}` }, data: { genre: 'FICTION' } }),
          ],
          [
            'a delete of a row shown on no cached page',
            () => writes.book.delete({ where: { id: idOf(90_010) } }),
          ],
          [
            'an insert rolled back',
            async () => {
              const rolledBack = writes.$transaction(async (tx) => {
                await tx.book.create({
                  data: {
                    id: idOf(90_040),
                    title: 'Never shelved',
                    isbn: `never-${run}`,
                    genre: 'FICTION',
                    pages: 1,
                    price: 1,
                    publishedAt: new Date('2000-01-01'),
                    authorId: book.authorId,
                  },
                })
                throw new Error('rolled back')
              })
              await expect(rolledBack).rejects.toThrow('rolled back')
            },
          ],
          [
            'an insert and a delete in one transaction',
            () =>
              writes.$transaction(async (tx) => {
                await tx.book.create({
                  data: {
                    id: idOf(90_020),
                    title: 'Brief stay',
                    isbn: `brief-${run}`,
                    genre: 'SCIENCE',
                    pages: 1,
                    price: 1,
                    publishedAt: new Date('2000-01-01'),
                    authorId: target.id,
                  },
                })
                await tx.book.create({
                  data: {
                    id: idOf(90_030),
                    title: 'Briefer stay',
                    isbn: `briefer-${run}`,
                    genre: 'FICTION',
                    pages: 1,
                    price: 1,
                    publishedAt: new Date('2000-01-01'),
                    authorId: book.authorId,
                  },
                })
                await tx.book.delete({ where: { isbn: `briefer-${run}` } })
              }),
          ],
          [
            'an interactive transaction',
            () =>
              writes.$transaction(async (tx) => {
                await tx.book.update({ where: { id: book.id }, data: { title: 'Mid transaction' } })
                await tx.book.update({ where: { id: book.id }, data: { pages: 7 } })
              }),
          ],
          [
            'a rollback',
            async () => {
              const rolledBack = writes.$transaction(async (tx) => {
                await tx.book.update({ where: { id: book.id }, data: { title: 'Never seen' } })
                throw new Error('rolled back')
              })
              await expect(rolledBack).rejects.toThrow('rolled back')
            },
          ],
        ]
        // Every watched answer cached first (none kept from the writes of other tests, which purged
        // other caches), then each write checked against the app's answers.
        await app.varnish.clear()
        for (const path of paths) await get(app.varnish.origin, path)
        for (const [kind, write] of steps) {
          await write()
          await invalidation.settled()
          expect(await staleAnswers(app, paths), kind).toEqual([])
        }
      },
      120_000
    )

    it('purges a streamed (unpaged) collection when a row it shows changes', async () => {
      const app = apps.get(engine) as { origin: string; varnish: Varnish }
      const invalidation = hydraInvalidation({
        purge: httpPurge({ url: `${app.varnish.origin}/` }),
        resources: hydraResources,
      })
      const writes = prisma.$extends(invalidation)
      const language = await prisma.language.findFirstOrThrow({ orderBy: { code: 'asc' } })
      await get(app.varnish.origin, '/languages')
      expect((await get(app.varnish.origin, '/languages')).cache).toBe('HIT')

      await writes.language.update({
        where: { code: language.code },
        data: { name: `${language.name} (${engine})` },
      })
      await invalidation.settled()
      expect(await staleAnswers(app, ['/languages'])).toEqual([])
    })

    it('purges the pages keyed by a row whose key an update changes', async () => {
      const app = apps.get(engine) as { origin: string; varnish: Varnish }
      const invalidation = hydraInvalidation({
        purge: httpPurge({ url: `${app.varnish.origin}/` }),
        resources: hydraResources,
      })
      const writes = prisma.$extends(invalidation)
      const book = await prisma.book.findFirstOrThrow({
        where: { genre: { not: 'POETRY' } },
        orderBy: { id: 'asc' },
      })
      const before = book.authorId
      const after = engine === 'prisma' ? 97_001 : 97_002
      const paths = [
        `/authors/${before}`,
        `/authors/${before}/books`,
        `/authors/${after}`,
        `/authors/${after}/books`,
        `/books/${book.id}`,
        '/books?order[author.name]=desc',
      ]
      for (const path of paths) await get(app.varnish.origin, path)
      expect((await get(app.varnish.origin, `/authors/${before}/books`)).cache).toBe('HIT')

      // The author's key changes, and with it (onUpdate: Cascade) its books' `authorId`.
      await writes.author.update({ where: { id: before }, data: { id: after } })
      await invalidation.settled()
      expect((await get(app.origin, `/authors/${before}/books`)).status).toBe(404)
      expect(await staleAnswers(app, paths), 'the key changed').toEqual([])

      await writes.author.update({ where: { id: after }, data: { id: before } })
      await invalidation.settled()
      expect(await staleAnswers(app, paths), 'the key changed back').toEqual([])
    })
  }
)
