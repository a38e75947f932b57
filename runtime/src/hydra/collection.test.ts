import { describe, expect, it } from 'vitest'
import type { PagingConfig } from '../contract/paging.js'
import { errorBody, HydraError } from '../errors.js'
import { parseQuery } from '../iri/query-string.js'
import { defaultPagingConfig } from '../paging/config.js'
import { fetchCollectionPage } from '../paging/offset.js'
import { fromFullPaginator, fromItems, fromPartialPaginator, lastPageOf } from '../paging/page.js'
import { readPagingRequest } from '../paging/request.js'
import type { CollectionPage, CollectionSource } from '../paging/types.js'
import { type HydraCollection, renderCollection } from './collection.js'

/**
 * Reference 2.5 (scenario matrix) and 4 (Behat / PHPUnit scenarios), end to end through the pure
 * pipeline readPagingRequest → fetchCollectionPage → renderCollection, with our D1-D3.
 */

interface Dummy {
  id: number
}

/** `[{id: 1}, …, {id: n}]` */
function dummies(n: number): Dummy[] {
  return range(1, n)
}

/** `[{id: from}, …, {id: to}]` */
function range(from: number, to: number): Dummy[] {
  return Array.from({ length: Math.max(to - from + 1, 0) }, (_, i) => ({ id: from + i }))
}

/** A read of the source: the window asked for (skip defaults to 0, no take means every row). */
type Call = { findMany: { skip: number; take?: number } } | 'count'

/** An in-memory CollectionSource that records how it is read. */
function arraySource(rows: Dummy[]): CollectionSource<Dummy> & { calls: Call[] } {
  const calls: Call[] = []
  return {
    calls,
    async findMany(window: { skip?: number; take?: number }) {
      const skip = window.skip ?? 0
      const { take } = window
      calls.push({ findMany: take === undefined ? { skip } : { skip, take } })
      return rows.slice(skip, take === undefined ? undefined : skip + take)
    },
    async count() {
      calls.push('count')
      return rows.length
    },
  }
}

/** The reference's test kernel (AppKernel): client options on, 3 per page; maximum 30. */
const kernel: PagingConfig = {
  ...defaultPagingConfig,
  clientEnabled: true,
  clientItemsPerPage: true,
  clientPartial: true,
  itemsPerPage: 3,
  maximumItemsPerPage: 30,
}

const CONTEXT = '/contexts/Dummy'
const VIEW = 'hydra:PartialCollectionView'

/** The collection rendered for a query over `rows`, with or without the `hydra:` prefix. */
async function render<P extends boolean>(
  raw: string,
  rows: Dummy[],
  config: PagingConfig,
  hydraPrefix: P
): Promise<HydraCollection<Dummy, P>> {
  const query = parseQuery(raw)
  const page = await fetchCollectionPage(arraySource(rows), readPagingRequest(query, config))
  return renderCollection(page, {
    path: '/dummies',
    query,
    parameters: config.parameters,
    context: CONTEXT,
    hydraPrefix,
  })
}

const get = (raw: string, rows: Dummy[], config: PagingConfig = kernel) =>
  render(raw, rows, config, true)

/** A full collection body, keys in the reference's order. */
function body(
  totalItems: number | undefined,
  members: Dummy[],
  view?: Record<string, string>
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '@context': CONTEXT,
    '@id': '/dummies',
    '@type': 'hydra:Collection',
  }
  if (totalItems !== undefined) out['hydra:totalItems'] = totalItems
  out['hydra:member'] = members
  if (view) out['hydra:view'] = view
  return out
}

const TOP_KEYS = [
  '@context',
  '@id',
  '@type',
  'hydra:totalItems',
  'hydra:member',
  'hydra:view',
] as const

