/**
 * Custom collection handlers (spec 4.2) over real HTTP: every paginator variant and every return
 * kind on the reference's provider-backed fixture (30 items, 3 per page), with the scenario matrix
 * of generated routes (first, middle, last, beyond the last page, empty), the same errors, typed
 * responses through Hono's RPC client, and streamed whole collections that stop when the client
 * goes away.
 */
import {
  type CustomQueryOptions,
  type FilterCondition,
  fullPaginator,
  hydraCollection,
  hydraErrorHandler,
  type OrderEntry,
  type ProviderQuery,
  paginateArray,
  paginateIterable,
  partialPaginator,
} from '@prisma-hydra/runtime'
import { defaultPagingConfig } from '@prisma-hydra/runtime/defaults'
import { type RowWindow, serveSource } from '@prisma-hydra/runtime/generated'
import { Hono } from 'hono'
import { hc } from 'hono/client'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { get, ids, startServer } from './support/harness.js'

interface Item {
  '@id': string
  '@type': 'Item'
  id: number
}
const item = (id: number): Item => ({ '@id': `/items/${id}`, '@type': 'Item', id })
const thirty = Array.from({ length: 30 }, (_, index) => item(index + 1))
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)

function* syncItems(items: Item[]): Generator<Item> {
  yield* items
}
async function* asyncItems(items: Item[]): AsyncGenerator<Item> {
  for (const entry of items) yield entry
}

/** The reference's test kernel: client controls on, 3 per page, maximum 30. */
const kernel = {
  itemsPerPage: 3,
  clientEnabled: true,
  clientItemsPerPage: true,
  clientPartial: true,
} as const
const context = '/contexts/Item'

/** Reads of the endless feed, and whether it was closed, for the disconnect tests. */
const endless = { pulled: 0, closed: false }
const generated = { reads: 0 }

function fixtureApp(items: Item[]) {
  return new Hono()
    .get(
      '/array',
      hydraCollection({ context, paging: kernel }, (request) => paginateArray(items, request))
    )
    .get(
      '/unbounded',
      hydraCollection({ context, paging: { ...kernel, maximumItemsPerPage: null } }, (request) =>
        paginateArray(items, request)
      )
    )
    .get(
      '/iterable',
      hydraCollection({ context, paging: kernel }, (request) =>
        paginateIterable(syncItems(items), request)
      )
    )
    .get(
      '/async',
      hydraCollection({ context, paging: kernel }, (request) =>
        paginateIterable(asyncItems(items), request)
      )
    )
    .get(
      '/async-sized',
      hydraCollection({ context, paging: kernel }, (request) =>
        paginateIterable(asyncItems(items), request, { totalItems: items.length })
      )
    )
    .get(
      '/own-query',
      // A page read by its own query (as LIMIT/OFFSET would), with the count beside it.
      hydraCollection({ context, paging: kernel }, async (request) => {
        if (!request.paged) return items
        const { offset, itemsPerPage } = request
        const page = items.slice(offset, offset + itemsPerPage)
        if (request.partial) {
          return partialPaginator(request, page, items.length > offset + itemsPerPage)
        }
        return fullPaginator(request, page, items.length)
      })
    )
}

/** Items with a tag and a score, filtered and ordered by a custom handler. */
interface Tagged extends Item {
  tag: string
  score: number
}
const TAGS = ['red', 'green', 'blue']
const tagged: Tagged[] = thirty.map((entry) => ({
  ...entry,
  tag: TAGS[entry.id % 3] as string,
  score: (entry.id * 7) % 10,
}))
const TAGGED_QUERY = {
  filters: [
    { kind: 'search', field: 'tag', strategy: 'exact', type: 'String' },
    { kind: 'range', field: 'score', type: 'Int' },
  ],
  order: [{ field: 'score', type: 'Int' }],
  id: { field: 'id', type: 'Int' },
} satisfies CustomQueryOptions
/** The parsed queries the handler received. */
const received: ProviderQuery[] = []

