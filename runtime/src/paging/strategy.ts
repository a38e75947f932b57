/**
 * @module
 * The paging decision: from a request's query and an operation's settings to what the response
 * holds, one page or the whole collection streamed in batches. Which strategy runs (offsets, full
 * or partial, a cursor, a data provider, or none) is decided here and nowhere else; the Hono side
 * only renders and writes what comes out.
 */
import { badRequest } from '../errors.js'
import type { QueryMap } from '../iri/query-string.js'
import { DEFAULT_BATCH_SIZE, inBatches, readInBatches } from './batches.js'
import { fetchCursorPage, readCursorBound } from './cursor.js'
import { fetchCollectionPage } from './offset.js'
import { fromItems } from './page.js'
import { pageOfPaginator } from './paginators.js'
import { readEnabled, readItemsPerPage, readPagingRequest } from './request.js'
import type {
  CollectionPage,
  CollectionResult,
  CollectionSource,
  CursorKey,
  PagingConfig,
  PagingRequest,
} from './types.js'

/** What a collection response holds: one page, or every item, read batch by batch (D5). */
export type CollectionContent<T> =
  | { page: CollectionPage<T>; batches?: undefined }
  | { page?: undefined; batches: AsyncIterable<T[]> }

/** How an operation's rows are read. */
export interface CollectionReading<Row, Where> {
  source: CollectionSource<Row, Where>
  paging: PagingConfig
  /**
   * The operation's order as a keyset key (unique together), when every field of it can be
   * compared: unpaged responses then read each batch past the last row read.
   */
  orderKey?: readonly CursorKey[] | undefined
  /** Replaces the source for offset paging: the checked request in, a handler's result out. */
  provider?:
    | ((request: PagingRequest) => CollectionResult<Row> | Promise<CollectionResult<Row>>)
    | undefined
  /** Rows per query (and per written chunk) when the collection is read whole. Default 500. */
  batchSize?: number | undefined
}

/**
 * Reads the paging parameters of `query` and fetches what they ask for. Throws a 400 HydraError
 * on a bad parameter, before any row is read.
 */
export async function readCollection<Row extends object, Where>(
  query: QueryMap,
  reading: CollectionReading<Row, Where>
): Promise<CollectionContent<Row>> {
  const { source, paging, provider } = reading
  const batchSize = reading.batchSize ?? DEFAULT_BATCH_SIZE
  if (provider && !paging.cursor) {
    return contentOf(await provider(readPagingRequest(query, paging)), batchSize)
  }
  if (!readEnabled(query, paging)) {
    // D5: batches past the last row read, on the cursor key or the order key (offsets without one).
    return { batches: readInBatches(source, paging.cursor ?? reading.orderKey, batchSize) }
  }
  if (paging.cursor && !query.has(paging.parameters.page)) {
    const itemsPerPage = readItemsPerPage(query, paging)
    const bound = readCursorBound(query, paging.cursor)
    return { page: await fetchCursorPage(source, paging.cursor, itemsPerPage, bound) }
  }
  // D7: the page parameter on a cursor resource asks for that offset page of the cursor's order
  // (page-based clients such as API Platform's admin): a count and an OFFSET, as deep pages of
  // any offset-paged collection cost. A cursor position with it would mean two pages at once.
  if (paging.cursor && readCursorBound(query, paging.cursor)) {
    const fields = paging.cursor.map((key) => `${key.field}[…]`).join(', ')
    throw badRequest(
      `The "${paging.parameters.page}" parameter cannot be combined with a cursor position (${fields}).`
    )
  }
  return { page: await fetchCollectionPage(source, readPagingRequest(query, paging)) }
}

/**
 * What a handler's result stands for: a paginator's page, a whole array, or a sequence to stream
 * in batches of `batchSize`.
 */
export function contentOf<T>(
  result: CollectionResult<T>,
  batchSize: number = DEFAULT_BATCH_SIZE
): CollectionContent<T> {
  const page = pageOfPaginator(result)
  if (page) return { page }
  if (Array.isArray(result)) return { page: fromItems(result as T[]) }
  return { batches: inBatches(result as Iterable<T> | AsyncIterable<T>, batchSize) }
}
