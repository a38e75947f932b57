/**
 * @module
 * Custom collections (spec 4.2): a route whose handler returns a paginator, an array or an
 * iterable, served with the generated routes' checks, errors, links and rendering.
 */
import type { Context, Env, Input } from 'hono'
import type { HydraCollection } from '../hydra/collection.js'
import { DEFAULT_BATCH_SIZE } from '../paging/batches.js'
import { type CustomPagingOptions, customPaging } from '../paging/config.js'
import { readPagingRequest } from '../paging/request.js'
import { contentOf } from '../paging/strategy.js'
import type { CollectionResult, PagingRequest } from '../paging/types.js'
import { renderOptions, requestQuery, respondWithContent } from './collection-response.js'
import { restyleRouteError } from './error-handlers.js'
import type { JsonLdResponse } from './json-ld.js'
import { mountPrefix } from './location.js'
import { refuseUnacceptable } from './request-state.js'

/** How a custom collection is served: its context, paging settings, chunk size and prefix. */
export interface CollectionHandlerOptions<P extends boolean = boolean> {
  /**
   * The collection's `@context`: an absolute IRI, or a path such as `/contexts/Genre`, which is
   * taken under the path the app is mounted at.
   */
  context: string
  /** Paging settings, as a generated operation has them; left-out ones take the spec's defaults. */
  paging?: CustomPagingOptions | undefined
  /** Items per written chunk when a whole collection is streamed. Default 500. */
  batchSize?: number | undefined
  /** Whether Hydra keys carry the `hydra:` prefix (`hydra:member`) or not (`member`). Default true. */
  hydraPrefix?: P | undefined
}

/**
 * A custom collection handler (spec 4.2). `handler` receives the checked paging request (page from
 * `page`, or its configured name, default 1; page size; offset = (page - 1) × page size; or an
 * unpaged request) and returns a full paginator (full view), a partial paginator (partial view),
 * an array (no view) or an iterable (no view, streamed). Checks, errors, links and rendering are
 * the generated routes' own.
 *
 * ```ts
 * app.get('/genres', hydraCollection({ context: '/contexts/Genre' }, (request) =>
 *   paginateArray(genres, request)))
 * ```
 */
export function hydraCollection<
  T,
  E extends Env = Env,
  Path extends string = string,
  // biome-ignore lint/complexity/noBannedTypes: Hono's own default for a route without input.
  I extends Input = {},
  P extends boolean = true,
>(
  options: CollectionHandlerOptions<P>,
  handler: (
    request: PagingRequest,
    c: Context<E, Path, I>
  ) => CollectionResult<T> | Promise<CollectionResult<T>>
): (c: Context<E, Path, I>) => Promise<JsonLdResponse<HydraCollection<T, P>>> {
  const paging = customPaging(options.paging, 'hydraCollection')
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
  const { hydraPrefix } = options
  return async (c) => {
    const base = mountPrefix(c)
    try {
      refuseUnacceptable(c)
      const query = requestQuery(c)
      const context = options.context.startsWith('/')
        ? `${base}${options.context}`
        : options.context
      const render = renderOptions(c, query, paging.parameters, context, hydraPrefix)
      const result = await handler(readPagingRequest(query, paging), c)
      return await respondWithContent(c, contentOf(result, batchSize), (item: T) => item, render)
    } catch (error) {
      restyleRouteError(error, { base, hydraPrefix })
    }
  }
}