describe('renderCollection: full paging (reference 2.5, Behat collection.feature 1-4, 9)', () => {
  const thirty = dummies(30)

  it('first page: no previous', async () => {
    const result = await get('', thirty)
    expect(result).toStrictEqual(
      body(30, range(1, 3), {
        '@id': '/dummies?page=1',
        '@type': VIEW,
        'hydra:first': '/dummies?page=1',
        'hydra:last': '/dummies?page=10',
        'hydra:next': '/dummies?page=2',
      })
    )
    expect(Object.keys(result)).toStrictEqual([...TOP_KEYS])
    expect(Object.keys(result['hydra:view'] ?? {})).toStrictEqual([
      '@id',
      '@type',
      'hydra:first',
      'hydra:last',
      'hydra:next',
    ])
  })

  it('?page=1 is the same first page', async () => {
    expect(await get('page=1', thirty)).toStrictEqual(await get('', thirty))
  })

  it('middle page: every link, in the reference key order', async () => {
    const result = await get('page=7', thirty)
    expect(result).toStrictEqual(
      body(30, range(19, 21), {
        '@id': '/dummies?page=7',
        '@type': VIEW,
        'hydra:first': '/dummies?page=1',
        'hydra:last': '/dummies?page=10',
        'hydra:previous': '/dummies?page=6',
        'hydra:next': '/dummies?page=8',
      })
    )
    expect(Object.keys(result)).toStrictEqual([...TOP_KEYS])
    expect(Object.keys(result['hydra:view'] ?? {})).toStrictEqual([
      '@id',
      '@type',
      'hydra:first',
      'hydra:last',
      'hydra:previous',
      'hydra:next',
    ])
  })

  it('presence of next (Behat 9): page 3', async () => {
    expect((await get('page=3', thirty))['hydra:view']).toStrictEqual({
      '@id': '/dummies?page=3',
      '@type': VIEW,
      'hydra:first': '/dummies?page=1',
      'hydra:last': '/dummies?page=10',
      'hydra:previous': '/dummies?page=2',
      'hydra:next': '/dummies?page=4',
    })
  })

  it('last page: no next', async () => {
    expect(await get('page=10', thirty)).toStrictEqual(
      body(30, range(28, 30), {
        '@id': '/dummies?page=10',
        '@type': VIEW,
        'hydra:first': '/dummies?page=1',
        'hydra:last': '/dummies?page=10',
        'hydra:previous': '/dummies?page=9',
      })
    )
  })

  it('beyond the last page: no members, previous is the page before, no next', async () => {
    expect(await get('page=12', thirty)).toStrictEqual(
      body(30, [], {
        '@id': '/dummies?page=12',
        '@type': VIEW,
        'hydra:first': '/dummies?page=1',
        'hydra:last': '/dummies?page=10',
        'hydra:previous': '/dummies?page=11',
      })
    )
  })

  it('a last page that is not full (composite.feature: 4 items)', async () => {
    expect(await get('', dummies(4))).toStrictEqual(
      body(4, range(1, 3), {
        '@id': '/dummies?page=1',
        '@type': VIEW,
        'hydra:first': '/dummies?page=1',
        'hydra:last': '/dummies?page=2',
        'hydra:next': '/dummies?page=2',
      })
    )
    expect(await get('page=2', dummies(4))).toStrictEqual(
      body(4, [{ id: 4 }], {
        '@id': '/dummies?page=2',
        '@type': VIEW,
        'hydra:first': '/dummies?page=1',
        'hydra:last': '/dummies?page=2',
        'hydra:previous': '/dummies?page=1',
      })
    )
  })

  it.each([
    { page: 1, members: range(1, 3), previous: undefined, next: 2 },
    { page: 3, members: range(7, 9), previous: 2, next: 4 },
    { page: 7, members: range(19, 20), previous: 6, next: undefined },
  ])(
    '20 items (elasticsearch read.feature): page $page',
    async ({ page, members, previous, next }) => {
      const view: Record<string, string> = {
        '@id': `/dummies?page=${page}`,
        '@type': VIEW,
        'hydra:first': '/dummies?page=1',
        'hydra:last': '/dummies?page=7',
      }
      if (previous !== undefined) view['hydra:previous'] = `/dummies?page=${previous}`
      if (next !== undefined) view['hydra:next'] = `/dummies?page=${next}`
      expect(await get(`page=${page}`, dummies(20))).toStrictEqual(body(20, members, view))
    }
  )
})

