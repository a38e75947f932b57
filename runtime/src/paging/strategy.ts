/**
 * @module
 * The paging decision: from a request's query and an operation's settings to what the response
 * holds, one page or the whole collection streamed in batches. Which strategy runs (offsets, full
 * or partial, a cursor, a data provider, or none) is decided here and nowhere else; the Hono side
 * only renders and writes what comes out.
 */

import type { CursorKey } from '../contract/order.js'
import type { CountPreference, PagingConfig } from '../contract/paging.js'
import { badRequest } from '../errors.js'
import type { QueryMap } from '../iri/query-string.js'
import { DEFAULT_BATCH_SIZE, inBatches, readInBatches } from './batches.js'
import { fetchCursorPage, readCursorBound } from './cursor.js'
import { keepFilterOperators } from './cursor-links.js'
import { fetchCollectionPage } from './offset.js'
import { fromItems } from './page.js'
import { pageOfPaginator } from './paginators.js'
import { readEnabled, readItemsPerPage, readPagingRequest } from './request.js'
import type {
  CollectionPage,
  CollectionResult,
  CollectionSource,
  PagingRequest,
  RowWindow,
} from './types.js'

/**
 * What the strategy decided for a request: its paging mode and, in the offset modes, its page
 * number (what a route reports of it: docs/operations.md).
 */
export type PagingDecision =
  | { mode: 'full' | 'partial'; page: number }
  | { mode: 'cursor' | 'unpaged'; page?: undefined }

/**
 * What a collection response holds: one page, or all items read in batches (docs/paging.md#d5);
 * with the decision that read it, when a request's paging parameters were read.
 */
export type CollectionContent<T> = (
  | { page: CollectionPage<T>; batches?: undefined }
  | { page?: undefined; batches: AsyncIterable<T[]> }
) & { decision?: PagingDecision | undefined }

const UNPAGED: PagingDecision = { mode: 'unpaged' }
const CURSOR: PagingDecision = { mode: 'cursor' }

/** The decision a checked offset request stands for. */
function decisionOf(request: PagingRequest): PagingDecision {
  if (!request.paged) return UNPAGED
  return { mode: request.partial ? 'partial' : 'full', page: request.page }
}

/** How an operation's rows are read. */
export interface CollectionReading<Row, Where> {
  source: CollectionSource<Row, Where>
  paging: PagingConfig
  /**
   * The operation's order as a keyset key (unique together), when every field of it can be
   * compared: unpaged responses then read each batch past the last row read.
   */
  orderKey?: readonly CursorKey[] | undefined
  /** Cursor paging: this request's key (the client's order, or the configured cursor). */
  cursor?: readonly CursorKey[] | undefined
  /** Operators a filter reads on a key field (a date filter's `[after]`): not cursor positions. */
  filterOperators?: ReadonlyMap<string, readonly string[]> | undefined
  /** Replaces the source for offset paging: the checked request in, a handler's result out. */
  provider?:
    | ((request: PagingRequest) => CollectionResult<Row> | Promise<CollectionResult<Row>>)
    | undefined
  /** Rows per query (and per written chunk) when the collection is read whole. Default 500. */
  batchSize?: number | undefined
  /** The schema's datasource provider: cursor values are checked against what it stores. */
  database?: string | undefined
  /**
   * Bounds each piece of database work: a page (with its count), a data provider's result, each
   * batch of a whole collection (the request's time budget). Default: unbounded.
   */
  work?: BoundWork | undefined
  /**
   * The totals the client asked for and the operation honours (`Prefer: count=…`,
   * docs/paging.md#client-totals): an offset page is then partial for `none` and full otherwise,
   * unless the client's `partial` parameter says otherwise. The source counts as it asks.
   */
  count?: CountPreference | undefined
}

/**
 * The paging settings of an offset request: the operation's, with the partial or full paging a
 * count preference asks for as its default.
 */
function offsetPaging(paging: PagingConfig, count: CountPreference | undefined): PagingConfig {
  return count === undefined ? paging : { ...paging, partial: count === 'none' }
}

