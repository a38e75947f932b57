/**
 * The example behind a real shared cache (docs/caching.md): `http-cache-semantics` in shared mode
 * (test/support/shared-cache.ts) between the clients and the server, purged over HTTP by
 * `hydraInvalidation` and `httpPurge` from the writes of an extended Prisma client. Anonymous
 * catalogue pages come from the cache, authenticated ones never do, no caller gets another's
 * answer through it, and every committed write is seen on the next request.
 */
import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hydraResources } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { tokenFor } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { catalogueAccess } from './support/catalogue-access.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { sharedCache } from './support/shared-cache.js'

const SECRET = 'shared cache test secret'

let prisma: PrismaClient
let database: TestDatabase
let server: { origin: string; close: () => Promise<void> }
let cache: Awaited<ReturnType<typeof sharedCache>>
const tokens: Record<string, string | undefined> = { anonymous: undefined }

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  tokens.reader = await tokenFor({ sub: 'Reader 3', role: 'reader' }, SECRET)
  tokens.librarian = await tokenFor({ sub: 'Librarian', role: 'librarian' }, SECRET)
  const app = createApp(prisma, {
    auth: { secret: SECRET, access: catalogueAccess },
    cacheTags: {},
  })
  server = await startServer(app.fetch)
  cache = await sharedCache(server.origin)
}, 120_000)

afterAll(async () => {
  await cache?.close()
  await server?.close()
  await prisma?.$disconnect()
  await database?.remove()
})

async function get(
  on: string,
  path: string,
  who = 'anonymous',
  extra: Record<string, string> = {}
) {
  const token = tokens[who]
  const headers = { Accept: 'application/ld+json', ...extra }
  const response = await fetch(`${on}${path}`, {
    headers: token ? { ...headers, Authorization: `Bearer ${token}` } : headers,
  })
  return { status: response.status, headers: response.headers, body: await response.text() }
}

const titles = (body: string) =>
  (JSON.parse(body)['hydra:member'] as { title: string }[]).map((book) => book.title)

describe('what the cache keeps', () => {
  it('answers anonymous catalogue pages from the cache, public and tagged', async () => {
    const first = await get(cache.origin, '/books/recent')
    const second = await get(cache.origin, '/books/recent')
    expect([first.headers.get('x-cache'), second.headers.get('x-cache')]).toEqual(['MISS', 'HIT'])
    expect(second.body).toBe(first.body)
    expect(first.headers.get('cache-control')).toBe('max-age=30, s-maxage=120')
    expect(first.headers.get('vary')).toBe('Accept, Authorization, Cookie')
    const tags = (first.headers.get('cache-tag') ?? '').split(',')
    expect(tags).toContain('Book')
    const ids = (JSON.parse(first.body)['hydra:member'] as { '@id': string }[]).map((b) => b['@id'])
    for (const id of ids) expect(tags).toContain(id)
  })

  it('never keeps an authenticated answer, nor hands it the anonymous one', async () => {
    for (const who of ['librarian', 'reader', 'librarian']) {
      const answer = await get(cache.origin, '/books/recent', who)
      expect(answer.headers.get('x-cache'), who).toBe('MISS')
      expect(answer.headers.get('cache-control')).toBe('private, max-age=30')
      expect(answer.headers.get('cache-tag')).toBeNull()
    }
  })

  it('gives no caller another caller’s answer (0 foreign answers)', async () => {
    const paths = ['/books/recent', '/books', '/books?page=2', '/books/1', '/loans', '/authors']
    const callers = ['anonymous', 'reader', 'librarian']
    const foreign: string[] = []
    for (let round = 0; round < 2; round++)
      for (const path of paths)
        for (const who of round === 0 ? callers : [...callers].reverse()) {
          const through = await get(cache.origin, path, who)
          const direct = await get(server.origin, path, who)
          if (through.status !== direct.status || through.body !== direct.body)
            foreign.push(`${who} ${path}`)
        }
    expect(foreign).toEqual([])
    // The librarian sees poetry the others do not: the answers do differ by caller.
    const anonymous = await get(server.origin, '/books?genre=POETRY')
    const librarian = await get(server.origin, '/books?genre=POETRY', 'librarian')
    expect(JSON.parse(anonymous.body)['hydra:totalItems']).toBe(0)
    expect(JSON.parse(librarian.body)['hydra:totalItems']).toBeGreaterThan(0)
  })

  it('never keeps an anonymous problem, which no purge could reach', async () => {
    for (const round of ['first', 'again']) {
      const missing = await get(cache.origin, '/books/9999')
      expect([missing.status, missing.headers.get('x-cache')], round).toEqual([404, 'MISS'])
      expect(missing.headers.get('cache-control')).toBe('no-store')
      expect(missing.headers.get('vary')).toBe('Accept, Authorization, Cookie')
      expect(missing.headers.get('cache-tag')).toBeNull()
    }
    const librarian = await get(cache.origin, '/books/9999', 'librarian')
    expect([librarian.status, librarian.headers.get('cache-control')]).toEqual([404, 'private'])
  })

  it('revalidates a stale page with the validator the origin gives', async () => {
    // Items have no Cache-Control: stored, stale at once, revalidated on every use.
    const first = await get(cache.origin, '/books/2')
    const again = await get(cache.origin, '/books/2')
    const direct = await get(server.origin, '/books/2')
    expect(again.headers.get('x-cache')).toBe('REVALIDATED')
    expect(again.headers.get('etag')).toBe(direct.headers.get('etag'))
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'))
    const conditional = { 'If-None-Match': direct.headers.get('etag') as string }
    expect((await get(cache.origin, '/books/2', 'anonymous', conditional)).status).toBe(304)
    const failed = { 'If-Match': '"not-the-tag"' }
    expect((await get(cache.origin, '/books/2', 'anonymous', failed)).status).toBe(412)
  })
})

