/**
 * The reference's scenario matrix (reference sections 2.5 and 4), end to end: real `prisma
 * generate` output for test/fixtures/reference, a real SQLite database, real HTTP requests.
 * Global settings as the reference's test kernel: client controls on, 3 items per page.
 */
import { hydraNotFound } from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/reference/hydra/index.js'
import { PrismaClient } from '#fixtures/reference/prisma/client.js'
import {
  createAdapter,
  freshDatabase,
  getWithoutSearch as get,
  ids,
  startServer,
} from './support/harness.js'

const SCHEMA = new URL('./fixtures/reference/schema.prisma', import.meta.url).pathname

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let remove: () => Promise<void>

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)
const rows = (count: number) => range(1, count).map((id) => ({ id, name: `Dummy #${id}` }))

async function setDummies(count: number): Promise<void> {
  await prisma.dummy.deleteMany()
  await prisma.dummy.createMany({ data: rows(count) })
}

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.paginationEntity.createMany({ data: rows(80) })
  await prisma.paginationDisabledEntity.createMany({ data: rows(4) })
  await prisma.orderedDummy.createMany({
    data: range(1, 10).map((id) => ({
      id,
      name: `name ${String.fromCharCode(96 + ((id * 3) % 10) + 1)}`,
    })),
  })
  // Batches of 4 at the root: unpaged responses cross batch boundaries; /api keeps the default.
  const app = new Hono()
    .route('/', createHydraApp({ prisma, batchSize: 4 }))
    .route('/api', createHydraApp({ prisma }))
  app.notFound(hydraNotFound)
  ;({ origin, close } = await startServer(app.fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

describe('30 dummies, 3 per page (full paging)', () => {
  beforeAll(() => setDummies(30))

  it('first page', async () => {
    const response = await get(origin, '/dummies')
    expect(response.status).toBe(200)
    expect(response.contentType).toBe('application/ld+json; charset=utf-8')
    expect(response.body).toEqual({
      '@context': '/contexts/Dummy',
      '@id': '/dummies',
      '@type': 'hydra:Collection',
      'hydra:totalItems': 30,
      'hydra:member': [1, 2, 3].map((id) => ({
        '@id': `/dummies/${id}`,
        '@type': 'Dummy',
        id,
        name: `Dummy #${id}`,
      })),
      'hydra:view': {
        '@id': '/dummies?page=1',
        '@type': 'hydra:PartialCollectionView',
        'hydra:first': '/dummies?page=1',
        'hydra:last': '/dummies?page=10',
        'hydra:next': '/dummies?page=2',
      },
    })
    expect(Object.keys(response.body)).toEqual([
      '@context',
      '@id',
      '@type',
      'hydra:totalItems',
      'hydra:member',
      'hydra:view',
    ])
  })

  it.each([
    ['/dummies?page=7', [19, 20, 21], { first: 1, last: 10, previous: 6, next: 8 }],
    ['/dummies?page=3', [7, 8, 9], { first: 1, last: 10, previous: 2, next: 4 }],
    ['/dummies?page=10', [28, 29, 30], { first: 1, last: 10, previous: 9 }],
    ['/dummies?page=12', [], { first: 1, last: 10, previous: 11 }],
  ])('%s', async (path, expectedIds, links) => {
    const response = await get(origin, path)
    const page = new URL(path, 'http://x').searchParams.get('page')
    expect(ids(response.body)).toEqual(expectedIds)
    expect(response.body['hydra:totalItems']).toBe(30)
    const view: Record<string, string> = {
      '@id': `/dummies?page=${page}`,
      '@type': 'hydra:PartialCollectionView',
    }
    for (const [key, value] of Object.entries(links))
      view[`hydra:${key}`] = `/dummies?page=${value}`
    expect(response.body['hydra:view']).toEqual(view)
    expect(Object.keys(response.body['hydra:view'] as object)).toEqual(Object.keys(view))
  })

  it.each(['0', 'false', 'off', 'no', 'OFF', 'No'])(
    'pagination=%s returns every item, and a view without links (D6; the reference has none)',
    async (value) => {
      const response = await get(origin, `/dummies?pagination=${value}`)
      expect(ids(response.body)).toEqual(range(1, 30))
      expect(response.body['hydra:totalItems']).toBe(30)
      // Streamed (D5): the count is written once the members are, so it follows them.
      expect(Object.keys(response.body)).toEqual([
        '@context',
        '@id',
        '@type',
        'hydra:member',
        'hydra:totalItems',
        'hydra:view',
      ])
      expect(response.body['hydra:view']).toEqual({
        '@id': `/dummies?pagination=${value}`,
        '@type': 'hydra:PartialCollectionView',
      })
    }
  )

  it('pagination=false with another parameter: a view with only its @id', async () => {
    const response = await get(origin, '/dummies?pagination=false&name=x')
    expect(ids(response.body)).toHaveLength(30)
    expect(response.body['hydra:view']).toEqual({
      '@id': '/dummies?name=x&pagination=false',
      '@type': 'hydra:PartialCollectionView',
    })
  })

  it('pagination=1 pages and is kept in the links', async () => {
    const response = await get(origin, '/dummies?pagination=1')
    expect(ids(response.body)).toEqual([1, 2, 3])
    expect(response.body['hydra:view']).toMatchObject({
      '@id': '/dummies?pagination=1&page=1',
      'hydra:last': '/dummies?pagination=1&page=10',
      'hydra:next': '/dummies?pagination=1&page=2',
    })
  })

  it('partial=1: no count, no first or last', async () => {
    const response = await get(origin, '/dummies?page=7&partial=1')
    expect(ids(response.body)).toEqual([19, 20, 21])
    expect(Object.keys(response.body)).toEqual([
      '@context',
      '@id',
      '@type',
      'hydra:member',
      'hydra:view',
    ])
    expect(response.body['hydra:view']).toEqual({
      '@id': '/dummies?partial=1&page=7',
      '@type': 'hydra:PartialCollectionView',
      'hydra:previous': '/dummies?partial=1&page=6',
      'hydra:next': '/dummies?partial=1&page=8',
    })
  })

  it('partial=true on the first page', async () => {
    const response = await get(origin, '/dummies?partial=true')
    expect(response.body['hydra:view']).toEqual({
      '@id': '/dummies?partial=true&page=1',
      '@type': 'hydra:PartialCollectionView',
      'hydra:next': '/dummies?partial=true&page=2',
    })
  })

  it('partial on the last full page: no next, as no item follows (D3)', async () => {
    const response = await get(origin, '/dummies?partial=1&page=10')
    expect(ids(response.body)).toEqual([28, 29, 30])
    expect(response.body['hydra:view']).toEqual({
      '@id': '/dummies?partial=1&page=10',
      '@type': 'hydra:PartialCollectionView',
      'hydra:previous': '/dummies?partial=1&page=9',
    })
  })

  it('client page size: ?page=2&itemsPerPage=10', async () => {
    const response = await get(origin, '/dummies?page=2&itemsPerPage=10')
    expect(ids(response.body)).toEqual(range(11, 20))
    expect(response.body['hydra:view']).toEqual({
      '@id': '/dummies?itemsPerPage=10&page=2',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/dummies?itemsPerPage=10&page=1',
      'hydra:last': '/dummies?itemsPerPage=10&page=3',
      'hydra:previous': '/dummies?itemsPerPage=10&page=1',
      'hydra:next': '/dummies?itemsPerPage=10&page=3',
    })
  })

  it('itemsPerPage=0 counts only', async () => {
    const response = await get(origin, '/dummies?itemsPerPage=0')
    expect(response.body['hydra:member']).toEqual([])
    expect(response.body['hydra:totalItems']).toBe(30)
    expect(response.body['hydra:view']).toEqual({
      '@id': '/dummies?itemsPerPage=0',
      '@type': 'hydra:PartialCollectionView',
    })
  })

  it.each([
    ['/dummies?name=Dummy%20%238', '/dummies?name=Dummy%20%238&page=1'],
    ['/dummies?id=%2fdummies%2f8', '/dummies?id=%2Fdummies%2F8&page=1'],
    ['/dummies?z=1&a=2&page=2', '/dummies?a=2&z=1&page=2'],
    [
      '/dummies?dummyDate[after]=2015-04-28T00:00:00%2B00:00',
      '/dummies?dummyDate%5Bafter%5D=2015-04-28T00%3A00%3A00%2B00%3A00&page=1',
    ],
    ['/dummies?tags[1]=b&tags[0]=a', '/dummies?tags%5B%5D=b&tags%5B%5D=a&page=1'],
    ['/dummies?groups[]=', '/dummies?groups%5B%5D=&page=1'],
    ['/dummies?name=a+b&flag', '/dummies?flag=&name=a%20b&page=1'],
  ])('other parameters are kept as sent: %s', async (path, id) => {
    const response = await get(origin, path)
    expect((response.body['hydra:view'] as Record<string, string>)['@id']).toBe(id)
  })

  it('links follow the mount path', async () => {
    const response = await get(origin, '/api/dummies?page=2')
    expect(response.body).toMatchObject({
      '@context': '/api/contexts/Dummy',
      '@id': '/api/dummies',
      'hydra:member': [
        { '@id': '/api/dummies/4' },
        { '@id': '/api/dummies/5' },
        { '@id': '/api/dummies/6' },
      ],
      'hydra:view': {
        '@id': '/api/dummies?page=2',
        'hydra:first': '/api/dummies?page=1',
        'hydra:next': '/api/dummies?page=3',
      },
    })
    expect((await get(origin, '/api/dummies/4')).body['@id']).toBe('/api/dummies/4')
    expect((await get(origin, '/api/contexts/Dummy')).status).toBe(200)
  })
})

describe('bad requests get a 400 problem', () => {
  beforeAll(() => setDummies(30))

  it.each([
    ['page=0', 'Page should not be less than 1'],
    ['page=-1', 'Page should not be less than 1'],
    ['itemsPerPage=-1', 'Limit should not be less than 0'],
    ['page=0&itemsPerPage=-1', 'Page should not be less than 1'],
    ['itemsPerPage=0&page=2', 'Page should not be greater than 1 if limit is equal to 0'],
    ['page=9223372036854775807', 'Page parameter is too large.'],
    ['page=900719925474099&itemsPerPage=30', 'Page parameter is too large.'],
    ['page=abc', 'The "page" parameter must be a decimal integer, "abc" given.'],
    ['page=', 'The "page" parameter must be a decimal integer, "" given.'],
    ['page=2abc', 'The "page" parameter must be a decimal integer, "2abc" given.'],
    ['page=1e1', 'The "page" parameter must be a decimal integer, "1e1" given.'],
    ['page=2.7', 'The "page" parameter must be a decimal integer, "2.7" given.'],
    ['page=%202', 'The "page" parameter must be a decimal integer, " 2" given.'],
    ['page=0x1A', 'The "page" parameter must be a decimal integer, "0x1A" given.'],
    ['page[]=5', 'The "page" parameter must be given once, as a single value.'],
    ['itemsPerPage=ten', 'The "itemsPerPage" parameter must be a decimal integer, "ten" given.'],
    ['itemsPerPage=99999999999999999999', 'The "itemsPerPage" parameter is too large.'],
    [
      'pagination=foo',
      'The "pagination" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "foo" given.',
    ],
    [
      'pagination=',
      'The "pagination" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "" given.',
    ],
    [
      'partial=maybe',
      'The "partial" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "maybe" given.',
    ],
  ])('?%s', async (query, detail) => {
    const response = await get(origin, `/dummies?${query}`)
    expect(response.status).toBe(400)
    expect(response.contentType).toBe('application/problem+json; charset=utf-8')
    expect(response.body).toEqual({
      '@context': '/contexts/Error',
      '@id': '/errors/400',
      '@type': 'hydra:Error',
      type: '/errors/400',
      title: 'An error occurred',
      detail,
      status: 400,
      'hydra:title': 'An error occurred',
      'hydra:description': detail,
    })
  })
})

describe('huge but valid numbers are answered, not failed', () => {
  beforeAll(() => setDummies(30))

  it.each([
    ['itemsPerPage=9007199254740991', 30],
    ['itemsPerPage=2147483648&partial=1', 30],
    ['page=3002399751580331&itemsPerPage=3', 0],
    ['page=2147483648&itemsPerPage=1', 0],
  ])('?%s', async (query, count) => {
    const response = await get(origin, `/dummies?${query}`)
    expect(response.status).toBe(200)
    expect(ids(response.body)).toHaveLength(count)
  })
})

describe('few or no dummies', () => {
  it('a single page has no view', async () => {
    await setDummies(3)
    const response = await get(origin, '/dummies')
    expect(ids(response.body)).toEqual([1, 2, 3])
    expect(response.body['hydra:totalItems']).toBe(3)
    expect(response.body['hydra:view']).toBeUndefined()
  })

  it('page 2 of a single page: empty, still no view', async () => {
    const response = await get(origin, '/dummies?page=2')
    expect(response.body['hydra:member']).toEqual([])
    expect(response.body['hydra:view']).toBeUndefined()
  })

  it('a single filtered page: the view has only its @id, without the page', async () => {
    const response = await get(origin, '/dummies?name=x&page=1')
    expect(response.body['hydra:view']).toEqual({
      '@id': '/dummies?name=x',
      '@type': 'hydra:PartialCollectionView',
    })
  })

  it('itemsPerPage=10 over 3 items: the view has only its @id', async () => {
    const response = await get(origin, '/dummies?itemsPerPage=10')
    expect(response.body['hydra:view']).toEqual({
      '@id': '/dummies?itemsPerPage=10',
      '@type': 'hydra:PartialCollectionView',
    })
  })

  it('an empty collection', async () => {
    await setDummies(0)
    const response = await get(origin, '/dummies')
    expect(response.body).toEqual({
      '@context': '/contexts/Dummy',
      '@id': '/dummies',
      '@type': 'hydra:Collection',
      'hydra:totalItems': 0,
      'hydra:member': [],
    })
  })

  it('an empty collection under partial paging: a view with only its @id', async () => {
    const response = await get(origin, '/dummies?partial=1')
    expect(response.body).toEqual({
      '@context': '/contexts/Dummy',
      '@id': '/dummies',
      '@type': 'hydra:Collection',
      'hydra:member': [],
      'hydra:view': { '@id': '/dummies?partial=1&page=1', '@type': 'hydra:PartialCollectionView' },
    })
  })
})

describe('resource level', () => {
  it('the resource maximum clamps the client page size (80 entities, max 30)', async () => {
    const response = await get(origin, '/pagination-entities?page=2&itemsPerPage=40')
    expect(ids(response.body)).toEqual(range(31, 60))
    expect(response.body['hydra:view']).toEqual({
      '@id': '/pagination-entities?itemsPerPage=40&page=2',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/pagination-entities?itemsPerPage=40&page=1',
      'hydra:last': '/pagination-entities?itemsPerPage=40&page=3',
      'hydra:previous': '/pagination-entities?itemsPerPage=40&page=1',
      'hydra:next': '/pagination-entities?itemsPerPage=40&page=3',
    })
  })

  it('the resource page size wins over the global one', async () => {
    const response = await get(origin, '/pagination-entities')
    expect(ids(response.body)).toEqual([1, 2, 3, 4, 5])
    expect((response.body['hydra:view'] as Record<string, string>)['hydra:last']).toBe(
      '/pagination-entities?page=16'
    )
  })

  it('paging disabled on the resource', async () => {
    const response = await get(origin, '/pagination-disabled-entities?page=2&itemsPerPage=1')
    expect(response.body).toEqual({
      '@context': '/contexts/PaginationDisabledEntity',
      '@id': '/pagination-disabled-entities',
      '@type': 'hydra:Collection',
      'hydra:totalItems': 4,
      'hydra:member': range(1, 4).map((id) => ({
        '@id': `/pagination-disabled-entities/${id}`,
        '@type': 'PaginationDisabledEntity',
        id,
        name: `Dummy #${id}`,
      })),
      'hydra:view': {
        '@id': '/pagination-disabled-entities?itemsPerPage=1',
        '@type': 'hydra:PartialCollectionView',
      },
    })
  })

  describe('partial paging on the resource (10 items)', () => {
    beforeEach(async () => {
      await prisma.partialDummy.deleteMany()
      await prisma.partialDummy.createMany({ data: rows(10) })
    })

    it.each([
      ['/partial-dummies', [1, 2, 3], { next: 2 }],
      ['/partial-dummies?page=2', [4, 5, 6], { previous: 1, next: 3 }],
      ['/partial-dummies?page=4', [10], { previous: 3 }],
      ['/partial-dummies?page=5', [], { previous: 4 }],
    ])('%s', async (path, expectedIds, links) => {
      const response = await get(origin, path)
      expect(ids(response.body)).toEqual(expectedIds)
      expect(response.body['hydra:totalItems']).toBeUndefined()
      const page = new URL(path, 'http://x').searchParams.get('page') ?? '1'
      const view: Record<string, string> = {
        '@id': `/partial-dummies?page=${page}`,
        '@type': 'hydra:PartialCollectionView',
      }
      for (const [key, value] of Object.entries(links))
        view[`hydra:${key}`] = `/partial-dummies?page=${value}`
      expect(response.body['hydra:view']).toEqual(view)
    })

    it('a full last page has no next when nothing follows (D3)', async () => {
      await prisma.partialDummy.delete({ where: { id: 10 } })
      const response = await get(origin, '/partial-dummies?page=3')
      expect(ids(response.body)).toEqual([7, 8, 9])
      expect(response.body['hydra:view']).toEqual({
        '@id': '/partial-dummies?page=3',
        '@type': 'hydra:PartialCollectionView',
        'hydra:previous': '/partial-dummies?page=2',
      })
    })

    it('partial=0 switches the count back on for the request', async () => {
      const response = await get(origin, '/partial-dummies?partial=0&page=4')
      expect(response.body['hydra:totalItems']).toBe(10)
      expect((response.body['hydra:view'] as Record<string, string>)['hydra:last']).toBe(
        '/partial-dummies?partial=0&page=4'
      )
    })
  })
})

describe('operation level', () => {
  it('the resource collection: the resource page size and order', async () => {
    const response = await get(origin, '/ordered-dummies')
    expect(ids(response.body)).toEqual([1, 2, 3, 4])
    expect(response.body['hydra:totalItems']).toBe(10)
  })

  it('an operation with its own order and page size; client page size switched off there', async () => {
    const response = await get(origin, '/ordered-dummies/by-name?itemsPerPage=5')
    const names = (response.body['hydra:member'] as Array<{ name: string }>).map(
      (member) => member.name
    )
    expect(names).toEqual(['name j', 'name i'])
    expect(response.body['hydra:view']).toMatchObject({
      '@id': '/ordered-dummies/by-name?itemsPerPage=5&page=1',
      'hydra:last': '/ordered-dummies/by-name?itemsPerPage=5&page=5',
    })
    const second = await get(origin, '/ordered-dummies/by-name?page=2')
    expect(
      (second.body['hydra:member'] as Array<{ name: string }>).map((member) => member.name)
    ).toEqual(['name h', 'name g'])
  })

  it('an operation with paging disabled', async () => {
    const response = await get(origin, '/ordered-dummies/all')
    expect(ids(response.body)).toEqual(range(1, 10))
    expect(response.body['hydra:view']).toBeUndefined()
  })

  it('an operation with partial paging forced on and its own maximum', async () => {
    const response = await get(origin, '/ordered-dummies/partial?partial=0&itemsPerPage=9')
    expect(ids(response.body)).toEqual(range(1, 6))
    expect(response.body['hydra:totalItems']).toBeUndefined()
    expect(response.body['hydra:view']).toEqual({
      '@id': '/ordered-dummies/partial?itemsPerPage=9&partial=0&page=1',
      '@type': 'hydra:PartialCollectionView',
      'hydra:next': '/ordered-dummies/partial?itemsPerPage=9&partial=0&page=2',
    })
  })
})

describe('items, contexts and unknown routes', () => {
  beforeAll(() => setDummies(30))

  it('an item', async () => {
    const response = await get(origin, '/dummies/8')
    expect(response.status).toBe(200)
    expect(response.contentType).toBe('application/ld+json; charset=utf-8')
    expect(response.body).toEqual({
      '@context': '/contexts/Dummy',
      '@id': '/dummies/8',
      '@type': 'Dummy',
      id: 8,
      name: 'Dummy #8',
    })
  })

  it.each(['/dummies/999', '/dummies/abc', '/dummies/1.5', '/dummies/99999999999999999999'])(
    'a missing item: %s',
    async (path) => {
      const response = await get(origin, path)
      expect(response.status).toBe(404)
      expect(response.contentType).toBe('application/problem+json; charset=utf-8')
      expect(response.body).toMatchObject({
        '@type': 'hydra:Error',
        status: 404,
        title: 'Not Found',
      })
    }
  )

  it('the context of a resource', async () => {
    const response = await get(origin, '/contexts/Dummy')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      '@context': {
        '@vocab': `${origin}/docs.jsonld#`,
        hydra: 'http://www.w3.org/ns/hydra/core#',
        member: 'hydra:member',
        totalItems: 'hydra:totalItems',
        view: 'hydra:view',
        Collection: 'hydra:Collection',
        PartialCollectionView: 'hydra:PartialCollectionView',
        first: { '@id': 'hydra:first', '@type': '@id' },
        last: { '@id': 'hydra:last', '@type': '@id' },
        previous: { '@id': 'hydra:previous', '@type': '@id' },
        next: { '@id': 'hydra:next', '@type': '@id' },
        'hydra:first': { '@type': '@id' },
        'hydra:last': { '@type': '@id' },
        'hydra:previous': { '@type': '@id' },
        'hydra:next': { '@type': '@id' },
        // The terms of the collections' hydra:search block, scoped to it.
        'hydra:search': { '@context': expect.any(Object) },
        search: { '@id': 'hydra:search', '@context': expect.any(Object) },
        id: 'Dummy/id',
        name: 'Dummy/name',
      },
    })
  })

  it('the context of errors', async () => {
    expect((await get(origin, '/contexts/Error')).status).toBe(200)
  })

  it('an unknown route is a 404 problem', async () => {
    const response = await get(origin, '/nothing-here')
    expect(response.status).toBe(404)
    expect(response.contentType).toBe('application/problem+json; charset=utf-8')
    expect(response.body.detail).toBe('No route matches GET /nothing-here.')
  })
})
