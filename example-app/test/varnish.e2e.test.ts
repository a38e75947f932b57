/**
 * The example behind a real Varnish with vmod xkey, configured by the VCL docs/caching.md gives
 * (test/support/varnish.ts takes it from the page): anonymous catalogue pages are hits, with the
 * tag header removed; requests with a token or the session cookie pass and never get the
 * anonymous page, while a consent cookie is stripped and still hits; answers without
 * `Cache-Control` and anonymous problems are not kept; and writes through a client extended with
 * `hydraInvalidation({ purge: httpPurge(...) })` purge by xkey (single, `Many`, nested, batched,
 * interactive), a rollback purging nothing; a client's `X-Forwarded-Host` and `X-Forwarded-Proto`
 * reach no link of an app with `trustProxy`, cached or not.
 *
 * Needs Debian's `varnish` and `varnish-modules`; without them the file is skipped with a message,
 * except under CI (`CI` set), where it fails.
 */
import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { tokenFor } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { catalogueAccess } from './support/catalogue-access.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { startVarnish, varnishPresent } from './support/varnish.js'

const SECRET = 'varnish test secret'
const hasVarnish = varnishPresent('the Varnish test')

let prisma: PrismaClient
let database: TestDatabase
let server: { origin: string; close: () => Promise<void> }
let varnish: Awaited<ReturnType<typeof startVarnish>>
let librarian = ''

beforeAll(async () => {
  if (!hasVarnish) return
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  librarian = await tokenFor({ sub: 'Librarian', role: 'librarian' }, SECRET)
  const app = createApp(prisma, {
    auth: { secret: SECRET, access: catalogueAccess },
    cacheTags: { header: 'xkey' },
  })
  server = await startServer(app.fetch)
  varnish = await startVarnish(server.origin)
}, 120_000)

