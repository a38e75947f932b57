/**
 * Purges of answers whose to-one link is written from a row holding their key
 * (docs/caching.md#value-tags), on test/fixtures/relations, through a shared cache in front of
 * the app (test/support/shared-cache.ts, every answer kept five minutes) purged by
 * `hydraInvalidation` over HTTP, on both engines. An article's `body` is the IRI of the body whose
 * `articleId` is the article's: a body created or deleted changes the article's item and pages,
 * though no article changes. Each answer asked through the cache after the write is the one the
 * app gives directly; the item of another article stays cached after the write.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp, hydraResources } from '#fixtures/relations/hydra/index.js'
import { PrismaClient } from '#fixtures/relations/prisma/client.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'
import { sharedCache, sharedFreshness } from './support/shared-cache.js'

const SCHEMA = new URL('./fixtures/relations/schema.prisma', import.meta.url).pathname
const ENGINES = ['prisma', 'compiled'] as const

let database: TestDatabase
let prisma: PrismaClient
const closes: (() => Promise<void>)[] = []
type Cache = Awaited<ReturnType<typeof sharedCache>>
const apps = new Map<string, { cache: Cache; origin: string }>()

beforeAll(async () => {
  database = await freshDatabase(SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await prisma.desk.create({ data: { id: 1, name: 'Desk 1' } })
  await prisma.article.createMany({
    data: [1, 2, 3, 4, 5, 6].map((id) => ({ id, headline: `Headline ${id}`, deskId: 1 })),
  })
  for (const engine of ENGINES) {
    const app = new Hono()
      .use(sharedFreshness(300))
      .route('/', createHydraApp({ prisma, cacheTags: {}, engine, adapter }))
    const server = await startServer(app.fetch)
    const cache = await sharedCache(server.origin)
    closes.push(server.close, cache.close)
    apps.set(engine, { cache, origin: server.origin })
  }
}, 120_000)

afterAll(async () => {
  for (const close of closes.reverse()) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

async function get(on: string, path: string) {
  const response = await fetch(`${on}${path}`, { headers: { Accept: 'application/ld+json' } })
  return { cache: response.headers.get('x-cache'), body: await response.text() }
}

/** Waits until the cache has received `count` purges in all (they leave after the write). */
async function purgesReach(cache: { purges: string[][] }, count: number): Promise<void> {
  for (let tries = 0; cache.purges.length < count && tries < 300; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10))
  expect(cache.purges.length).toBeGreaterThanOrEqual(count)
}

/** The article's `body` link as `path` shows it through the cache, and directly. */
async function bodies(cache: Cache, origin: string, path: string) {
  const cached = await get(cache.origin, path)
  const direct = await get(origin, path)
  return { cached: cached.body, direct: direct.body }
}

describe.each(ENGINES)('a one-to-one row holding its parent key (%s engine)', (engine) => {
  // Each engine writes the body of its own article, so that the two runs do not meet.
  const article = engine === 'prisma' ? 2 : 3
  const other = engine === 'prisma' ? 4 : 5
  const watched = [`/articles/${article}`, '/articles', '/desks/1/articles', '/articles/feed']

  it("purges the parent's item and pages when the row is created, then deleted", async () => {
    const app = apps.get(engine)
    if (!app) throw new Error(`no app on ${engine}`)
    const { cache, origin } = app
    const writes = prisma.$extends(
      hydraInvalidation({
        purge: httpPurge({ url: `${cache.origin}/` }),
        resources: hydraResources,
      })
    )
    for (const path of [...watched, `/articles/${other}`]) await get(cache.origin, path)
    expect((await get(cache.origin, `/articles/${article}`)).cache).toBe('HIT')
    expect(JSON.parse((await get(cache.origin, `/articles/${article}`)).body).body).toBeNull()

    const id = 100 + article
    await writes.articleBody.create({ data: { id, articleId: article, text: 'A body' } })
    await purgesReach(cache, 1)
    const created = await bodies(cache, origin, `/articles/${article}`)
    expect(JSON.parse(created.cached).body).toBe(`/article-bodies/${id}`)
    for (const path of watched) {
      const { cached, direct } = await bodies(cache, origin, path)
      expect(cached, path).toBe(direct)
    }
    // Another article's item holds none of the body's values: it stays cached.
    expect((await get(cache.origin, `/articles/${other}`)).cache).toBe('HIT')

    const purged = cache.purges.length
    await writes.articleBody.delete({ where: { id } })
    await purgesReach(cache, purged + 1)
    const deleted = await bodies(cache, origin, `/articles/${article}`)
    expect(JSON.parse(deleted.cached).body).toBeNull()
    for (const path of watched) {
      const { cached, direct } = await bodies(cache, origin, path)
      expect(cached, path).toBe(direct)
    }
  })
})