describe('renderCollection: when there is no view (reference 2.4 step 3)', () => {
  it('a single page has no view', async () => {
    const result = await get('', dummies(3))
    expect(result).toStrictEqual(body(3, range(1, 3)))
    expect(Object.keys(result)).toStrictEqual([
      '@context',
      '@id',
      '@type',
      'hydra:totalItems',
      'hydra:member',
    ])
  })

  it('the page parameter is no filter: ?page=1 and ?page=2 of a single page have no view', async () => {
    expect(await get('page=1', dummies(2))).toStrictEqual(body(2, range(1, 2)))
    expect(await get('page=2', dummies(3))).toStrictEqual(body(3, []))
  })

  it('an empty collection (Behat 1): totalItems 0, no view', async () => {
    expect(await get('', [])).toStrictEqual(body(0, []))
    expect(await get('page=5', [])).toStrictEqual(body(0, []))
  })

  it.each(['0', 'false', 'off', 'no', 'FALSE'])(
    '?pagination=%s: every member, totalItems = their number, a view without links (D6; Behat 6 has none)',
    async (value) => {
      const result = await get(`pagination=${value}`, dummies(30))
      expect(result).toStrictEqual(
        body(30, dummies(30), { '@id': `/dummies?pagination=${value}`, '@type': VIEW })
      )
    }
  )

  it('?pagination=0 also drops the page: ?pagination=0&page=3 is the whole collection', async () => {
    expect(await get('pagination=0&page=3', dummies(30))).toStrictEqual(
      body(30, dummies(30), { '@id': '/dummies?pagination=0', '@type': VIEW })
    )
  })

  it('paging disabled by configuration (PaginationDisabledTest): no view', async () => {
    const config: PagingConfig = { ...kernel, enabled: false, clientEnabled: false }
    expect(await get('', dummies(4), config)).toStrictEqual(body(4, dummies(4)))
    expect(await get('page=2', dummies(4), config)).toStrictEqual(body(4, dummies(4)))
  })

  it('D2: ?pagination= (empty) and ?pagination=foo are refused instead of unpaging', async () => {
    for (const [raw, value] of [
      ['pagination=', ''],
      ['pagination=foo', 'foo'],
    ] as const) {
      const error = await get(raw, dummies(30)).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(HydraError)
      expect({
        status: (error as HydraError).status,
        detail: (error as HydraError).detail,
      }).toEqual({
        status: 400,
        detail: `The "pagination" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "${value}" given.`,
      })
    }
  })
})

describe('renderCollection: filtered collections (reference 2.4 step 5, Behat 10-13)', () => {
  it('?id=8, a single page: the view is only @id and @type, without a page', async () => {
    const result = await get('id=8', [{ id: 8 }])
    expect(result).toStrictEqual(body(1, [{ id: 8 }], { '@id': '/dummies?id=8', '@type': VIEW }))
    expect(Object.keys(result['hydra:view'] ?? {})).toStrictEqual(['@id', '@type'])
  })

  it('?id=999, empty and filtered', async () => {
    expect(await get('id=999', [])).toStrictEqual(
      body(0, [], { '@id': '/dummies?id=999', '@type': VIEW })
    )
  })

  it('filter values keep their encoding, with upper-case hex', async () => {
    expect((await get('id=%2fdummies%2f8', [{ id: 8 }]))['hydra:view']).toStrictEqual({
      '@id': '/dummies?id=%2Fdummies%2F8',
      '@type': VIEW,
    })
    expect((await get('name=Dummy%20%238', [{ id: 8 }]))['hydra:view']).toStrictEqual({
      '@id': '/dummies?name=Dummy%20%238',
      '@type': VIEW,
    })
  })

  it('?name=x&page=1 on a single page: the page parameter is dropped', async () => {
    expect(await get('name=x&page=1', range(1, 2))).toStrictEqual(
      body(2, range(1, 2), { '@id': '/dummies?name=x', '@type': VIEW })
    )
  })

  it('a filtered collection of several pages gets the full view, keys sorted, page last', async () => {
    expect((await get('name=x&page=2', dummies(7)))['hydra:view']).toStrictEqual({
      '@id': '/dummies?name=x&page=2',
      '@type': VIEW,
      'hydra:first': '/dummies?name=x&page=1',
      'hydra:last': '/dummies?name=x&page=3',
      'hydra:previous': '/dummies?name=x&page=1',
      'hydra:next': '/dummies?name=x&page=3',
    })
    expect((await get('page=1&z=1&a%5Bb%5D=2', dummies(7)))['hydra:view']).toStrictEqual({
      '@id': '/dummies?a%5Bb%5D=2&z=1&page=1',
      '@type': VIEW,
      'hydra:first': '/dummies?a%5Bb%5D=2&z=1&page=1',
      'hydra:last': '/dummies?a%5Bb%5D=2&z=1&page=3',
      'hydra:next': '/dummies?a%5Bb%5D=2&z=1&page=2',
    })
  })

  it('?itemsPerPage=10 over 5 items (default_order.feature): view @id only', async () => {
    expect(await get('itemsPerPage=10', dummies(5))).toStrictEqual(
      body(5, dummies(5), { '@id': '/dummies?itemsPerPage=10', '@type': VIEW })
    )
  })

  it('?itemsPerPage=0: no members, totalItems the full count, view @id only', async () => {
    const result = await get('itemsPerPage=0', dummies(30))
    expect(result).toStrictEqual(body(30, [], { '@id': '/dummies?itemsPerPage=0', '@type': VIEW }))
    expect(Object.keys(result)).toStrictEqual([...TOP_KEYS])
    // Behat 13 runs it on an empty database.
    expect(await get('itemsPerPage=0', [])).toStrictEqual(
      body(0, [], { '@id': '/dummies?itemsPerPage=0', '@type': VIEW })
    )
  })

  it('?itemsPerPage=0&page=2 is a 400 (Behat 13)', async () => {
    const error = await get('itemsPerPage=0&page=2', dummies(30)).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(HydraError)
    expect({ status: (error as HydraError).status, detail: (error as HydraError).detail }).toEqual({
      status: 400,
      detail: 'Page should not be greater than 1 if limit is equal to 0',
    })
  })

  it('?pagination=false&name=x: the switch is kept in the view @id', async () => {
    expect(await get('pagination=false&name=x', dummies(30))).toStrictEqual(
      body(30, dummies(30), { '@id': '/dummies?name=x&pagination=false', '@type': VIEW })
    )
  })

  it('?pagination=1 pages, and stays in every link', async () => {
    expect((await get('pagination=1', dummies(30)))['hydra:view']).toStrictEqual({
      '@id': '/dummies?pagination=1&page=1',
      '@type': VIEW,
      'hydra:first': '/dummies?pagination=1&page=1',
      'hydra:last': '/dummies?pagination=1&page=10',
      'hydra:next': '/dummies?pagination=1&page=2',
    })
    expect(await get('pagination=true', dummies(3))).toStrictEqual(
      body(3, range(1, 3), { '@id': '/dummies?pagination=true', '@type': VIEW })
    )
  })

  it('?pagination=false without client control: ignored, and kept in the links (reference 1.5)', async () => {
    const config: PagingConfig = { ...kernel, clientEnabled: false }
    expect(await get('pagination=false', dummies(30), config)).toStrictEqual(
      body(30, range(1, 3), {
        '@id': '/dummies?pagination=false&page=1',
        '@type': VIEW,
        'hydra:first': '/dummies?pagination=false&page=1',
        'hydra:last': '/dummies?pagination=false&page=10',
        'hydra:next': '/dummies?pagination=false&page=2',
      })
    )
  })
})