function taggedMatches(entry: Tagged, condition: FilterCondition): boolean {
  if (condition.kind === 'search') return condition.values.includes(entry.tag)
  if (condition.kind !== 'range') throw new TypeError(`no ${condition.kind} filter declared`)
  if (condition.operator === 'between') {
    const [low, high] = condition.value as [number, number]
    return entry.score >= low && entry.score <= high
  }
  const bound = condition.value as number
  return {
    gt: entry.score > bound,
    gte: entry.score >= bound,
    lt: entry.score < bound,
    lte: entry.score <= bound,
  }[condition.operator]
}

function compareTagged(order: readonly OrderEntry[]) {
  return (a: Tagged, b: Tagged): number => {
    for (const { field, direction } of order) {
      const key = field as 'score' | 'id'
      if (a[key] !== b[key]) return (a[key] - b[key]) * (direction === 'asc' ? 1 : -1)
    }
    return 0
  }
}

const routes = ['/array', '/iterable', '/async', '/async-sized', '/own-query'] as const

function testApp() {
  const app = new Hono()
    .route('/', fixtureApp(thirty))
    .route('/empty', fixtureApp([]))
    .get(
      '/partial',
      hydraCollection({ context, paging: { ...kernel, partial: true } }, (request) =>
        paginateArray(thirty, request)
      )
    )
    .get(
      '/plain',
      hydraCollection({ context, paging: kernel }, () => thirty)
    )
    .get(
      '/streamed',
      hydraCollection({ context, paging: kernel, batchSize: 4 }, () => asyncItems(thirty))
    )
    .get(
      '/capped',
      hydraCollection({ context, paging: { ...kernel, maximumItemsPerPage: 30 } }, (request) =>
        paginateArray(range(1, 80).map(item), request)
      )
    )
    .get(
      '/renamed',
      hydraCollection(
        { context, paging: { ...kernel, parameters: { page: 'p', itemsPerPage: 'size' } } },
        (request) => paginateArray(thirty, request)
      )
    )
    .get(
      '/defaults',
      hydraCollection({ context: 'https://example.org/contexts/Item' }, (request) =>
        paginateArray(range(1, 70).map(item), request)
      )
    )
    .get(
      '/failing-first',
      hydraCollection({ context }, async function* () {
        yield* []
        throw new Error('the feed is down')
      })
    )
    .get(
      '/failing-later',
      hydraCollection({ context, batchSize: 2 }, async function* () {
        yield* thirty.slice(0, 5)
        throw new Error('the feed broke')
      })
    )
    .get(
      '/endless',
      hydraCollection({ context, batchSize: 100 }, async function* () {
        try {
          for (let id = 1; ; id++) {
            endless.pulled++
            yield item(id)
          }
        } finally {
          endless.closed = true
        }
      })
    )
    .get(
      '/filtered',
      hydraCollection({ context, paging: kernel, query: TAGGED_QUERY }, (request, _c, query) => {
        received.push(query)
        const kept = tagged
          .filter((entry) => query.filters.every((condition) => taggedMatches(entry, condition)))
          .sort(compareTagged(query.order))
        return paginateArray(kept, request)
      })
    )
    .get('/generated-source', (c) =>
      serveSource(
        c,
        {
          resource: {
            name: 'Item',
            collectionPath: '/items',
            id: { name: 'id', kind: 'Int' },
            fields: [{ name: 'id', type: 'Int' }],
            toMember: (row) => item((row as { id: number }).id),
            iriOf: (row) => `/items/${(row as { id: number }).id}`,
            parseId: (raw) => Number(raw),
          },
          path: '/generated-source',
          paging: { ...defaultPagingConfig, enabled: false },
          orderKey: [{ field: 'id', direction: 'asc', type: 'Int' }],
        },
        endlessSource(),
        { batchSize: 50 }
      )
    )
  app.onError(hydraErrorHandler)
  return app
}