/**
 * Whether `content` honours the count preference `count`: an offset page, partial for `none` and
 * full for the others (the `partial` parameter may have asked otherwise), whose total, for
 * `estimated` and `planned`, is the estimate. A total counted exactly (a filtered, scoped or
 * sub-collection, a database that keeps no estimate, a table never analyzed, `estimated` below
 * its threshold, a page that proves the size) applied no estimate: it is not said to (RFC 7240
 * section 3 names what was applied).
 */
export function honoursCount(
  content: CollectionContent<unknown>,
  count: CountPreference | undefined
): boolean {
  const mode = content.decision?.mode
  if (count === undefined || (mode !== 'full' && mode !== 'partial')) return false
  if ((mode === 'partial') !== (count === 'none')) return false
  const estimate = count === 'estimated' || count === 'planned'
  return !estimate || content.page?.totalItemsAccuracy === 'estimated'
}

/**
 * Runs database work (`start` starts it) within what is left of a request's budget: on a database
 * whose driver holds the process, once its turn of the event loop has come
 * (database/loop-turns.ts).
 */
export interface BoundWork {
  <T>(start: () => PromiseLike<T>): Promise<T>
  /**
   * The work of a streamed collection's batches after its first, once its answer has begun (a 503
   * can no longer be its answer): each within a budget of its own. Absent: as the first.
   */
  batch?: BoundWork | undefined
}

const unbounded: BoundWork = async (start) => start()

/** `work` for a stream's first batch, read before its answer begins; `work.batch` for the others. */
function batchWork(work: BoundWork): BoundWork {
  const later = work.batch
  if (!later) return work
  let first = true
  return <T>(start: () => PromiseLike<T>): Promise<T> => {
    if (!first) return later(start)
    first = false
    return work(start)
  }
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
  const work = reading.work ?? unbounded
  if (provider && !paging.cursor) {
    const request = readPagingRequest(query, paging)
    const result = await work(async () => provider(request))
    return { ...contentOf(result, batchSize, work), decision: decisionOf(request) }
  }
  const cursor = paging.cursor && (reading.cursor ?? paging.cursor)
  if (!readEnabled(query, paging)) {
    // Batches past the last row read, on the cursor key or the order key (offsets without one):
    // docs/paging.md#d5. Each batch is read within the request's budget.
    const read = batchWork(work)
    const bounded = {
      ...source,
      findMany: (window: RowWindow<Where>) => read(() => source.findMany(window)),
    }
    return {
      batches: readInBatches(bounded, cursor ?? reading.orderKey, batchSize),
      decision: UNPAGED,
    }
  }
  if (cursor && !query.has(paging.parameters.page)) {
    const itemsPerPage = readItemsPerPage(query, paging)
    const bound = readCursorBound(query, cursor, reading.filterOperators, reading.database)
    const page = await work(() => fetchCursorPage(source, cursor, itemsPerPage, bound))
    return { page: keepFilterOperators(page, query), decision: CURSOR }
  }
  // docs/paging.md#d7: the page parameter on a cursor resource asks for that offset page of the
  // cursor's order (page-based clients such as API Platform's admin): a count and an OFFSET, as
  // deep pages of any offset-paged collection cost. A cursor position with it would mean two pages
  // at once.
  if (cursor && readCursorBound(query, cursor, reading.filterOperators, reading.database)) {
    const fields = cursor.map((key) => `${key.field}[…]`).join(', ')
    throw badRequest(
      `The "${paging.parameters.page}" parameter cannot be combined with a cursor position (${fields}).`
    )
  }
  const request = readPagingRequest(query, offsetPaging(paging, reading.count))
  return {
    page: await work(() => fetchCollectionPage(source, request)),
    decision: decisionOf(request),
  }
}

/**
 * What a handler's result stands for: a paginator's page, a whole array, or a sequence to stream
 * in batches of `batchSize`.
 */
export function contentOf<T>(
  result: CollectionResult<T>,
  batchSize: number = DEFAULT_BATCH_SIZE,
  work: BoundWork = unbounded
): CollectionContent<T> {
  const page = pageOfPaginator(result)
  if (page) return { page }
  if (Array.isArray(result)) return { page: fromItems(result as T[]) }
  const batches = inBatches(result as Iterable<T> | AsyncIterable<T>, batchSize, batchWork(work))
  return { batches }
}
