/**
 * Row scopes that read claims of the wrong shape (docs/security.md, "Faulty scopes"): a validly
 * signed token whose claim is an object, an operator, a text for a number column or a text
 * holding NUL. Prisma would read some of them as no condition (every row), refuse others, and the
 * databases and engines would answer the rest in different ways. Each is refused before any row
 * is read, with the same 500 on every database and engine, and a log line naming the model and
 * the operation.
 */

import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { type Context, Hono } from 'hono'
import { jwt, sign } from 'hono/jwt'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/filters/hydra/index.js'
import type { Prisma } from '#fixtures/filters/prisma/client.js'
import { PrismaClient } from '#fixtures/filters/prisma/client.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'

const SCHEMA = new URL('./fixtures/filters/schema.prisma', import.meta.url).pathname
const SECRET = 'scope faults secret'

/** The claims as the token carries them, whatever their type. */
const claims = (c: Context) => (c.get('jwtPayload') ?? {}) as Record<string, unknown>

// The scopes hand claims to Prisma unchecked: the faults under test. (The docs' scopes check
// their claims first; these do not, to show what the runtime does when a scope does not.)
const access: HydraAccess = {
  Item: {
    scope: (c) =>
      ({ ownerId: claims(c).tenant, genre: { in: claims(c).genres } }) as Prisma.ItemWhereInput,
  },
  Owner: { scope: (c) => ({ name: claims(c).name }) as Prisma.OwnerWhereInput },
}

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let close: () => Promise<void>

beforeAll(async () => {
  database = await freshDatabase(SCHEMA)
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.owner.createMany({
    data: [1, 2].map((id) => ({ id, name: `Owner ${id}`, score: id, verified: true })),
  })
  await prisma.item.createMany({
    data: [1, 2, 3, 4].map((id) => ({
      id,
      title: `Item ${id}`,
      code: `C-${id}`,
      tag: 'tag',
      words: 'words',
      genre: 'FICTION' as const,
      price: '1.50',
      pages: 100,
      publishedAt: new Date(Date.UTC(2024, id, 1)),
      available: true,
      ownerId: 1 + (id % 2),
    })),
  })
  // hono/jwt alone: the claims reach the scopes as the tokens hold them, unchecked.
  const verify = jwt({ secret: SECRET, alg: 'HS256' })
  const app = new Hono()
    .use((c, next) => (c.req.header('Authorization') ? verify(c, next) : next()))
    .route('/prisma', createHydraApp({ prisma, access }))
    .route('/compiled', createHydraApp({ prisma, access, engine: 'compiled' }))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  ;({ origin, close } = await startServer(app.fetch))
}, 120_000)

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

/** Claims of the right shape: tenant 2's fiction, owner 1. */
const RIGHT = { tenant: 2, genres: ['FICTION'], name: 'Owner 1' }

const tokenOf = (payload: Record<string, unknown>) =>
  sign({ ...payload, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET, 'HS256')

/** Every read path of Item: pages of each mode, an item, a sub-collection, a cursor feed. */
const ITEM_PATHS = [
  '/items',
  '/items?partial=true',
  '/items?pagination=false',
  '/items?title=Item',
  '/items/feed',
  '/items/1',
  '/owners/1/items',
]

async function answers(payload: Record<string, unknown>, paths: readonly string[]) {
  const token = await tokenOf(payload)
  const seen: string[] = []
  for (const path of paths)
    for (const engine of ['/prisma', '/compiled']) {
      const response = await fetch(`${origin}${engine}${path}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
      seen.push(`${engine}${path} ${response.status}`)
      await response.arrayBuffer()
    }
  return seen
}

const all = (paths: readonly string[], status: number) =>
  paths.flatMap((path) => ['/prisma', '/compiled'].map((engine) => `${engine}${path} ${status}`))

describe('a scope reading a claim of the wrong shape', () => {
  it('serves the claim of the right type on both engines', async () => {
    expect(await answers(RIGHT, ITEM_PATHS)).toEqual(all(ITEM_PATHS, 200))
    const token = await tokenOf({ tenant: 2, genres: ['FICTION'], name: 'Owner 1' })
    const page = await fetch(`${origin}/prisma/items`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    expect(((await page.json()) as Record<string, unknown>)['hydra:totalItems']).toBe(2)
  })

  it('is a 500 on every database and engine, whatever the wrong shape', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      for (const tenant of [
        {},
        { $ne: null },
        { not: null, gt: {} },
        // Objects comparing nothing, which Prisma reads as no condition.
        { mode: 'insensitive' },
        { not: { mode: 'insensitive' } },
        '2',
        2.5,
        2 ** 40,
        true,
        null,
        [2],
      ])
        expect(await answers({ ...RIGHT, tenant }, ITEM_PATHS), JSON.stringify(tenant)).toEqual(
          all(ITEM_PATHS, 500)
        )
      for (const name of ['Owner\u00001', 123, {}, ['Owner 1'], { mode: 'insensitive' }])
        expect(
          await answers({ ...RIGHT, name }, ['/owners', '/owners/1']),
          JSON.stringify(name)
        ).toEqual(all(['/owners', '/owners/1'], 500))
      for (const genres of [['NOPE'], [null], 'FICTION', [{}]])
        expect(await answers({ ...RIGHT, genres }, ITEM_PATHS), JSON.stringify(genres)).toEqual(
          all(ITEM_PATHS, 500)
        )
      // A claim Prisma would read as no condition is refused by the runtime, which names the
      // model, the operation and the path of the value.
      const lines = logged.mock.calls.map((call) => call.map(String).join(' '))
      expect(lines).toContainEqual(
        expect.stringContaining('The row scope of Item (collection) answered {}')
      )
      expect(lines).toContainEqual(
        expect.stringContaining('The row scope of Item (item) answered {}')
      )
      expect(lines).toContainEqual(
        expect.stringContaining(
          'The row scope of Owner (collection) answered a text holding NUL at name'
        )
      )
      expect(lines).toContainEqual(
        expect.stringContaining(
          'The row scope of Item (collection) answered one value (string) where a list belongs at genre.in'
        )
      )
    } finally {
      logged.mockRestore()
    }
  })

  it('answers a missing claim the same way, before any row is read', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      expect(await answers({ ...RIGHT, tenant: undefined }, ITEM_PATHS)).toEqual(
        all(ITEM_PATHS, 500)
      )
      const lines = logged.mock.calls.map((call) => call.map(String).join(' '))
      expect(lines).toContainEqual(
        expect.stringContaining('The row scope of Item (collection) answered undefined')
      )
    } finally {
      logged.mockRestore()
    }
  })
})
