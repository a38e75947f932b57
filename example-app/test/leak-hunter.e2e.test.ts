/**
 * The leak hunter (docs/security.md): the filters fixture (every filter kind, to-one and to-many
 * relations, orders through a relation, full, partial, unpaged and cursor paging, sub-collections)
 * served with tenant scopes that read tokens `hono/jwt` verifies. Its oracle is the same API with
 * no rule at all over a database holding only the rows one identity may see: for every request,
 * the scoped answer to that identity must be exactly the oracle's (status, members, totals, links,
 * cursors, search templates, problems), so nothing in it can depend on a row only another
 * identity sees. Both are mounted in one server (`/scoped`, and `/seen-<identity>`); the scoped API
 * on the `compiled` engine too (`/compiled`). Identities whose every scope is one of the idioms of
 * "no row" (`{ OR: [] }`, `{ AND: [{ OR: [] }] }`, `{ NOT: {} }`, `{ id: { in: [] } }`, which
 * Prisma reads as every row once nested in the runtime's own `AND`, but for the last) are answered
 * as an API over an empty database. A caller whose guard refuses a related model is answered
 * through every relation filter as one whose scope of that model holds no row. Every request goes
 * through a shared cache (test/support/shared-cache.ts, or Varnish with
 * `HYDRA_TEST_SHARED_CACHE=varnish`) in front of the server, whose answers
 * without `Cache-Control` are shared for five minutes: identities ask the same URLs one after the
 * other, so an answer wrongly shared would reach the next one.
 */