describe('renderCollection: client page size (Behat 7-8, HydraCollectionTest)', () => {
  it('?page=2&itemsPerPage=10 over 30', async () => {
    expect(await get('page=2&itemsPerPage=10', dummies(30))).toStrictEqual(
      body(30, range(11, 20), {
        '@id': '/dummies?itemsPerPage=10&page=2',
        '@type': VIEW,
        'hydra:first': '/dummies?itemsPerPage=10&page=1',
        'hydra:last': '/dummies?itemsPerPage=10&page=3',
        'hydra:previous': '/dummies?itemsPerPage=10&page=1',
        'hydra:next': '/dummies?itemsPerPage=10&page=3',
      })
    )
  })

  it('?itemsPerPage=40 with maximum 30 over 80: 30 members, IRIs keep 40, last page 3', async () => {
    const eighty = dummies(80)
    expect(await get('itemsPerPage=40', eighty)).toStrictEqual(
      body(80, range(1, 30), {
        '@id': '/dummies?itemsPerPage=40&page=1',
        '@type': VIEW,
        'hydra:first': '/dummies?itemsPerPage=40&page=1',
        'hydra:last': '/dummies?itemsPerPage=40&page=3',
        'hydra:next': '/dummies?itemsPerPage=40&page=2',
      })
    )
    expect(await get('page=2&itemsPerPage=40', eighty)).toStrictEqual(
      body(80, range(31, 60), {
        '@id': '/dummies?itemsPerPage=40&page=2',
        '@type': VIEW,
        'hydra:first': '/dummies?itemsPerPage=40&page=1',
        'hydra:last': '/dummies?itemsPerPage=40&page=3',
        'hydra:previous': '/dummies?itemsPerPage=40&page=1',
        'hydra:next': '/dummies?itemsPerPage=40&page=3',
      })
    )
  })

  it('?itemsPerPage without client control: ignored, kept in the links', async () => {
    const config: PagingConfig = { ...kernel, clientItemsPerPage: false }
    expect(await get('itemsPerPage=10', dummies(30), config)).toStrictEqual(
      body(30, range(1, 3), {
        '@id': '/dummies?itemsPerPage=10&page=1',
        '@type': VIEW,
        'hydra:first': '/dummies?itemsPerPage=10&page=1',
        'hydra:last': '/dummies?itemsPerPage=10&page=10',
        'hydra:next': '/dummies?itemsPerPage=10&page=2',
      })
    )
  })
})