/** A table that never ends, read as the generated routes read Prisma: keyset windows. */
function endlessSource() {
  return {
    async findMany(window: RowWindow<{ id: { gt: number } }>) {
      generated.reads++
      const after = window.where?.id.gt ?? 0
      return Array.from({ length: window.take ?? 0 }, (_, i) => ({ id: after + i + 1 }))
    },
    async count() {
      return Number.POSITIVE_INFINITY
    },
  }
}

let origin: string
let close: () => Promise<void>
const app = testApp()

beforeAll(async () => {
  ;({ origin, close } = await startServer(app.fetch))
})
afterAll(async () => {
  await close?.()
})

const view = (body: Record<string, unknown>) =>
  body['hydra:view'] as Record<string, string> | undefined

/** The `hydra:search` a custom collection at `path` writes: its parameters' IRI template. */
const searchAt = (path: string) =>
  expect.objectContaining({
    '@type': 'hydra:IriTemplate',
    'hydra:template': expect.stringMatching(new RegExp(`^${path}\\{\\?page,`)),
  })

describe.each(routes)('%s: the scenario matrix of generated routes', (route) => {
  it('first page: ids 1-3, count 30, first, last 10 and next', async () => {
    const response = await get(origin, route)
    expect(response.status).toBe(200)
    expect(response.contentType).toBe('application/ld+json; charset=utf-8')
    expect(response.body).toEqual({
      '@context': '/contexts/Item',
      '@id': route,
      '@type': 'hydra:Collection',
      'hydra:totalItems': 30,
      'hydra:member': [item(1), item(2), item(3)],
      'hydra:view': {
        '@id': `${route}?page=1`,
        '@type': 'hydra:PartialCollectionView',
        'hydra:first': `${route}?page=1`,
        'hydra:last': `${route}?page=10`,
        'hydra:next': `${route}?page=2`,
      },
      'hydra:search': searchAt(route),
    })
  })

  it('a middle page (7): ids 19-21, previous 6, next 8', async () => {
    const { body } = await get(origin, `${route}?page=7`)
    expect(ids(body)).toEqual([19, 20, 21])
    expect(view(body)).toMatchObject({
      'hydra:previous': `${route}?page=6`,
      'hydra:next': `${route}?page=8`,
    })
  })

  it('the last page (10): ids 28-30, previous 9, no next', async () => {
    const { body } = await get(origin, `${route}?page=10`)
    expect(ids(body)).toEqual([28, 29, 30])
    expect(view(body)?.['hydra:previous']).toBe(`${route}?page=9`)
    expect(view(body)).not.toHaveProperty('hydra:next')
  })

  it('beyond the last page (12): no members, previous 11, last 10', async () => {
    const { body } = await get(origin, `${route}?page=12`)
    expect(body['hydra:member']).toEqual([])
    expect(body['hydra:totalItems']).toBe(30)
    expect(view(body)).toMatchObject({
      'hydra:last': `${route}?page=10`,
      'hydra:previous': `${route}?page=11`,
    })
    expect(view(body)).not.toHaveProperty('hydra:next')
  })

  it('an empty collection: no members, count 0, no view', async () => {
    const { body } = await get(origin, `/empty${route}`)
    expect(body).toEqual({
      '@context': '/empty/contexts/Item',
      '@id': `/empty${route}`,
      '@type': 'hydra:Collection',
      'hydra:totalItems': 0,
      'hydra:member': [],
      'hydra:search': searchAt(`/empty${route}`),
    })
  })

  it('page=2&itemsPerPage=10: the page size is kept in every link', async () => {
    const { body } = await get(origin, `${route}?page=2&itemsPerPage=10`)
    expect(ids(body)).toEqual(range(11, 20))
    expect(view(body)).toEqual({
      '@id': `${route}?itemsPerPage=10&page=2`,
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': `${route}?itemsPerPage=10&page=1`,
      'hydra:last': `${route}?itemsPerPage=10&page=3`,
      'hydra:previous': `${route}?itemsPerPage=10&page=1`,
      'hydra:next': `${route}?itemsPerPage=10&page=3`,
    })
  })

  it('partial=1 on page 7: previous and next, no count, no first or last', async () => {
    const { body } = await get(origin, `${route}?page=7&partial=1`)
    expect(ids(body)).toEqual([19, 20, 21])
    expect(body).not.toHaveProperty('hydra:totalItems')
    expect(view(body)).toEqual({
      '@id': `${route}?partial=1&page=7`,
      '@type': 'hydra:PartialCollectionView',
      'hydra:previous': `${route}?partial=1&page=6`,
      'hydra:next': `${route}?partial=1&page=8`,
    })
  })

  it('pagination=0: every item, count 30, a view without links whose @id is the request (D6)', async () => {
    const { body } = await get(origin, `${route}?pagination=0`)
    expect(ids(body)).toEqual(range(1, 30))
    expect(body['hydra:totalItems']).toBe(30)
    expect(body['hydra:view']).toEqual({
      '@id': `${route}?pagination=0`,
      '@type': 'hydra:PartialCollectionView',
    })
  })

  it('a filter-like parameter keeps its place in the view @id', async () => {
    const { body } = await get(origin, `${route}?name=Dummy%20%238`)
    expect(view(body)?.['@id']).toBe(`${route}?name=Dummy%20%238&page=1`)
  })

  it.each([
    ['page=0', 'Page should not be less than 1'],
    ['itemsPerPage=-1', 'Limit should not be less than 0'],
    ['itemsPerPage=0&page=2', 'Page should not be greater than 1 if limit is equal to 0'],
    ['page=abc', 'The "page" parameter must be a decimal integer, "abc" given.'],
    [
      'partial=maybe',
      'The "partial" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "maybe" given.',
    ],
    ['page=99999999999999999999', 'Page parameter is too large.'],
  ])("?%s: 400 with the generated routes' message", async (query, detail) => {
    const response = await get(origin, `${route}?${query}`)
    expect(response.status).toBe(400)
    expect(response.contentType).toBe('application/problem+json; charset=utf-8')
    expect(response.body.detail).toBe(detail)
  })
})