describe('purge on write', () => {
  /** A client whose writes purge the cache, and the purges it made so far. */
  const purging = () =>
    prisma.$extends(
      hydraInvalidation({
        purge: httpPurge({ url: `${cache.origin}/` }),
        resources: hydraResources,
      })
    )

  /** Waits for the purges after a write (they leave after its answer). */
  async function purgesAfter(count: number) {
    for (let tries = 0; cache.purges.length < count && tries < 100; tries++)
      await new Promise((resolve) => setTimeout(resolve, 20))
    return cache.purges.slice(count - 1)
  }

  async function recentTitles() {
    const answer = await get(cache.origin, '/books/recent')
    return { cached: answer.headers.get('x-cache'), titles: titles(answer.body) }
  }

  it('shows a single, Many, nested and batched write on the next request', async () => {
    const client = purging()
    const before = cache.purges.length
    const newest = (await recentTitles()).titles[0] as string
    expect((await recentTitles()).cached).toBe('HIT')
    const book = await prisma.book.findFirstOrThrow({ where: { title: newest } })

    await client.book.update({ where: { id: book.id }, data: { title: 'Renamed once' } })
    expect((await purgesAfter(before + 1)).map((tags) => [...tags].sort())).toEqual([
      [`/books/${book.id}`, 'Book.*', 'Book.publishedAt', 'Book.title'].sort(),
    ])
    const renamed = await recentTitles()
    expect([renamed.cached, renamed.titles[0]]).toEqual(['MISS', 'Renamed once'])

    await client.book.updateMany({ where: { id: book.id }, data: { title: 'Renamed twice' } })
    await purgesAfter(before + 2)
    expect((await recentTitles()).titles[0]).toBe('Renamed twice')

    await client.author.update({
      where: { id: book.authorId },
      data: { books: { update: { where: { id: book.id }, data: { title: 'Renamed nested' } } } },
    })
    expect((await purgesAfter(before + 3))[0]?.sort()).toEqual(
      [`/authors/${book.authorId}`, 'Author', 'Book', 'Book:rows'].sort()
    )
    expect((await recentTitles()).titles[0]).toBe('Renamed nested')

    await client.$transaction([
      client.book.update({ where: { id: book.id }, data: { title: 'Renamed in a batch' } }),
    ])
    await purgesAfter(before + 4)
    expect((await recentTitles()).titles[0]).toBe('Renamed in a batch')

    await client.$transaction(async (tx) => {
      await tx.book.update({ where: { id: book.id }, data: { title: 'Renamed in a transaction' } })
    })
    await purgesAfter(before + 5)
    expect((await recentTitles()).titles[0]).toBe('Renamed in a transaction')
    expect(cache.purges.length).toBe(before + 5)
  })

  it('purges nothing for a transaction rolled back', async () => {
    const client = purging()
    await recentTitles()
    expect((await recentTitles()).cached).toBe('HIT')
    const before = cache.purges.length
    const rolledBack = client.$transaction(async (tx) => {
      await tx.book.updateMany({ data: { title: 'Never seen' } })
      throw new Error('rolled back')
    })
    await expect(rolledBack).rejects.toThrow('rolled back')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(cache.purges.length).toBe(before)
    const after = await recentTitles()
    expect(after.cached).toBe('HIT')
    expect(after.titles).not.toContain('Never seen')
  })
})