describe('renderCollection: partial paging (Behat 5, reference 2.5, D3)', () => {
  const thirty = dummies(30)

  it('?page=7&partial=1: no totalItems, exactly @id, @type, previous, next', async () => {
    const result = await get('page=7&partial=1', thirty)
    expect(result).toStrictEqual(
      body(undefined, range(19, 21), {
        '@id': '/dummies?partial=1&page=7',
        '@type': VIEW,
        'hydra:previous': '/dummies?partial=1&page=6',
        'hydra:next': '/dummies?partial=1&page=8',
      })
    )
    expect(Object.keys(result)).toStrictEqual([
      '@context',
      '@id',
      '@type',
      'hydra:member',
      'hydra:view',
    ])
    expect(Object.keys(result['hydra:view'] ?? {})).toStrictEqual([
      '@id',
      '@type',
      'hydra:previous',
      'hydra:next',
    ])
  })

  it('page 1: next, no previous', async () => {
    expect(await get('partial=1', thirty)).toStrictEqual(
      body(undefined, range(1, 3), {
        '@id': '/dummies?partial=1&page=1',
        '@type': VIEW,
        'hydra:next': '/dummies?partial=1&page=2',
      })
    )
  })

  it('no items: the view is @id and @type only', async () => {
    expect(await get('partial=1', [])).toStrictEqual(
      body(undefined, [], { '@id': '/dummies?partial=1&page=1', '@type': VIEW })
    )
  })

  it('a single short page still has a view (a partial collection is always paginated)', async () => {
    expect(await get('partial=1', dummies(2))).toStrictEqual(
      body(undefined, range(1, 2), { '@id': '/dummies?partial=1&page=1', '@type': VIEW })
    )
  })

  it('last page with 1 item (10 items): previous, no next', async () => {
    expect(await get('partial=1&page=4', dummies(10))).toStrictEqual(
      body(undefined, [{ id: 10 }], {
        '@id': '/dummies?partial=1&page=4',
        '@type': VIEW,
        'hydra:previous': '/dummies?partial=1&page=3',
      })
    )
  })

  it('D3: a full last page (page 3 of exactly 9) has no next; the reference shows next 4', async () => {
    expect(await get('partial=1&page=3', dummies(9))).toStrictEqual(
      body(undefined, range(7, 9), {
        '@id': '/dummies?partial=1&page=3',
        '@type': VIEW,
        'hydra:previous': '/dummies?partial=1&page=2',
      })
    )
  })

  it('D3: a full page with one more item after it has next', async () => {
    expect((await get('partial=1&page=3', dummies(10)))['hydra:view']).toStrictEqual({
      '@id': '/dummies?partial=1&page=3',
      '@type': VIEW,
      'hydra:previous': '/dummies?partial=1&page=2',
      'hydra:next': '/dummies?partial=1&page=4',
    })
  })

  it('D3: reads one row more than the page size and no count', async () => {
    const source = arraySource(dummies(9))
    await fetchCollectionPage(source, readPagingRequest(parseQuery('partial=1&page=3'), kernel))
    expect(source.calls).toStrictEqual([{ findMany: { skip: 6, take: 4 } }])
  })

  it('beyond the last page: previous, no next', async () => {
    expect(await get('partial=1&page=5', dummies(10))).toStrictEqual(
      body(undefined, [], {
        '@id': '/dummies?partial=1&page=5',
        '@type': VIEW,
        'hydra:previous': '/dummies?partial=1&page=4',
      })
    )
  })

  it('D3: itemsPerPage=0 gives no next (the reference links to page 2, a 400)', async () => {
    expect(await get('partial=1&itemsPerPage=0', thirty)).toStrictEqual(
      body(undefined, [], { '@id': '/dummies?itemsPerPage=0&partial=1&page=1', '@type': VIEW })
    )
  })

  it.each([
    { page: 1, members: range(1, 3), previous: undefined, next: 2 },
    { page: 2, members: range(4, 6), previous: 1, next: 3 },
    { page: 4, members: [{ id: 10 }], previous: 3, next: undefined },
  ])(
    'partial by configuration, 10 items (PartialPaginationTest): page $page',
    async ({ page, members, previous, next }) => {
      const config: PagingConfig = { ...kernel, partial: true, clientPartial: false }
      const view: Record<string, string> = { '@id': `/dummies?page=${page}`, '@type': VIEW }
      if (previous !== undefined) view['hydra:previous'] = `/dummies?page=${previous}`
      if (next !== undefined) view['hydra:next'] = `/dummies?page=${next}`
      expect(await get(`page=${page}`, dummies(10), config)).toStrictEqual(
        body(undefined, members, view)
      )
    }
  )

  it('?partial=0 switches a configured partial collection back to full paging', async () => {
    const config: PagingConfig = { ...kernel, partial: true }
    expect(await get('partial=0&page=2', dummies(30), config)).toStrictEqual(
      body(30, range(4, 6), {
        '@id': '/dummies?partial=0&page=2',
        '@type': VIEW,
        'hydra:first': '/dummies?partial=0&page=1',
        'hydra:last': '/dummies?partial=0&page=10',
        'hydra:previous': '/dummies?partial=0&page=1',
        'hydra:next': '/dummies?partial=0&page=3',
      })
    )
  })
})