describe('page numbers of 10^14 and more, with no maximum page size', () => {
  it('are written as decimal integers, and every link answers', async () => {
    const start = '/unbounded?page=100000000000002&itemsPerPage=1'
    for (const partial of ['0', '1']) {
      const response = await get(origin, `${start}&partial=${partial}`)
      expect(response.status).toBe(200)
      const links = Object.entries(view(response.body) ?? {}).filter(([name]) => name !== '@type')
      expect(Object.fromEntries(links)).toMatchObject({
        '@id': `/unbounded?itemsPerPage=1&partial=${partial}&page=100000000000002`,
        'hydra:previous': `/unbounded?itemsPerPage=1&partial=${partial}&page=100000000000001`,
      })
      for (const [, link] of links) {
        expect(link).toMatch(/&page=[0-9]+$/)
        expect((await get(origin, link)).status, link).toBe(200)
      }
    }
  })
})

describe('each return kind', () => {
  it('a partial paginator: the partial view on every page', async () => {
    const first = await get(origin, '/partial')
    expect(first.body).not.toHaveProperty('hydra:totalItems')
    expect(view(first.body)).toEqual({
      '@id': '/partial?page=1',
      '@type': 'hydra:PartialCollectionView',
      'hydra:next': '/partial?page=2',
    })
    const last = await get(origin, '/partial?page=10')
    expect(ids(last.body)).toEqual([28, 29, 30])
    expect(view(last.body)).toEqual({
      '@id': '/partial?page=10',
      '@type': 'hydra:PartialCollectionView',
      'hydra:previous': '/partial?page=9',
    })
    const beyond = await get(origin, '/partial?page=11')
    expect(beyond.body['hydra:member']).toEqual([])
    expect(view(beyond.body)?.['hydra:previous']).toBe('/partial?page=10')
    const full = await get(origin, '/partial?partial=0&page=10')
    expect(full.body['hydra:totalItems']).toBe(30)
  })

  it('a plain array: the whole collection and no view', async () => {
    const { body } = await get(origin, '/plain?page=3')
    expect(Object.keys(body)).toEqual([
      '@context',
      '@id',
      '@type',
      'hydra:totalItems',
      'hydra:member',
      'hydra:search',
    ])
    expect(ids(body)).toEqual(range(1, 30))
    // A parameter other than the page is a filter: the view carries the request's own @id.
    const filtered = await get(origin, '/plain?name=x')
    expect(view(filtered.body)).toEqual({
      '@id': '/plain?name=x',
      '@type': 'hydra:PartialCollectionView',
    })
  })

  it('an async iterable: streamed, the same document in chunks', async () => {
    const response = await fetch(`${origin}/streamed`)
    expect(response.headers.get('content-type')).toBe('application/ld+json; charset=utf-8')
    expect(response.headers.get('content-length')).toBeNull()
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toEqual({
      '@context': '/contexts/Item',
      '@id': '/streamed',
      '@type': 'hydra:Collection',
      'hydra:member': thirty,
      'hydra:totalItems': 30,
      'hydra:search': searchAt('/streamed'),
    })
  })

  it('the page size is capped by the maximum; a zero page size has one page', async () => {
    expect(ids((await get(origin, '/capped?itemsPerPage=40')).body)).toEqual(range(1, 30))
    const zero = await get(origin, '/capped?itemsPerPage=0')
    expect(zero.body['hydra:member']).toEqual([])
    expect(zero.body['hydra:totalItems']).toBe(80)
  })

  it('renamed parameters are read and written under their names', async () => {
    const { body } = await get(origin, '/renamed?p=2&size=5')
    expect(ids(body)).toEqual(range(6, 10))
    expect(view(body)?.['hydra:next']).toBe('/renamed?size=5&p=3')
    expect((await get(origin, '/renamed?p=0')).body.detail).toBe('Page should not be less than 1')
  })

  it('left-out settings take the spec defaults: 30 per page, no client control', async () => {
    const { body } = await get(origin, '/defaults?itemsPerPage=5&pagination=false&page=3')
    expect(ids(body)).toEqual(range(61, 70))
    expect(body['@context']).toBe('https://example.org/contexts/Item')
    expect(view(body)?.['hydra:last']).toBe('/defaults?itemsPerPage=5&pagination=false&page=3')
  })

  it('the item type flows into the response type of the RPC client', async () => {
    const client = hc<typeof app>(origin)
    const response = await client.array.$get({ query: { page: '2' } })
    if (!response.ok) throw new Error(`GET /array: ${response.status}`)
    const body = await response.json()
    expectTypeOf(body['hydra:member']).toEqualTypeOf<Item[]>()
    expectTypeOf(body['hydra:totalItems']).toEqualTypeOf<number | undefined>()
    expect(body['hydra:member'].map((member) => member.id)).toEqual([4, 5, 6])
  })
})