import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { type Context, Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/filters/hydra/index.js'
import { type Prisma, PrismaClient } from '#fixtures/filters/prisma/client.js'
import { authenticate, claimsOf, type LibraryEnv, tokenFor } from '../src/auth.js'
import { createAdapter, freshDatabase, type TestDatabase } from './support/harness.js'
import { servedThroughSharedCache, sharedFreshness } from './support/shared-cache.js'

const SCHEMA = new URL('./fixtures/filters/schema.prisma', import.meta.url).pathname
const SECRET = 'leak hunter secret'

/** Each identity's owners (its tenant): it sees them, their items and those items' notes. */
const TENANTS = { first: [1], rest: [2, 3] } as const
type Identity = keyof typeof TENANTS

/** Identities whose scope of every model is one way of writing "no row". */
const NO_ROW_IDIOMS = {
  'no-row-or': { OR: [] },
  'no-row-and': { AND: [{ OR: [] }] },
  'no-row-not': { NOT: {} },
  'no-row-in': { id: { in: [] } },
} satisfies Record<string, Prisma.OwnerWhereInput & Prisma.ItemWhereInput & Prisma.NoteWhereInput>
type Nobody = keyof typeof NO_ROW_IDIOMS

/**
 * Through relations: `barred` may not read owners nor notes (their guards refuse it), `unowned`
 * reads them under a scope no row holds; both read every item.
 */
const RELATED_ONLY = new Set(['barred', 'unowned'])

/**
 * Through two relations (`/notes?item.owner.name=`): identities whose rules bear on one hop alone
 * (notes open to all), the middle one (items: refused by the guard, or scoped) or the last one
 * (owners), and one no rule bears on.
 */
const HOPS: Record<string, { itemGuard?: 'forbidden'; item?: object; owner?: object }> = {
  'hop-open': {},
  'hop-item-barred': { itemGuard: 'forbidden' },
  'hop-item-scoped': { item: { ownerId: { in: [2] } } },
  'hop-owner-scoped': { owner: { id: { in: [3] } } },
}
const hopOf = (c: Context<LibraryEnv>) => HOPS[claimsOf(c)?.sub ?? '']

const ownersOf = (sub: string | undefined): number[] =>
  sub !== undefined && sub in TENANTS ? [...TENANTS[sub as Identity]] : []

const idiomOf = (c: Context<LibraryEnv>) => NO_ROW_IDIOMS[claimsOf(c)?.sub as Nobody]
const sub = (c: Context<LibraryEnv>) => claimsOf(c)?.sub ?? ''
const guard = (c: Context<LibraryEnv>) => (sub(c) === 'barred' ? 'forbidden' : 'allow')
const unowned = (c: Context<LibraryEnv>) => (sub(c) === 'unowned' ? { id: { in: [] } } : undefined)
/**
 * A tenant's scope `where` of owners and notes; `barred` has none, so that its guard alone keeps
 * their rows from it (with the guard left out, it would see them all).
 */
const tenant = <W>(c: Context<LibraryEnv>, where: W) => (sub(c) === 'barred' ? undefined : where)

const access: HydraAccess<LibraryEnv> = {
  Owner: {
    guard,
    scope: (c) => {
      const hop = hopOf(c)
      if (hop) return hop.owner
      return idiomOf(c) ?? unowned(c) ?? tenant(c, { id: { in: ownersOf(sub(c)) } })
    },
  },
  Item: {
    guard: (c) => hopOf(c)?.itemGuard ?? 'allow',
    scope: (c) => {
      const hop = hopOf(c)
      if (hop) return hop.item
      return (
        idiomOf(c) ?? (RELATED_ONLY.has(sub(c)) ? undefined : { ownerId: { in: ownersOf(sub(c)) } })
      )
    },
  },
  Note: {
    guard,
    scope: (c) =>
      hopOf(c)
        ? undefined
        : (idiomOf(c) ??
          unowned(c) ??
          tenant(c, { item: { is: { ownerId: { in: ownersOf(sub(c)) } } } })),
  },
}

/** The fixture's rows, those of `owners` only. */
async function seed(client: PrismaClient, owners: readonly number[]): Promise<void> {
  const ownerOf = (item: number) => 1 + ((item - 1) % 3)
  await client.owner.createMany({
    data: [1, 2, 3]
      .filter((id) => owners.includes(id))
      .map((id) => ({
        id,
        name: `Owner ${id}`,
        score: id,
        joinedAt: id === 2 ? null : new Date(Date.UTC(2023, id, 1)),
        verified: id !== 3,
      })),
  })
  await client.item.createMany({
    data: Array.from({ length: 12 }, (_, index) => index + 1)
      .filter((id) => owners.includes(ownerOf(id)))
      .map((id) => ({
        id,
        title: `Item ${id} 50%_off`,
        code: `C-${id}`,
        tag: id % 2 ? 'odd' : 'even',
        words: 'garden path',
        genre: (['FICTION', 'SCIENCE', 'POETRY'] as const)[id % 3] ?? 'FICTION',
        price: (id * 1.75).toFixed(2),
        pages: 100 + (id % 5) * 10,
        // Shared dates: the cursor walks over equal keys.
        publishedAt: new Date(Date.UTC(2024, id % 4, 1)),
        returnedAt: id % 4 ? new Date(Date.UTC(2024, id % 6, 9)) : null,
        available: id % 3 === 0,
        ownerId: ownerOf(id),
      })),
  })
  await client.note.createMany({
    data: Array.from({ length: 18 }, (_, index) => index + 1)
      .filter((id) => owners.includes(ownerOf(1 + ((id - 1) % 9))))
      .map((id) => ({
        id,
        text: ['good', 'bad', 'meh'][id % 3] as string,
        stars: 1 + (id % 5),
        itemId: 1 + ((id - 1) % 9),
      })),
  })
}

/** Every identity the hunter asks as, and the mount of the API holding only its rows. */
const IDENTITIES = [...Object.keys(TENANTS), ...Object.keys(NO_ROW_IDIOMS)]
const oracleOf = (identity: string) => (identity in TENANTS ? `/seen-${identity}` : '/seen-nobody')

const clients: PrismaClient[] = []
const databases: TestDatabase[] = []
/** The shared cache's origin, in front of the server. */
let origin: string
let close: () => Promise<void>
let kept: () => Promise<string[]>
const tokens = new Map<string, string>()

async function database(owners: readonly number[]): Promise<PrismaClient> {
  const created = await freshDatabase(SCHEMA)
  databases.push(created)
  const client = new PrismaClient({ adapter: createAdapter(created.url) })
  clients.push(client)
  await seed(client, owners)
  return client
}

beforeAll(async () => {
  const all = await database([1, 2, 3])
  const app = new Hono()
    .use(sharedFreshness(300))
    .use(authenticate(SECRET))
    .route('/scoped', createHydraApp({ prisma: all, access, batchSize: 2 }))
    .route('/compiled', createHydraApp({ prisma: all, access, batchSize: 2, engine: 'compiled' }))
  for (const [identity, owners] of Object.entries(TENANTS))
    app.route(`/seen-${identity}`, createHydraApp({ prisma: await database(owners), batchSize: 2 }))
  app.route('/seen-nobody', createHydraApp({ prisma: await database([]), batchSize: 2 }))
  for (const identity of [...IDENTITIES, ...RELATED_ONLY, ...Object.keys(HOPS)])
    tokens.set(identity, await tokenFor({ sub: identity, role: 'reader' }, SECRET))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  ;({ origin, kept, close } = await servedThroughSharedCache(app.fetch))
}, 120_000)

afterAll(async () => {
  await close?.()
  for (const client of clients) await client.$disconnect()
  for (const created of databases) await created.remove()
})

/** Each request, as both mounts spell it: filters of every kind, orders, pages and modes. */
const REQUESTS = [
  '/owners',
  '/owners?page=2',
  '/items',
  '/items?page=2',
  '/items?partial=true&page=2',
  '/items?pagination=false',
  '/items?itemsPerPage=2&page=3',
  '/items?title=Item 1',
  '/items?code=C-1',
  '/items?tag=odd',
  '/items?words=pat',
  '/items?genre=POETRY',
  '/items?owner=1',
  '/items?owner=/OWNERS/2',
  '/items?owner[]=1&owner[]=2',
  '/items?owner.name=Owner',
  '/items?notes.text=good',
  '/items?notes.text=bad&notes.stars[gte]=3',
  '/items?price[between]=2..12',
  '/items?pages[gt]=110',
  '/items?owner.score[lte]=2',
  '/items?pages=120',
  '/items?publishedAt[after]=2024-02-01',
  '/items?returnedAt[before]=2024-03-09',
  '/items?owner.joinedAt[after]=2023-01-01',
  '/items?available=true',
  '/items?owner.verified=false',
  '/items?exists[returnedAt]=false',
  '/items?exists[owner.joinedAt]=true',
  '/items?order[title]=desc',
  '/items?order[price]=asc&order[pages]=desc&page=2',
  '/items?order[returnedAt]=asc&partial=true',
  '/items?order[publishedAt]=desc&pagination=false',
  '/items?properties[]=title&properties[owner][]=name',
  '/items?pagination=false&properties[owner][]=name&properties[owner][]=score',
  '/items?partial=true&page=2&properties[owner][]=joinedAt',
  '/owners/2/items?properties[owner][]=name&properties[]=price',
  ...[1, 2, 3, 5, 9].map((id) => `/items/${id}?properties[]=title&properties[owner][]=name`),
  '/items/4?properties[owner][]=score&properties[owner][]=joinedAt',
  '/items/feed?genre=FICTION',
  '/items/feed?order[price]=desc',
  '/owners/1/items',
  '/owners/2/items?page=2',
  '/owners/3/items?order[title]=asc',
  '/items/1/notes',
  '/items/2/notes',
  '/notes',
  '/notes?page=2',
  '/notes/by-item',
  '/notes?item.owner.name=Owner 2',
  '/notes?item.owner.name=Owner&page=2',
  '/notes?item.owner.score[gte]=2&item.owner.verified=true',
  '/notes?item.owner.verified=false',
  ...Array.from({ length: 13 }, (_, index) => `/items/${index + 1}`),
  '/owners/1',
  '/owners/2',
  '/notes/1',
  '/notes/2',
].map((path) => path.replace('/OWNERS/', '/scoped/owners/'))

/**
 * Orders through the owners, which scoped identities see in part (one relation away from items,
 * two from notes): refused to them alone.
 */
const PARTIAL_ORDERS = [
  '/items?order[owner.name]',
  '/items?order[owner.score]',
  '/notes?order[item.owner.name]',
]
const PARTIAL_VARIABLES = PARTIAL_ORDERS.map((order) => order.split('?')[1])

/**
 * The body without its search template, and the template's variables: a scoped identity's
 * template lists all of the oracle's but the orders through its partly visible owners.
 */
function split(body: Record<string, unknown>) {
  const { 'hydra:search': search, ...rest } = body
  const mappings = ((search as Record<string, unknown> | undefined)?.['hydra:mapping'] ??
    []) as Array<{ variable: string }>
  // A page but the entry page refers to the template by its IRI: compared as the rest is.
  const kept = mappings.length > 0 ? rest : body
  return { rest: JSON.stringify(kept), variables: mappings.map((mapping) => mapping.variable) }
}

/** The answer to `path` under `mount`, with the mount written as `/api` in the body. */
async function answer(mount: string, path: string, token?: string) {
  const response = await fetch(`${origin}${mount}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  // Links write the mount as it is, and encoded inside a query (`owner=%2Fscoped%2F…`).
  const text = (await response.text())
    .replaceAll(mount, '/api')
    .replaceAll(encodeURIComponent(mount), encodeURIComponent('/api'))
  return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> }
}

describe('the leak hunter', () => {
  for (const identity of IDENTITIES) {
    it(`answers ${identity} exactly as an API holding only its rows, on both engines`, async () => {
      const token = tokens.get(identity)
      const seen = oracleOf(identity)
      let compared = 0
      for (const raw of REQUESTS) {
        // A related item's IRI names it under the mount it is sent to.
        const path = (mount: string) => raw.replace('/scoped/', `${mount}/`)
        const oracle = await answer(seen, path(seen))
        for (const mount of ['/scoped', '/compiled']) {
          const scoped = await answer(mount, path(mount), token)
          expect(scoped.status, `${identity} ${mount}${raw}`).toBe(oracle.status)
          const [mine, theirs] = [split(scoped.body), split(oracle.body)]
          expect(mine.rest, `${identity} ${mount}${raw}`).toBe(theirs.rest)
          expect(mine.variables, `${identity} ${mount}${raw}`).toEqual(
            theirs.variables.filter((variable) => !PARTIAL_VARIABLES.includes(variable))
          )
        }
        compared++
      }
      expect(compared).toBe(REQUESTS.length)
    })

    it(`walks ${identity}'s cursor pages exactly as the oracle does`, async () => {
      const token = tokens.get(identity)
      const seen = oracleOf(identity)
      let next: string | undefined = '/items/feed'
      let pages = 0
      while (next && pages < 20) {
        const scoped = await answer('/scoped', next, token)
        const oracle = await answer(seen, next)
        expect(split(scoped.body).rest, `${identity} ${next}`).toBe(split(oracle.body).rest)
        const view = scoped.body['hydra:view'] as Record<string, string>
        next = view['hydra:next']?.replace('/api', '')
        pages++
      }
      // Six a page: the rest's eight items take two.
      expect(pages).toBe(identity === 'rest' ? 2 : 1)
    })

    it(`refuses ${identity} orders through its partly visible owners`, async () => {
      for (const order of PARTIAL_ORDERS.map((name) => `${name}=asc`)) {
        const scoped = await answer('/scoped', order, tokens.get(identity))
        expect(scoped.status, order).toBe(400)
        expect((await answer(oracleOf(identity), order)).status, order).toBe(200)
      }
    })
  }
})

