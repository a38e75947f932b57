import {
  type CollectionPage,
  fromFullPaginator,
  fromItems,
  fromPartialPaginator,
  lastPageOf,
} from './page.js'
import type { PagingRequest } from './request.js'
import type { PageAndTotal, TotalAccuracy } from './totals.js'

/** Which rows to read, in Prisma's terms: spread it into `findMany` arguments. */
export interface RowWindow<Where = never> {
  skip?: number
  take?: number
  /** Cursor paging: the rows past a position in the key order. */
  where?: Where
  /** Read in the reverse of the collection's order (cursor paging's previous pages). */
  backward?: boolean
}

/**
 * Reads rows of one collection in its fixed order. Generated routes implement it over a Prisma
 * delegate; custom data providers can implement it over anything.
 */
export interface CollectionSource<Row, Where = never> {
  /**
   * Rows from `skip` (default 0), at most `take` of them (default all), in the collection's order,
   * in a new array on each call: a streamed (unpaged) response empties each batch once written.
   */
  findMany(window: RowWindow<Where>): PromiseLike<Row[]>
  count(): PromiseLike<number>
  /**
   * Optional: the page and the count read together, so they agree with each other. A third element
   * says when the count is not exact (an estimate, a cached count): responses then say so.
   */
  findManyAndCount?(window: { skip: number; take: number }): PromiseLike<PageAndTotal<Row>>
}

/** Full paging: the page and a count of the whole collection. */
export async function fetchFullPage<Row, Where>(
  source: CollectionSource<Row, Where>,
  request: { page: number; itemsPerPage: number; offset: number }
): Promise<CollectionPage<Row>> {
  const { page, itemsPerPage, offset } = request
  let items: Row[]
  let totalItems: number
  let accuracy: TotalAccuracy | undefined
  if (itemsPerPage === 0) {
    items = []
    totalItems = await source.count()
  } else if (source.findManyAndCount) {
    ;[items, totalItems, accuracy] = await source.findManyAndCount({
      skip: offset,
      take: itemsPerPage,
    })
  } else {
    ;[items, totalItems] = await Promise.all([
      source.findMany({ skip: offset, take: itemsPerPage }),
      source.count(),
    ])
  }
  return fromFullPaginator({
    items,
    totalItems,
    itemsPerPage,
    currentPage: page,
    lastPage: lastPageOf(totalItems, itemsPerPage),
    ...(accuracy && accuracy !== 'exact' ? { totalItemsAccuracy: accuracy } : {}),
  })
}

/** Partial paging: no count; one extra row tells whether a next page exists (D3). */
export async function fetchPartialPage<Row, Where>(
  source: CollectionSource<Row, Where>,
  request: { page: number; itemsPerPage: number; offset: number }
): Promise<CollectionPage<Row>> {
  const { page, itemsPerPage, offset } = request
  const rows =
    itemsPerPage === 0 ? [] : await source.findMany({ skip: offset, take: itemsPerPage + 1 })
  return fromPartialPaginator({
    items: rows.slice(0, itemsPerPage),
    hasNextPage: rows.length > itemsPerPage,
    itemsPerPage,
    currentPage: page,
  })
}

/** Picks the strategy the request asks for and runs it. */
export async function fetchCollectionPage<Row, Where>(
  source: CollectionSource<Row, Where>,
  request: PagingRequest
): Promise<CollectionPage<Row>> {
  if (!request.paged) return fromItems(await source.findMany({}))
  return request.partial ? fetchPartialPage(source, request) : fetchFullPage(source, request)
}
