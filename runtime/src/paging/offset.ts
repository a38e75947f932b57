import { fromFullPaginator, fromItems, fromPartialPaginator, lastPageOf } from './page.js'
import type { TotalAccuracy } from './totals.js'
import type { CollectionPage, CollectionSource, PagingRequest } from './types.js'

/** Full paging: the page and a count of the whole collection. */
async function fetchFullPage<Row, Where>(
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

/**
 * Partial paging: no count; one extra row tells whether a next page exists (docs/paging.md#d3).
 */
async function fetchPartialPage<Row, Where>(
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