/** Filters through owners (to-one) and notes (to-many), and orders through owners. */
const THROUGH_RELATIONS = [
  '/items?owner=1',
  '/items?owner=/scoped/owners/2',
  '/items?owner[]=1&owner[]=2',
  '/items?owner.name=Owner',
  '/items?owner.score[lte]=2',
  '/items?owner.joinedAt[after]=2023-01-01',
  '/items?owner.verified=false',
  '/items?exists[owner.joinedAt]=true',
  '/items?exists[owner.joinedAt]=false',
  '/items?notes.text=good',
  '/items?notes.text=bad&notes.stars[gte]=3',
  '/items?notes.stars=3',
  '/items?pagination=false&owner.name=Owner',
  '/items?partial=true&notes.text=good',
  '/items/feed?owner.name=Owner',
  '/items/feed?notes.text=good',
  '/items?order[owner.name]=asc',
  '/items?properties[owner][]=name',
  '/items?pagination=false&properties[]=title&properties[owner][]=verified',
  '/items/1?properties[owner][]=name',
  '/items/2?properties[]=title&properties[owner][]=verified',
]

describe('a related model whose guard refuses the caller', () => {
  it('shows no row through any relation, as a scope holding no row does', async () => {
    for (const path of THROUGH_RELATIONS) {
      for (const mount of ['/scoped', '/compiled']) {
        const at = `${mount}${path.replace('/scoped/', `${mount}/`)}`
        const barred = await fetch(`${origin}${at}`, {
          headers: { Authorization: `Bearer ${tokens.get('barred')}` },
        })
        const unowned = await fetch(`${origin}${at}`, {
          headers: { Authorization: `Bearer ${tokens.get('unowned')}` },
        })
        expect(barred.status, at).toBe(unowned.status)
        expect(await barred.text(), at).toBe(await unowned.text())
      }
    }
    // Neither sees an item through its owner, though both see every item.
    const seen = await answer('/scoped', '/items?owner.name=Owner', tokens.get('barred'))
    expect(seen.body['hydra:totalItems']).toBe(0)
    const every = await answer('/scoped', '/items', tokens.get('barred'))
    expect(every.body['hydra:totalItems']).toBe(12)
    // Nor an owner embedded: each stays its IRI.
    const shaped = await answer('/scoped', '/items?properties[owner][]=name', tokens.get('barred'))
    for (const item of shaped.body['hydra:member'] as Array<{ owner: unknown }>)
      expect(typeof item.owner).toBe('string')
    // Nor on an item, whether the guard refuses or the scope holds no row.
    for (const identity of ['barred', 'unowned'])
      for (const mount of ['/scoped', '/compiled']) {
        const item = await answer(mount, '/items/1?properties[owner][]=name', tokens.get(identity))
        expect(item.status).toBe(200)
        expect(item.body.owner, `${identity} ${mount}`).toBe('/api/owners/1')
      }
    expect((await answer('/scoped', '/owners/1', tokens.get('barred'))).status).toBe(403)
  })
})

