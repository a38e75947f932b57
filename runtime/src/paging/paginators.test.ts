/**
 * The ready-made paginators (docs/custom-collections.md) through the same renderer as generated routes, on the
 * reference's own provider-backed fixture: 30 items, 3 per page, an ArrayPaginator.
 */
import { describe, expect, it } from 'vitest'
import type { PagingConfig } from '../contract/paging.js'
import { renderCollection } from '../hydra/collection.js'
import { parseQuery } from '../iri/query-string.js'
import { defaultPagingConfig } from './config.js'
import {
  isFullPaginator,
  isPartialPaginator,
  pageOfPaginator,
  paginateArray,
  paginateIterable,
} from './paginators.js'
import { readPagingRequest } from './request.js'
import type { CollectionPage, CollectionResult } from './types.js'

interface Item {
  id: number
}
const items: Item[] = Array.from({ length: 30 }, (_, index) => ({ id: index + 1 }))
const config: PagingConfig = {
  ...defaultPagingConfig,
  itemsPerPage: 3,
  clientEnabled: true,
  clientItemsPerPage: true,
  clientPartial: true,
}

function render(raw: string, result: CollectionResult<Item>) {
  const page = pageOfPaginator(result) as CollectionPage<Item>
  return renderCollection(page, {
    path: '/jsonld_collection_paged',
    query: parseQuery(raw),
    parameters: config.parameters,
    context: '/contexts/Item',
  })
}

const request = (raw: string) => readPagingRequest(parseQuery(raw), config)
const ids = (result: CollectionResult<Item>) => {
  const page = pageOfPaginator(result)
  return page ? page.items.map((item) => item.id) : [...(result as Item[])].map((item) => item.id)
}

/** Every source kind the traversable variant takes, over the same items. */
function* syncSource(): Generator<Item> {
  yield* items
}
async function* asyncSource(): AsyncGenerator<Item> {
  for (const item of items) yield item
}

const variants = {
  array: (raw: string) => Promise.resolve(paginateArray(items, request(raw))),
  'iterable (array)': (raw: string) => paginateIterable(items, request(raw)),
  'iterable (generator)': (raw: string) => paginateIterable(syncSource(), request(raw)),
  'async iterable': (raw: string) => paginateIterable(asyncSource(), request(raw)),
  'async iterable, size known': (raw: string) =>
    paginateIterable(asyncSource(), request(raw), { totalItems: 30 }),
}