afterAll(async () => {
  await varnish?.stop()
  await server?.close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** A GET through Varnish (or `on`), with `headers`. */
async function get(path: string, headers: Record<string, string> = {}, on = varnish.origin) {
  const response = await fetch(`${on}${path}`, {
    headers: { Accept: 'application/ld+json', ...headers },
  })
  return { status: response.status, headers: response.headers, body: await response.text() }
}

const titles = (body: string) =>
  (JSON.parse(body)['hydra:member'] as { title: string }[]).map((book) => book.title)

/** The first title of `/books/recent` through Varnish, and whether it was a hit. */
async function newest() {
  const answer = await get('/books/recent')
  return { cached: answer.headers.get('x-cache'), title: titles(answer.body)[0] }
}

describe.skipIf(!hasVarnish)('Varnish configured as docs/caching.md says', () => {
  it('answers anonymous pages from the cache, without the tags', async () => {
    const first = await get('/books/recent')
    const second = await get('/books/recent')
    expect([first.headers.get('x-cache'), second.headers.get('x-cache')]).toEqual(['MISS', 'HIT'])
    expect(second.body).toBe(first.body)
    expect(second.body).toBe((await get('/books/recent', {}, server.origin)).body)
    expect(first.headers.get('xkey')).toBeNull()
    expect((await get('/books/recent', {}, server.origin)).headers.get('xkey')).toContain('Book')
  })

  it('passes requests with credentials, which never get the anonymous page', async () => {
    const anonymous = await get('/books?genre=POETRY')
    expect(JSON.parse(anonymous.body)['hydra:totalItems']).toBe(0)
    for (const headers of [
      { Authorization: `Bearer ${librarian}` },
      { Cookie: `consent=yes; session=s1`, Authorization: `Bearer ${librarian}` },
    ]) {
      for (const round of [1, 2]) {
        const answer = await get('/books/recent', headers)
        expect(answer.headers.get('x-cache'), `round ${round}`).toBe('MISS')
        expect(answer.headers.get('cache-control')).toBe('private, max-age=30')
      }
      const poetry = await get('/books?genre=POETRY', headers)
      expect(JSON.parse(poetry.body)['hydra:totalItems']).toBeGreaterThan(0)
    }
    // The session cookie alone is passed too: the app would answer it as its caller's.
    const session = await get('/books/recent', { Cookie: 'session=s1' })
    expect(session.headers.get('x-cache')).toBe('MISS')
  })

  it('strips other cookies: a visitor with a consent cookie is served from the cache', async () => {
    await get('/books/recent')
    const consenting = await get('/books/recent', { Cookie: 'consent=yes; _ga=GA1.1' })
    expect(consenting.headers.get('x-cache')).toBe('HIT')
  })

  it('keeps no answer without Cache-Control, nor an anonymous problem', async () => {
    for (const path of ['/books/1', '/books/9999'])
      for (const round of [1, 2])
        expect((await get(path)).headers.get('x-cache'), `${path} ${round}`).toBe('MISS')
  })

  it('purges by xkey on a single, Many, nested, batched and interactive write', async () => {
    const invalidation = hydraInvalidation({ purge: httpPurge({ url: `${varnish.origin}/` }) })
    const client = prisma.$extends(invalidation)
    const { title } = await newest()
    expect((await newest()).cached).toBe('HIT')
    const book = await prisma.book.findFirstOrThrow({ where: { title: title as string } })
    const writes: Array<[string, () => Promise<unknown>]> = [
      ['single', () => client.book.update({ where: { id: book.id }, data: { title: 'single' } })],
      ['Many', () => client.book.updateMany({ where: { id: book.id }, data: { title: 'Many' } })],
      [
        'nested',
        () =>
          client.author.update({
            where: { id: book.authorId },
            data: { books: { update: { where: { id: book.id }, data: { title: 'nested' } } } },
          }),
      ],
      [
        'batched',
        () =>
          client.$transaction([
            client.book.update({ where: { id: book.id }, data: { title: 'batched' } }),
          ]),
      ],
      [
        'interactive',
        () =>
          client.$transaction((tx) =>
            tx.book.update({ where: { id: book.id }, data: { title: 'interactive' } })
          ),
      ],
    ]
    for (const [kind, write] of writes) {
      await write()
      await invalidation.settled()
      expect(await newest(), kind).toEqual({ cached: 'MISS', title: kind })
      expect((await newest()).cached, kind).toBe('HIT')
    }
    const rolledBack = client.$transaction(async (tx) => {
      await tx.book.updateMany({ data: { title: 'never seen' } })
      throw new Error('rolled back')
    })
    await expect(rolledBack).rejects.toThrow('rolled back')
    await invalidation.settled()
    expect(await newest()).toEqual({ cached: 'HIT', title: 'interactive' })
  })

  it("keeps a client's forwarded host and scheme out of the links others get", async () => {
    // An app taking its links' origin from the forwarding headers (trustProxy), behind the
    // same VCL: a client's X-Forwarded-Host and X-Forwarded-Proto reach no answer.
    const app = createApp(prisma, { trustProxy: true, allowedHosts: ['.example.com', '127.0.0.1'] })
    const proxied = await startServer(app.fetch)
    const cache = await startVarnish(proxied.origin)
    try {
      const forged = { 'X-Forwarded-Host': 'attacker.example.com', 'X-Forwarded-Proto': 'https' }
      const first = await get('/books/recent', forged, cache.origin)
      const later = await get('/books/recent', {}, cache.origin)
      expect([first.status, later.status]).toEqual([200, 200])
      expect(later.headers.get('x-cache')).toBe('HIT')
      const own = new URL(cache.origin)
      for (const answer of [first, later]) {
        expect(`${answer.headers.get('link')} ${answer.body}`).not.toContain('attacker.example')
        expect(answer.headers.get('link')).not.toContain('https://')
        expect(answer.headers.get('link')).toContain(`<http://${own.host}/docs.jsonld>`)
      }
    } finally {
      await cache.stop()
      await proxied.close()
    }
  })

  it('refuses a PURGE without tags', async () => {
    const response = await fetch(`${varnish.origin}/`, { method: 'PURGE' })
    expect(response.status).toBe(400)
  })
})