describe('streamed collections: failures and clients that go away', () => {
  it('a failure before the first item is a 500 problem', async () => {
    const response = await get(origin, '/failing-first')
    expect(response.status).toBe(500)
    expect(response.body.detail).toBe('The server could not complete the request.')
  })

  it('a failure after the response began cuts the connection: no whole-looking body', async () => {
    const response = await fetch(`${origin}/failing-later`)
    expect(response.status).toBe(200)
    await expect(response.text()).rejects.toThrow()
  })

  it('a client that disconnects stops the reads of a custom sequence', async () => {
    await readAndAbort('/endless')
    await waitFor(() => endless.closed)
    const pulled = endless.pulled
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(endless.pulled).toBe(pulled)
    // A socket buffer's worth of items at most, not an endless read.
    expect(pulled).toBeLessThan(100_000)
  })

  it('a client that disconnects stops the batch reads of a generated route', async () => {
    await readAndAbort('/generated-source')
    await new Promise((resolve) => setTimeout(resolve, 200))
    const reads = generated.reads
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(generated.reads).toBe(reads)
    expect(reads).toBeGreaterThan(0)
    expect(reads).toBeLessThan(2000)
  })
})

/** Reads the first chunk of a streamed response, then drops the connection. */
async function readAndAbort(path: string): Promise<void> {
  const controller = new AbortController()
  const response = await fetch(`${origin}${path}`, { signal: controller.signal })
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const { value } = await reader.read()
  expect(new TextDecoder().decode(value).startsWith('{"@context":"/contexts/Item"')).toBe(true)
  controller.abort()
  await reader.cancel().catch(() => undefined)
}

