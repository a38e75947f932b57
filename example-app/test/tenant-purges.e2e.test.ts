/**
 * A tenant made private, through a shared cache (docs/caching.md#cache-tags): categories embed
 * their first articles (test/fixtures/tenants), and anonymous callers see an article only while it
 * is published and its tenant public (`reads: 'credentials'`, so their answers are shared). A
 * write of the tenant alone, through `hydraInvalidation`, must purge every cached category showing
 * its articles: the tags of an embedded page name the models its scope reaches. Both engines are
 * mounted in one app (`/prisma`, `/compiled`) behind one cache (test/support/shared-cache.ts),
 * which keeps every answer five minutes.
 */
import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { Hono } from 'hono'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createHydraApp, type HydraAccess, hydraResources } from '#fixtures/tenants/hydra/index.js'
import { PrismaClient } from '#fixtures/tenants/prisma/client.js'
import { createAdapter, freshDatabase, type TestDatabase } from './support/harness.js'
import { servedThroughCache, type sharedCache, sharedFreshness } from './support/shared-cache.js'

const SCHEMA = new URL('./fixtures/tenants/schema.prisma', import.meta.url).pathname
const MOUNTS = ['/prisma', '/compiled'] as const

const access = {
  Article: { reads: 'credentials', scope: () => ({ published: true, tenant: { public: true } }) },
} satisfies HydraAccess

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let close: () => Promise<void>
let cache: Awaited<ReturnType<typeof sharedCache>>

beforeAll(async () => {
  database = await freshDatabase(SCHEMA)
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.tenant.createMany({
    data: [
      { id: 1, name: 'A', public: true },
      { id: 2, name: 'B', public: true },
    ],
  })
  await prisma.category.createMany({
    data: [
      { id: 1, name: 'News' },
      { id: 2, name: 'Sport' },
    ],
  })
  await prisma.article.createMany({
    data: [1, 2, 3, 4, 5, 6].map((id) => ({
      id,
      title: `${id % 2 === 0 ? 'B' : 'A'}-article-${id}`,
      rank: id,
      published: true,
      categoryId: id <= 4 ? 1 : 2,
      tenantId: id % 2 === 0 ? 2 : 1,
    })),
  })
  const app = new Hono().use(sharedFreshness(300))
  app.route('/prisma', createHydraApp({ prisma, access, cacheTags: {} }))
  app.route('/compiled', createHydraApp({ prisma, access, cacheTags: {}, engine: 'compiled' }))
  ;({ origin, cache, close } = await servedThroughCache(app.fetch))
}, 120_000)

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

async function get(path: string) {
  const response = await fetch(`${origin}${path}`, { headers: { Accept: 'application/ld+json' } })
  return { headers: response.headers, body: await response.text() }
}

/** The titles of the articles a body shows, wherever it embeds them. */
const titles = (body: string) => [...body.matchAll(/"title":"([^"]+)"/g)].map((m) => m[1]).sort()

it('purges the categories embedding a tenant’s articles when the tenant alone is written', async () => {
  const paths = MOUNTS.flatMap((mount) => [`${mount}/categories/1`, `${mount}/categories`])
  for (const path of paths) await get(path)
  for (const path of paths) {
    const cached = await get(path)
    expect(cached.headers.get('x-cache'), path).toBe('HIT')
    expect(titles(cached.body), path).toContain('B-article-2')
    expect((cached.headers.get('cache-tag') ?? '').split(','), path).toContain('Tenant')
  }
  const before = cache.purges.length
  const writes = prisma.$extends(
    hydraInvalidation({ purge: httpPurge({ url: `${origin}/` }), resources: hydraResources })
  )
  await writes.tenant.update({ where: { id: 2 }, data: { public: false } })
  for (let tries = 0; cache.purges.length === before && tries < 200; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10))
  expect(cache.purges.slice(before)).toEqual([['Tenant', '/tenants/2']])
  for (const path of paths) {
    const after = await get(path)
    expect(after.headers.get('x-cache'), path).toBe('MISS')
    expect(titles(after.body), path).not.toContain('B-article-2')
    expect(titles(after.body), path).toContain('A-article-1')
  }
})