describe('renderCollection: renamed parameters (spec 8.4 rule 7)', () => {
  const renamed: PagingConfig = {
    ...kernel,
    parameters: { page: 'p', enabled: 'paged', itemsPerPage: 'size', partial: 'fast' },
  }

  it('links carry the page under its new name', async () => {
    expect((await get('p=2&size=10', dummies(30), renamed))['hydra:view']).toStrictEqual({
      '@id': '/dummies?size=10&p=2',
      '@type': VIEW,
      'hydra:first': '/dummies?size=10&p=1',
      'hydra:last': '/dummies?size=10&p=3',
      'hydra:previous': '/dummies?size=10&p=1',
      'hydra:next': '/dummies?size=10&p=3',
    })
  })

  it('the old names are plain parameters: not read, kept in links, counted as filters', async () => {
    expect((await get('page=2&p=3', dummies(30), renamed))['hydra:view']).toStrictEqual({
      '@id': '/dummies?page=2&p=3',
      '@type': VIEW,
      'hydra:first': '/dummies?page=2&p=1',
      'hydra:last': '/dummies?page=2&p=10',
      'hydra:previous': '/dummies?page=2&p=2',
      'hydra:next': '/dummies?page=2&p=4',
    })
    expect(await get('pagination=0', dummies(3), renamed)).toStrictEqual(
      body(3, range(1, 3), { '@id': '/dummies?pagination=0', '@type': VIEW })
    )
  })

  it('the new page name is no parameter of the view; the new switch is kept in it (D6)', async () => {
    expect(await get('paged=0', dummies(30), renamed)).toStrictEqual(
      body(30, dummies(30), { '@id': '/dummies?paged=0', '@type': VIEW })
    )
    expect(await get('p=1', dummies(3), renamed)).toStrictEqual(body(3, range(1, 3)))
  })

  it('partial under its new name', async () => {
    expect(await get('fast=1&p=2', dummies(30), renamed)).toStrictEqual(
      body(undefined, range(4, 6), {
        '@id': '/dummies?fast=1&p=2',
        '@type': VIEW,
        'hydra:previous': '/dummies?fast=1&p=1',
        'hydra:next': '/dummies?fast=1&p=3',
      })
    )
  })
})

describe('fetchCollectionPage: how the source is read', () => {
  it('full paging reads the page and the count', async () => {
    const source = arraySource(dummies(30))
    await fetchCollectionPage(source, readPagingRequest(parseQuery('page=7'), kernel))
    expect(source.calls).toStrictEqual([{ findMany: { skip: 18, take: 3 } }, 'count'])
  })

  it('itemsPerPage=0 only counts', async () => {
    const source = arraySource(dummies(30))
    const page = await fetchCollectionPage(
      source,
      readPagingRequest(parseQuery('itemsPerPage=0'), kernel)
    )
    expect(source.calls).toStrictEqual(['count'])
    expect(page).toStrictEqual({ items: [], totalItems: 30, paginated: false, self: {} })
  })

  it('an unpaged request reads every row, and does not count', async () => {
    const source = arraySource(dummies(5))
    await fetchCollectionPage(source, readPagingRequest(parseQuery('pagination=0'), kernel))
    expect(source.calls).toStrictEqual([{ findMany: { skip: 0 } }])
  })

  it('uses findManyAndCount when the source has it', async () => {
    const rows = dummies(30)
    const calls: Array<{ skip: number; take: number }> = []
    const source: CollectionSource<Dummy> = {
      findMany: () => Promise.reject(new Error('findMany called')),
      count: () => Promise.reject(new Error('count called')),
      async findManyAndCount(args) {
        calls.push(args)
        return [rows.slice(args.skip, args.skip + args.take), 29]
      },
    }
    const page = await fetchCollectionPage(source, readPagingRequest(parseQuery('page=10'), kernel))
    expect(calls).toStrictEqual([{ skip: 27, take: 3 }])
    expect(page).toStrictEqual({
      items: range(28, 30),
      totalItems: 29,
      paginated: true,
      self: { page: 10 },
      first: { page: 1 },
      last: { page: 10 },
      previous: { page: 9 },
    })
  })
})

