/**
 * @module
 * The route of a generated collection operation: the paging decision (paging/strategy.ts) over
 * the operation's Prisma source, rendered as a Hydra collection.
 */
import type { Context } from 'hono'
import type { HydraCollection } from '../hydra/collection.js'
import type { IdKind, Resource } from '../hydra/resource.js'
import { collectionSearch } from '../hydra/search.js'
import { readCollection } from '../paging/strategy.js'
import type {
  CollectionResult,
  CollectionSource,
  CursorKey,
  PagingConfig,
  PagingRequest,
} from '../paging/types.js'
import { renderOptions, requestQuery, respondWithContent } from './collection-response.js'
import { restyleRouteError } from './error-handlers.js'
import type { JsonLdResponse } from './json-ld.js'
import { mountPrefix } from './location.js'
import { refuseUnacceptable } from './request-state.js'

/** A collection operation: a path of a resource with its own order and paging settings. */
export interface CollectionOperation<M, P extends boolean = boolean> {
  resource: Resource<M, IdKind>
  path: string
  paging: PagingConfig
  /** Whether Hydra keys carry the `hydra:` prefix (`hydra:member`) or not (`member`). Default true. */
  hydraPrefix?: P | undefined
  /**
   * The operation's order as a keyset key (unique together), when every field of it can be
   * compared: unpaged responses then read each batch past the last row read. Cursor-paged
   * operations use their cursor key.
   */
  orderKey?: readonly CursorKey[]
}

/**
 * Replaces the Prisma query of a generated operation: receives the checked paging request and
 * returns rows of the model (as its generated query selects them) in any form a custom handler may
 * return. The route, the parameter checks, the members and the rendering stay generated.
 */
export type CollectionProvider<Row, C extends Context = Context> = (
  request: PagingRequest,
  c: C
) => CollectionResult<Row> | Promise<CollectionResult<Row>>

/** Options of a generated collection route. */
export interface ServeCollectionOptions<Row> {
  /** Replaces the operation's Prisma query (offset-paged operations). */
  provider?: CollectionProvider<Row> | undefined
  /** Rows per query and per written chunk when the collection is served unpaged. Default 500. */
  batchSize?: number | undefined
}

/** The search block of each operation, for the last path it was served at (nearly always one). */
const searches = new WeakMap<object, { path: string; search: Record<string, unknown> }>()

function searchOf<M, P extends boolean>(
  operation: CollectionOperation<M, P>,
  path: string
): Record<string, unknown> {
  const cached = searches.get(operation)
  if (cached?.path === path) return cached.search
  const { resource, paging, hydraPrefix } = operation
  const search = collectionSearch(resource, paging, path, hydraPrefix !== false)
  searches.set(operation, { path, search })
  return search
}

/**
 * Serves one page of a generated collection operation: reads the paging parameters, fetches
 * (through the operation's source, or the provider that replaces it), renders. Unpaged requests
 * are streamed, read in batches (D5).
 */
export async function serveCollection<M, Row extends object, Where, P extends boolean = true>(
  c: Context,
  operation: CollectionOperation<M, P>,
  source: CollectionSource<Row, Where>,
  options: ServeCollectionOptions<Row> = {}
): Promise<JsonLdResponse<HydraCollection<M, P>>> {
  const base = mountPrefix(c)
  const { resource, paging, hydraPrefix } = operation
  try {
    refuseUnacceptable(c)
    const query = requestQuery(c)
    const context = `${base}/contexts/${resource.name}`
    const render = renderOptions(c, query, paging.parameters, context, hydraPrefix)
    render.search = searchOf(operation, render.path)
    const { provider } = options
    const content = await readCollection(query, {
      source,
      paging,
      orderKey: operation.orderKey,
      provider: provider && ((request) => provider(request, c)),
      batchSize: options.batchSize,
    })
    return await respondWithContent(c, content, (row: Row) => resource.toMember(row, base), render)
  } catch (error) {
    restyleRouteError(error, { base, hydraPrefix })
  }
}