async function waitFor(condition: () => boolean, timeout = 5000): Promise<void> {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > timeout) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('filters and order of a custom collection', () => {
  it('reads, checks and hands them to the handler, lists them in hydra:search, keeps them in links', async () => {
    const query = 'tag[]=red&tag[]=blue&score[gte]=4&order[score]=desc'
    const expected = tagged
      .filter((entry) => entry.tag !== 'green' && entry.score >= 4)
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .map((entry) => entry.id)
    const members: unknown[] = []
    let url: string | undefined = `/filtered?${query}&itemsPerPage=4`
    for (let pages = 0; url; pages++) {
      const response = await get(origin, url)
      expect(response.status).toBe(200)
      expect(response.body['hydra:totalItems']).toBe(expected.length)
      members.push(...ids(response.body))
      url = view(response.body)?.['hydra:next']
      if (url) expect(decodeURIComponent(url)).toContain('order[score]=desc')
      expect(pages).toBeLessThan(20)
    }
    expect(members).toEqual(expected)
    expect(received.at(-1)).toEqual({
      filters: [
        { kind: 'search', field: 'tag', strategy: 'exact', values: ['red', 'blue'] },
        { kind: 'range', field: 'score', operator: 'gte', value: 4 },
      ],
      order: [
        { field: 'score', direction: 'desc' },
        { field: 'id', direction: 'asc' },
      ],
      where: { tag: { in: ['red', 'blue'] }, score: { gte: 4 } },
      orderBy: [{ score: 'desc' }, { id: 'asc' }],
    })
    const search = (await get(origin, '/filtered')).body['hydra:search'] as Record<string, unknown>
    expect(search['hydra:template']).toBe(
      '/filtered{?page,itemsPerPage,pagination,partial,tag,tag[],score[between],score[gt],score[gte],score[lt],score[lte],order[score],order[id]}'
    )
    // Without a query, hydra:search lists the paging parameters only.
    const paging = (await get(origin, '/array')).body['hydra:search'] as Record<string, unknown>
    expect(paging['hydra:template']).toBe('/array{?page,itemsPerPage,pagination,partial}')
  })

  it.each([
    ['/filtered?score[gt]=high', 'The "score[gt]" parameter must be an integer, "high" given.'],
    ['/filtered?order[score]=up', 'The "order[score]" parameter must be asc or desc, "up" given.'],
    [
      '/filtered?order[tag]=asc',
      'The "order[tag]" parameter is not known: "order" is given as order[field]=asc|desc, field one of score, id.',
    ],
    [
      '/filtered?tag[near]=red',
      'The "tag[near]" parameter is not known: "tag" is given as tag=…, tag[]=….',
    ],
  ])('%s is a 400 naming the parameter, the handler never called', async (url, detail) => {
    const calls = received.length
    const response = await get(origin, url)
    expect(response.status).toBe(400)
    expect(response.contentType).toContain('application/problem+json')
    expect(response.body.detail).toBe(detail)
    expect(received.length).toBe(calls)
  })

  it('types the query the handler receives', () => {
    hydraCollection({ context, query: TAGGED_QUERY }, (request, _c, query) => {
      expectTypeOf(query.filters).toEqualTypeOf<FilterCondition[]>()
      expectTypeOf(query.order).toEqualTypeOf<OrderEntry[]>()
      return paginateArray([], request)
    })
  })
})