describe('paginators (docs/custom-collections.md)', () => {
  it('lastPageOf: ceil(total / size), at least 1, and 1 for a page size of 0 or less', () => {
    expect(lastPageOf(30, 3)).toBe(10)
    expect(lastPageOf(31, 3)).toBe(11)
    expect(lastPageOf(29, 3)).toBe(10)
    expect(lastPageOf(1, 3)).toBe(1)
    expect(lastPageOf(0, 3)).toBe(1)
    expect(lastPageOf(30, 0)).toBe(1)
    expect(lastPageOf(0, 0)).toBe(1)
    expect(lastPageOf(30, -1)).toBe(1)
  })

  it('fromFullPaginator: a middle page has every link', () => {
    expect(
      fromFullPaginator({
        items: ['d', 'e'],
        currentPage: 2,
        itemsPerPage: 2,
        totalItems: 7,
        lastPage: 4,
      })
    ).toStrictEqual({
      items: ['d', 'e'],
      totalItems: 7,
      paginated: true,
      self: { page: 2 },
      first: { page: 1 },
      last: { page: 4 },
      previous: { page: 1 },
      next: { page: 3 },
    })
  })

  it('fromFullPaginator: first and beyond-last pages', () => {
    expect(
      fromFullPaginator({ items: [1], currentPage: 1, itemsPerPage: 1, totalItems: 2, lastPage: 2 })
    ).toStrictEqual({
      items: [1],
      totalItems: 2,
      paginated: true,
      self: { page: 1 },
      first: { page: 1 },
      last: { page: 2 },
      next: { page: 2 },
    })
    expect(
      fromFullPaginator({ items: [], currentPage: 9, itemsPerPage: 1, totalItems: 2, lastPage: 2 })
    ).toStrictEqual({
      items: [],
      totalItems: 2,
      paginated: true,
      self: { page: 9 },
      first: { page: 1 },
      last: { page: 2 },
      previous: { page: 8 },
    })
  })

  it('fromFullPaginator: one page (0 items, or a page size of 0) is not paginated', () => {
    expect(
      fromFullPaginator({
        items: [],
        currentPage: 1,
        itemsPerPage: 3,
        totalItems: 0,
        lastPage: lastPageOf(0, 3),
      })
    ).toStrictEqual({ items: [], totalItems: 0, paginated: false, self: {} })
    expect(
      fromFullPaginator({
        items: [],
        currentPage: 1,
        itemsPerPage: 0,
        totalItems: 30,
        lastPage: lastPageOf(30, 0),
      })
    ).toStrictEqual({ items: [], totalItems: 30, paginated: false, self: {} })
  })

  it('fromPartialPaginator: previous unless page 1, next only if the paginator says so', () => {
    expect(
      fromPartialPaginator({ items: [1, 2], currentPage: 1, itemsPerPage: 2, hasNextPage: true })
    ).toStrictEqual({ items: [1, 2], paginated: true, self: { page: 1 }, next: { page: 2 } })
    expect(
      fromPartialPaginator({ items: [5], currentPage: 3, itemsPerPage: 2, hasNextPage: false })
    ).toStrictEqual({ items: [5], paginated: true, self: { page: 3 }, previous: { page: 2 } })
    expect(
      fromPartialPaginator({ items: [], currentPage: 1, itemsPerPage: 2, hasNextPage: false })
    ).toStrictEqual({ items: [], paginated: true, self: { page: 1 } })
  })

  it('fromItems: a whole collection, counted, not paginated', () => {
    expect(fromItems([])).toStrictEqual({ items: [], totalItems: 0, paginated: false, self: {} })
    expect(fromItems(range(1, 4))).toStrictEqual({
      items: range(1, 4),
      totalItems: 4,
      paginated: false,
      self: {},
    })
  })

  const render = (page: CollectionPage<Dummy>, raw = '') =>
    renderCollection(page, {
      path: '/dummies',
      query: parseQuery(raw),
      parameters: kernel.parameters,
      context: CONTEXT,
    })

  it('a custom handler: a full paginator gets the full view, a plain array none', () => {
    const page = fromFullPaginator({
      items: range(4, 6),
      currentPage: 2,
      itemsPerPage: 3,
      totalItems: 8,
      lastPage: lastPageOf(8, 3),
    })
    expect(render(page, 'page=2')).toStrictEqual(
      body(8, range(4, 6), {
        '@id': '/dummies?page=2',
        '@type': VIEW,
        'hydra:first': '/dummies?page=1',
        'hydra:last': '/dummies?page=3',
        'hydra:previous': '/dummies?page=1',
        'hydra:next': '/dummies?page=3',
      })
    )
    expect(render(fromItems(range(1, 8)))).toStrictEqual(body(8, range(1, 8)))
    expect(render(fromItems(range(1, 8)), 'name=x&page=2')).toStrictEqual(
      body(8, range(1, 8), { '@id': '/dummies?name=x', '@type': VIEW })
    )
  })

  it('a custom handler: a partial paginator has no totalItems and no first/last', () => {
    const page = fromPartialPaginator({
      items: range(4, 6),
      currentPage: 2,
      itemsPerPage: 3,
      hasNextPage: false,
    })
    const result = render(page, 'page=2')
    expect(result).toStrictEqual(
      body(undefined, range(4, 6), {
        '@id': '/dummies?page=2',
        '@type': VIEW,
        'hydra:previous': '/dummies?page=1',
      })
    )
    expect('hydra:totalItems' in result).toBe(false)
  })
})