describe.each(Object.entries(variants))('%s paginator: the reference scenarios', (_, paginate) => {
  it('first page: totalItems 30, ids 1-3, first, last and next', async () => {
    const body = render('', await paginate(''))
    expect(body['hydra:totalItems']).toBe(30)
    expect(body['hydra:member']).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }])
    expect(body['hydra:view']).toStrictEqual({
      '@id': '/jsonld_collection_paged?page=1',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/jsonld_collection_paged?page=1',
      'hydra:last': '/jsonld_collection_paged?page=10',
      'hydra:next': '/jsonld_collection_paged?page=2',
    })
  })

  it('a middle page (7): ids 19-21, previous 6, next 8', async () => {
    const result = await paginate('page=7')
    expect(ids(result)).toEqual([19, 20, 21])
    const view = render('page=7', result)['hydra:view']
    expect(view?.['hydra:previous']).toBe('/jsonld_collection_paged?page=6')
    expect(view?.['hydra:next']).toBe('/jsonld_collection_paged?page=8')
  })

  it('the last page (10): ids 28-30, previous 9, no next', async () => {
    const result = await paginate('page=10')
    expect(ids(result)).toEqual([28, 29, 30])
    const view = render('page=10', result)['hydra:view']
    expect(view?.['hydra:previous']).toBe('/jsonld_collection_paged?page=9')
    expect(view).not.toHaveProperty('hydra:next')
  })

  it('beyond the last page: no members, previous 11, last still 10', async () => {
    const body = render('page=12', await paginate('page=12'))
    expect(body['hydra:member']).toEqual([])
    expect(body['hydra:totalItems']).toBe(30)
    expect(body['hydra:view']).toMatchObject({
      'hydra:last': '/jsonld_collection_paged?page=10',
      'hydra:previous': '/jsonld_collection_paged?page=11',
    })
    expect(body['hydra:view']).not.toHaveProperty('hydra:next')
  })

  it('page=2&itemsPerPage=10: every link keeps the page size', async () => {
    const result = await paginate('page=2&itemsPerPage=10')
    expect(ids(result)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20])
    expect(render('page=2&itemsPerPage=10', result)['hydra:view']).toStrictEqual({
      '@id': '/jsonld_collection_paged?itemsPerPage=10&page=2',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/jsonld_collection_paged?itemsPerPage=10&page=1',
      'hydra:last': '/jsonld_collection_paged?itemsPerPage=10&page=3',
      'hydra:previous': '/jsonld_collection_paged?itemsPerPage=10&page=1',
      'hydra:next': '/jsonld_collection_paged?itemsPerPage=10&page=3',
    })
  })

  it('itemsPerPage=0: no members, the count', async () => {
    const body = render('itemsPerPage=0', await paginate('itemsPerPage=0'))
    expect(body['hydra:member']).toEqual([])
    expect(body['hydra:totalItems']).toBe(30)
  })

  it('page=7&partial=1: a partial paginator, previous and next, no count, no first/last', async () => {
    const result = await paginate('page=7&partial=1')
    expect(isPartialPaginator(result)).toBe(true)
    expect(isFullPaginator(result)).toBe(false)
    const body = render('page=7&partial=1', result)
    expect(body).not.toHaveProperty('hydra:totalItems')
    expect(body['hydra:view']).toStrictEqual({
      '@id': '/jsonld_collection_paged?partial=1&page=7',
      '@type': 'hydra:PartialCollectionView',
      'hydra:previous': '/jsonld_collection_paged?partial=1&page=6',
      'hydra:next': '/jsonld_collection_paged?partial=1&page=8',
    })
  })

  it('the last page, partial: no next', async () => {
    const view = render('page=10&partial=1', await paginate('page=10&partial=1'))['hydra:view']
    expect(view).not.toHaveProperty('hydra:next')
    expect(view?.['hydra:previous']).toBe('/jsonld_collection_paged?partial=1&page=9')
  })

  it('pagination=0: the whole collection, not a paginator', async () => {
    const result = await paginate('pagination=0')
    expect(pageOfPaginator(result)).toBeUndefined()
    const all: number[] = []
    for await (const item of result as AsyncIterable<Item>) all.push(item.id)
    expect(all).toEqual(items.map((item) => item.id))
  })
})

describe('an empty collection', () => {
  it.each([
    ['array', () => paginateArray([], request(''))],
    ['iterable', () => paginateIterable([], request(''))],
  ])('%s: one page, no members, no view', async (_, paginate) => {
    const result = await paginate()
    expect(isFullPaginator(result)).toBe(true)
    const body = render('', result)
    expect(body['hydra:totalItems']).toBe(0)
    expect(body['hydra:member']).toEqual([])
    expect(body).not.toHaveProperty('hydra:view')
  })
})

describe('paginateIterable: reads only what the page needs, and closes the sequence', () => {
  function counted(size: number) {
    const state = { pulled: 0, closed: false }
    async function* source(): AsyncGenerator<Item> {
      try {
        for (let id = 1; id <= size; id++) {
          state.pulled++
          yield { id }
        }
      } finally {
        state.closed = true
      }
    }
    return { state, source: source() }
  }

  it('partial paging stops one item past the page', async () => {
    const { state, source } = counted(1_000_000)
    const result = await paginateIterable(source, request('page=3&partial=1'))
    expect(ids(result)).toEqual([7, 8, 9])
    expect(state).toEqual({ pulled: 10, closed: true })
  })

  it('full paging with a known size stops at the end of the page', async () => {
    const { state, source } = counted(1_000_000)
    const result = await paginateIterable(source, request('page=2'), { totalItems: 1_000_000 })
    expect(ids(result)).toEqual([4, 5, 6])
    expect(state).toEqual({ pulled: 6, closed: true })
    expect(isFullPaginator(result) && result.lastPage).toBe(333_334)
  })

  it('full paging without a size reads to the end to count', async () => {
    const { state, source } = counted(100)
    const result = await paginateIterable(source, request('page=2'))
    expect(isFullPaginator(result) && result.totalItems).toBe(100)
    expect(state).toEqual({ pulled: 100, closed: true })
  })

  it('itemsPerPage=0 with partial paging reads nothing', async () => {
    const { state, source } = counted(100)
    const result = await paginateIterable(source, request('itemsPerPage=0&partial=1'))
    expect(isPartialPaginator(result) && result.hasNextPage).toBe(false)
    expect(state.pulled).toBe(0)
  })
})
