/**
 * A tenant made private, through a shared cache (docs/caching.md#cache-tags): categories embed
 * their first articles (test/fixtures/tenants), and anonymous callers see an article only while it
 * is published and its tenant public (`reads: 'credentials'`, so their answers are shared). A
 * write of the tenant alone, through `hydraInvalidation`, must purge every cached category showing
 * its articles: the tags of an embedded page name the models its scope reaches. Both engines are
 * mounted in one app (`/prisma`, `/compiled`) behind one cache (test/support/shared-cache.ts),
 * which keeps every answer five minutes; and again behind Varnish configured as docs/caching.md
 * says (test/support/varnish.ts), the tenant's write awaited with `settled()`.
 */
import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { Hono } from 'hono'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createHydraApp, type HydraAccess, hydraResources } from '#fixtures/tenants/hydra/index.js'
import { PrismaClient } from '#fixtures/tenants/prisma/client.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'
import { servedThroughCache, type sharedCache, sharedFreshness } from './support/shared-cache.js'
import { startVarnish, varnishPresent } from './support/varnish.js'

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

/** Both engines' apps, their answers kept five minutes, tagged in the header `cacheTags` names. */
function tagged(cacheTags: NonNullable<Parameters<typeof createHydraApp>[0]['cacheTags']>): Hono {
  const app = new Hono().use(sharedFreshness(300))
  app.route('/prisma', createHydraApp({ prisma, access, cacheTags }))
  app.route('/compiled', createHydraApp({ prisma, access, cacheTags, engine: 'compiled' }))
  return app
}

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
  ;({ origin, cache, close } = await servedThroughCache(tagged({}).fetch))
}, 120_000)

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

async function get(path: string, through = origin) {
  const response = await fetch(`${through}${path}`, { headers: { Accept: 'application/ld+json' } })
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
  expect(cache.purges.slice(before).map((tags) => [...tags].sort())).toEqual([
    ['/tenants/2', 'Tenant.*', 'Tenant.public'].sort(),
  ])
  for (const path of paths) {
    const after = await get(path)
    expect(after.headers.get('x-cache'), path).toBe('MISS')
    expect(titles(after.body), path).not.toContain('B-article-2')
    expect(titles(after.body), path).toContain('A-article-1')
  }
})

it('purges them from Varnish, configured as caching.md says', async () => {
  if (!varnishPresent('the tenant purge through Varnish')) return
  // The tenant's articles are public again, in a server and a Varnish of this test's own.
  await prisma.tenant.update({ where: { id: 2 }, data: { public: true } })
  // Tagged in `xkey`, which the documented VCL purges by.
  const server = await startServer(tagged({ header: 'xkey' }).fetch)
  const varnish = await startVarnish(server.origin)
  try {
    const paths = MOUNTS.flatMap((mount) => [`${mount}/categories/1`, `${mount}/categories`])
    for (const path of paths) await get(path, varnish.origin)
    for (const path of paths)
      expect(titles((await get(path, varnish.origin)).body), path).toContain('B-article-2')
    expect((await varnish.hits()).sort()).toEqual([...paths].sort())
    const invalidation = hydraInvalidation({
      purge: httpPurge({ url: `${varnish.origin}/` }),
      resources: hydraResources,
    })
    await prisma.$extends(invalidation).tenant.update({ where: { id: 2 }, data: { public: false } })
    await invalidation.settled()
    // Kept five minutes, yet answered afresh: without the scope's models in the tags, Varnish
    // would go on serving tenant 2's articles.
    for (const path of paths) {
      const after = titles((await get(path, varnish.origin)).body)
      expect(after, path).not.toContain('B-article-2')
      expect(after, path).toContain('A-article-1')
    }
    expect((await varnish.hits()).length).toBe(paths.length)
  } finally {
    await varnish.stop()
    await server.close()
  }
})