/** The notes whose item's owner is one of `owners` (the seed's: item i of owner 1 + (i-1)%3). */
const notesOfOwners = (owners: readonly number[]) =>
  Array.from({ length: 18 }, (_, index) => index + 1).filter((id) =>
    owners.includes(1 + ((1 + ((id - 1) % 9) - 1) % 3))
  )

describe('a filter through two relations', () => {
  // Every owner's name holds "Owner": without rules every note matches, so each answer below
  // that differs from all 18 is the work of one hop's rule.
  const EXPECTED: Record<string, number[]> = {
    'hop-open': notesOfOwners([1, 2, 3]),
    'hop-item-barred': [],
    'hop-item-scoped': notesOfOwners([2]),
    'hop-owner-scoped': notesOfOwners([3]),
  }

  it('holds the middle relation’s guard and scope and the last one’s, on both engines', async () => {
    expect(EXPECTED['hop-open']).toHaveLength(18)
    for (const [identity, expected] of Object.entries(EXPECTED)) {
      const token = tokens.get(identity)
      const texts = new Set<string>()
      for (const mount of ['/scoped', '/compiled']) {
        const { status, text, body } = await answer(mount, '/notes?item.owner.name=Owner', token)
        expect(status, `${identity} ${mount}`).toBe(200)
        const members = body['hydra:member'] as Array<{ id: number }>
        expect(
          members.map((member) => member.id),
          `${identity} ${mount}`
        ).toEqual(expected)
        expect(body['hydra:totalItems'], `${identity} ${mount}`).toBe(expected.length)
        texts.add(text)
      }
      expect(texts.size, identity).toBe(1)
    }
  })

  it('holds them when the path ends at the owner, named by IRI or id', async () => {
    // Notes are open to all and no rule bears on items for hop-open and hop-owner-scoped: an
    // owner hop-owner-scoped may not see (2) selects no note only because the last relation's
    // scope holds; one hop-item-scoped may not reach (3), because the middle one's does.
    const expected: Record<string, Record<number, number[]>> = {
      'hop-open': { 2: notesOfOwners([2]), 3: notesOfOwners([3]) },
      'hop-item-barred': { 2: [], 3: [] },
      'hop-item-scoped': { 2: notesOfOwners([2]), 3: [] },
      'hop-owner-scoped': { 2: [], 3: notesOfOwners([3]) },
    }
    for (const [identity, byOwner] of Object.entries(expected)) {
      const token = tokens.get(identity)
      for (const [owner, notes] of Object.entries(byOwner)) {
        for (const iri of [false, true]) {
          // Both engines answer alike (answer() writes either mount as /api).
          const texts = new Set<string>()
          for (const mount of ['/scoped', '/compiled']) {
            const value = iri ? `${mount}/owners/${owner}` : owner
            const path = `/notes?item.owner=${encodeURIComponent(value)}`
            const { status, text, body } = await answer(mount, path, token)
            const about = `${identity} ${mount} ${value}`
            expect(status, about).toBe(200)
            const members = body['hydra:member'] as Array<{ id: number }>
            expect(
              members.map((member) => member.id),
              about
            ).toEqual(notes)
            texts.add(text)
          }
          expect(texts.size, `${identity} ${owner}`).toBe(1)
        }
      }
    }
  })

  it('orders through them only for a caller who sees every row of both', async () => {
    const ordered = '/notes?order[item.owner.name]=desc'
    const open = await answer('/scoped', ordered, tokens.get('hop-open'))
    expect(open.status).toBe(200)
    expect((open.body['hydra:member'] as Array<{ id: number }>)[0]?.id).toBe(3)
    for (const identity of ['hop-item-barred', 'hop-item-scoped', 'hop-owner-scoped']) {
      const refused = await answer('/scoped', ordered, tokens.get(identity))
      expect(refused.status, identity).toBe(400)
      expect(split(refused.body).variables, identity).not.toContain('order[item.owner.name]')
    }
  })
})

describe('the shared cache in front', () => {
  it('kept the answers shared by every caller, and none of a caller’s own', async () => {
    const answers = await kept()
    // The oracles' answers, which no rule bears on, were kept and served to later requests.
    expect(answers.filter((url) => url.startsWith('/seen-')).length).toBeGreaterThan(50)
    expect(answers.filter((url) => /^\/(scoped|compiled)\//.test(url))).toEqual([])
  })
})
