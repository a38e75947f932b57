/**
 * What a custom collection handler (or a custom data provider of a generated operation) returns,
 * and the two ready-made paginators of docs/custom-collections.md: one over an in-memory array and
 * one over an iterable or async iterable (the "traversable" variant).
 */
import { fromFullPaginator, fromPartialPaginator, lastPageOf } from './page.js'
import type {
  CollectionPage,
  CollectionResult,
  FullPaginator,
  PagedRequest,
  PagingRequest,
  PartialPaginator,
} from './types.js'

export function isFullPaginator<T>(result: CollectionResult<T>): result is FullPaginator<T> {
  return !isList(result) && 'totalItems' in result && 'lastPage' in result
}

export function isPartialPaginator<T>(result: CollectionResult<T>): result is PartialPaginator<T> {
  return !isList(result) && 'hasNextPage' in result
}

function isList<T>(result: CollectionResult<T>): result is Iterable<T> | AsyncIterable<T> {
  return Symbol.iterator in result || Symbol.asyncIterator in result
}

/** The page a paginator result stands for; undefined for a whole collection (array or iterable). */
export function pageOfPaginator<T>(result: CollectionResult<T>): CollectionPage<T> | undefined {
  if (isFullPaginator(result)) return fromFullPaginator(result)
  if (isPartialPaginator(result)) return fromPartialPaginator(result)
  return undefined
}

/**
 * A full paginator for a page read by its own query (a `LIMIT`/`OFFSET` on another store, a
 * remote API's page): its items and the size of the whole collection.
 *
 * @example
 * A page read by its own query, with the collection's count:
 * ```ts
 * hydraCollection({ context: '/contexts/Event' }, async (request) => {
 *   if (!request.paged) return readAllEvents() // an array or an (async) iterable: streamed
 *   const [items, total] = await readEvents(request.offset, request.itemsPerPage)
 *   return fullPaginator(request, items, total)
 * })
 * ```
 */
export function fullPaginator<T>(
  request: PagedRequest,
  items: T[],
  totalItems: number
): FullPaginator<T> {
  const { page, itemsPerPage } = request
  return {
    items,
    totalItems,
    currentPage: page,
    itemsPerPage,
    lastPage: lastPageOf(totalItems, itemsPerPage),
  }
}

/**
 * A partial paginator for a page read by its own query, and whether another page follows it.
 *
 * @example
 * A page read with one extra row, which tells whether another follows:
 * ```ts
 * hydraCollection({ context: '/contexts/Event', paging: { partial: true } }, async (request) => {
 *   if (!request.paged) return readAllEvents()
 *   const rows = await readEvents(request.offset, request.itemsPerPage + 1)
 *   const more = rows.length > request.itemsPerPage
 *   return partialPaginator(request, rows.slice(0, request.itemsPerPage), more)
 * })
 * ```
 */
export function partialPaginator<T>(
  request: PagedRequest,
  items: T[],
  hasNextPage: boolean
): PartialPaginator<T> {
  return { items, currentPage: request.page, itemsPerPage: request.itemsPerPage, hasNextPage }
}

/**
 * The in-memory variant: the requested page of `items`. A paged request gets a full paginator
 * (or a partial one when partial paging was selected); an unpaged request gets every item.
 *
 * @example
 * ```ts
 * const genres = [{ '@id': '/genres#poetry', '@type': 'Genre', name: 'Poetry' }]
 * app.get(
 *   '/genres',
 *   hydraCollection({ context: '/contexts/Genre' }, (request) => paginateArray(genres, request))
 * )
 * ```
 */
export function paginateArray<T>(items: readonly T[], request: PagingRequest): CollectionResult<T> {
  if (!request.paged) return items
  const { itemsPerPage, offset } = request
  const slice = itemsPerPage === 0 ? [] : items.slice(offset, offset + itemsPerPage)
  if (request.partial) {
    return partialPaginator(
      request,
      slice,
      itemsPerPage > 0 && items.length > offset + itemsPerPage
    )
  }
  return fullPaginator(request, slice, items.length)
}

/** Options of `paginateIterable`. */
export interface PaginateIterableOptions {
  /**
   * The size of the whole sequence, when the source knows it. Full paging then stops reading at the
   * end of the page instead of reading the sequence to its end to count it.
   */
  totalItems?: number
}

/**
 * The traversable variant: the requested page of a sequence read in order (an iterable or async
 * iterable: a generator, a stream of records, pages of a remote API). Reading skips to the offset
 * and stops as soon as the page is known, closing the sequence:
 * - partial paging reads one item past the page (proof that a next page exists);
 * - full paging reads to the end to count, unless `totalItems` is given.
 * An unpaged request gets the sequence itself, which is then streamed.
 *
 * @example
 * A file read line by line, a page at a time:
 * ```ts
 * app.get(
 *   '/releases',
 *   hydraCollection({ context: '/contexts/Release', paging: { partial: true } }, (request, c) =>
 *     paginateIterable(readReleases('releases.ndjson', mountPrefix(c)), request) // an async generator
 *   )
 * )
 * ```
 */
export async function paginateIterable<T>(
  source: Iterable<T> | AsyncIterable<T>,
  request: PagingRequest,
  options: PaginateIterableOptions = {}
): Promise<CollectionResult<T>> {
  if (!request.paged) return source
  const { itemsPerPage, offset } = request
  const end = offset + itemsPerPage
  const known = options.totalItems
  const stopAt = request.partial
    ? itemsPerPage === 0
      ? 0
      : end + 1
    : known === undefined
      ? Infinity
      : end
  const items: T[] = []
  let position = 0
  if (stopAt > 0) {
    // `for await` closes the sequence (calls its `return`) when the loop is left early.
    for await (const item of source) {
      if (position >= offset && position < end) items.push(item)
      position++
      if (position >= stopAt) break
    }
  } else {
    // Nothing to read: the sequence is closed all the same (a stream given here holds a file).
    await closeSequence(source)
  }
  if (request.partial) {
    return partialPaginator(request, items, itemsPerPage > 0 && position > end)
  }
  return fullPaginator(request, items, known ?? position)
}

/** Closes a sequence that will not be read: its iterator's `return`, as an early `break` would. */
async function closeSequence<T>(source: Iterable<T> | AsyncIterable<T>): Promise<void> {
  const iterator =
    Symbol.asyncIterator in source
      ? (source as AsyncIterable<T>)[Symbol.asyncIterator]()
      : (source as Iterable<T>)[Symbol.iterator]()
  await iterator.return?.()
}