describe('renderCollection without the hydra: prefix (API Platform 4 style, reference 5)', () => {
  const unprefixed = (raw: string, rows: Dummy[], config: PagingConfig = kernel) =>
    render(raw, rows, config, false)

  it('a middle page: the same document with unprefixed keys and types', async () => {
    const rendered = await unprefixed('page=2', dummies(10))
    expect(rendered).toStrictEqual({
      '@context': CONTEXT,
      '@id': '/dummies',
      '@type': 'Collection',
      totalItems: 10,
      member: range(4, 6),
      view: {
        '@id': '/dummies?page=2',
        '@type': 'PartialCollectionView',
        first: '/dummies?page=1',
        last: '/dummies?page=4',
        previous: '/dummies?page=1',
        next: '/dummies?page=3',
      },
    })
    expect(JSON.stringify(rendered)).not.toContain('hydra:')
  })

  it('partial paging and a collection without a view', async () => {
    expect(await unprefixed('page=2&partial=true', dummies(10))).toStrictEqual({
      '@context': CONTEXT,
      '@id': '/dummies',
      '@type': 'Collection',
      member: range(4, 6),
      view: {
        '@id': '/dummies?partial=true&page=2',
        '@type': 'PartialCollectionView',
        previous: '/dummies?partial=true&page=1',
        next: '/dummies?partial=true&page=3',
      },
    })
    expect(await unprefixed('', dummies(2))).toStrictEqual({
      '@context': CONTEXT,
      '@id': '/dummies',
      '@type': 'Collection',
      totalItems: 2,
      member: dummies(2),
    })
  })

  it('errors: Error, title and description instead of hydra:Error, hydra:title, hydra:description', async () => {
    const error = await unprefixed('page=0', dummies(2)).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(HydraError)
    expect(errorBody(400, 'Page should not be less than 1', { hydraPrefix: false })).toStrictEqual({
      '@context': '/contexts/Error',
      '@id': '/errors/400',
      '@type': 'Error',
      type: '/errors/400',
      title: 'An error occurred',
      detail: 'Page should not be less than 1',
      status: 400,
      description: 'Page should not be less than 1',
    })
    expect(errorBody(404, 'gone', { base: '/api' })).toStrictEqual({
      '@context': '/api/contexts/Error',
      '@id': '/api/errors/404',
      '@type': 'hydra:Error',
      type: '/api/errors/404',
      title: 'Not Found',
      detail: 'gone',
      status: 404,
      'hydra:title': 'Not Found',
      'hydra:description': 'gone',
    })
  })
})

describe('a total that is not exact', () => {
  const source = (accuracy?: 'estimated' | 'cached'): CollectionSource<number> => ({
    findMany: async () => [],
    count: async () => 1000,
    findManyAndCount: async ({ take }) =>
      [
        Array.from({ length: take }, (_, index) => index),
        1000,
        ...(accuracy ? [accuracy] : []),
      ] as [number[], number],
  })
  const page = async (accuracy?: 'estimated' | 'cached') =>
    renderCollection(
      await fetchCollectionPage(source(accuracy), {
        paged: true,
        partial: false,
        page: 2,
        itemsPerPage: 30,
        offset: 30,
      }),
      { path: '/n', query: parseQuery('page=2'), parameters: kernel.parameters, context: CONTEXT }
    ) as Record<string, unknown>

  it('says how far it can be trusted, right after hydra:totalItems', async () => {
    const body = await page('estimated')
    expect(Object.keys(body).slice(3, 5)).toEqual(['hydra:totalItems', 'totalItemsAccuracy'])
    expect(body.totalItemsAccuracy).toBe('estimated')
    expect((body['hydra:view'] as Record<string, string>)['hydra:last']).toBe('/n?page=34')
    expect((await page('cached')).totalItemsAccuracy).toBe('cached')
  })

  it('says nothing when the count is exact', async () => {
    expect('totalItemsAccuracy' in (await page())).toBe(false)
  })
})
