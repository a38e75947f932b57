/**
 * @module
 * Custom collections (docs/custom-collections.md): a route whose handler returns a paginator, an
 * array or an iterable, served with the generated routes' checks, errors, links and rendering.
 */
import type { Context, Env, Input } from 'hono'
import type { QuerySpec } from '../../contract/query.js'
import { prismaOrderBy, prismaWhere } from '../../data/prisma7/where.js'
import { outageLogOf } from '../../data/read-routing.js'
import { clientTakesTurns } from '../../database/loop-turns.js'
import { databaseWork, OutageLog, requestWork } from '../../database/outage.js'
import { budgetOf, type DatabaseTimeouts } from '../../database/timeouts.js'
import { type CustomQueryOptions, customQuery } from '../../filters/custom-query.js'
import { filterCondition } from '../../filters/filter-conditions.js'
import { readCollectionQuery } from '../../filters/read.js'
import type { HydraCollection } from '../../hydra/collection.js'
import { pageDocument } from '../../hydra/page-document.js'
import { collectionSearch } from '../../hydra/search.js'
import type { QueryMap } from '../../iri/query-string.js'
import { DEFAULT_BATCH_SIZE } from '../../paging/batches.js'
import { type CustomPagingOptions, customPaging } from '../../paging/config.js'
import { readPagingRequest } from '../../paging/request.js'
import { type BoundWork, contentOf } from '../../paging/strategy.js'
import type { CollectionResult, PagingRequest } from '../../paging/types.js'
import { mountPrefix } from '../request/location.js'
import { refuseUnacceptable } from '../request/request-state.js'
import {
  type CollectionWriter,
  renderOptions,
  requestQuery,
  respondWithContent,
} from '../response/collection-response.js'
import { restyleRouteError } from '../response/error-handlers.js'
import type { JsonLdResponse } from '../response/json-ld.js'
import type { ResourceAppOptions } from './app-options.js'
import type { ProviderQuery } from './app-reads.js'
import {
  inOperation,
  observeRoute,
  type RouteObservation,
  readInSpan,
} from './route-observation.js'
import type { CollectionProblems, ProblemResponse } from './typed-responses.js'

/** How a custom collection is served: its context, paging settings, chunk size and prefix. */
export interface CollectionHandlerOptions<P extends boolean = boolean>
  extends Pick<ResourceAppOptions, 'streamYield' | 'logger' | 'tracing'> {
  /**
   * The collection's `@context`: an absolute IRI, or a path such as `/contexts/Genre`, which is
   * taken under the path the app is mounted at.
   */
  context: string
  /** Paging settings, as a generated operation has them; left out, the built-in defaults. */
  paging?: CustomPagingOptions | undefined
  /** Items per written chunk when a whole collection is streamed. Default 500. */
  batchSize?: number | undefined
  /** Whether Hydra keys carry the `hydra:` prefix (`hydra:member`) or not (`member`). Default true. */
  hydraPrefix?: P | undefined
  /**
   * The budget of the handler's work (and of each batch of a streamed result), and the
   * `Retry-After` of the 503 an outage of its database is answered with.
   */
  timeouts?: DatabaseTimeouts | undefined
  /**
   * The Prisma client the handler reads (the one given to `createHydraApp`): an outage of its
   * database is then logged with the generated routes' over that client, once per episode. Left
   * out, the collection logs the outages it meets in a log of its own.
   */
  database?: object | undefined
  /**
   * What clients may filter and order the collection by (docs/custom-collections.md): the route
   * reads and checks these parameters (a 400 on a malformed one), lists them in `hydra:search`,
   * and hands them to the handler, parsed, to apply.
   */
  query?: CustomQueryOptions | undefined
  /**
   * The collection's `Cache-Control` (`'public, max-age=60'`); none when left out. Its pages carry
   * an `ETag` whatever this says (docs/hydra.md#http-caching).
   */
  cacheControl?: string | undefined
}

/**
 * A custom collection handler (docs/custom-collections.md). `handler` receives the checked paging
 * request (page from `page`, or its configured name, default 1; page size; offset = (page - 1) ×
 * page size; or an unpaged request), the Hono context and the request's filters and order as
 * declared by `options.query` (parsed and typed, as custom data providers get them; empty without
 * `query`), and returns a full paginator (full view), a partial paginator (partial view), an array
 * (no view) or an iterable (no view, streamed). Checks, errors, links and rendering are the
 * generated routes' own.
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
    c: Context<E, Path, I>,
    query: ProviderQuery
  ) => CollectionResult<T> | Promise<CollectionResult<T>>
): (
  c: Context<E, Path, I>
) => Promise<JsonLdResponse<HydraCollection<T, P>> | ProblemResponse<P, CollectionProblems>> {
  const prepared = prepareCustom(options)
  // Its operation's span names its context's last segment: `hydra Genre.collection`.
  const names = { resource: options.context.split('/').pop() ?? '', operation: 'collection' }
  return async (c) => {
    const observation = await observeRoute({ tracing: options.tracing, serverTiming: false })
    return inOperation(observation, names, () =>
      serveCustom(c, observation, options, prepared, handler)
    )
  }
}

/** What a custom collection's handler is: from the paging request, context and query, its rows. */
type CollectionHandler<T, C extends Context> = (
  request: PagingRequest,
  c: C,
  query: ProviderQuery
) => CollectionResult<T> | Promise<CollectionResult<T>>

/** What a custom collection works out once: its paging, query, writer and database work. */
interface PreparedCustom {
  paging: ReturnType<typeof customPaging>
  spec: QuerySpec | undefined
  writer: CollectionWriter
  batchSize: number
  retryAfter: number
  outages: OutageLog
  /** The database work of `request`. */
  work: (request: Request) => BoundWork
}

/** Prepares a custom collection once: what each of its requests is served with. */
function prepareCustom(options: CollectionHandlerOptions<boolean>): PreparedCustom {
  const paging = customPaging(options.paging, 'hydraCollection')
  const spec = options.query && customQuery(options.query, 'hydraCollection query', paging)
  const prefix = options.hydraPrefix !== false
  // Its `hydra:search`, as generated collections write theirs (api-doc-parser and the admin read a
  // collection's parameters there): mappings worked out once, the template per path.
  const searchAt = collectionSearch({ name: options.context, fields: [] }, paging, prefix, spec)
  const writer = { search: searchAt, document: pageDocument(prefix, searchAt) }
  const budget = budgetOf(options.timeouts)
  const outages = (options.database ? outageLogOf(options.database) : new OutageLog()).through(
    options.logger
  )
  // A handler reading a database whose driver holds the process waits for its turn of the loop.
  const turns = clientTakesTurns(options.database)
  // A request's work counts from its arrival (requestWork); a stream's later batches, read once
  // its answer has begun, have a budget each.
  const work = (request: Request): BoundWork => {
    const first: BoundWork = (start) => requestWork(start, request, budget.query, outages, turns)
    first.batch = (start) => databaseWork(start, budget.query, outages, turns)
    return first
  }
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
  return { paging, spec, writer, batchSize, retryAfter: budget.retryAfter, outages, work }
}

/** The request's filters and order as the collection declares them, parsed for its handler. */
function handlerQuery(query: QueryMap, spec: QuerySpec | undefined, base: string): ProviderQuery {
  if (!spec) return { filters: [], order: [], where: undefined, orderBy: undefined }
  const { filters, order } = readCollectionQuery(query, spec, { base })
  return {
    filters,
    order,
    where: prismaWhere(filterCondition(filters, { likeEscape: spec.likeEscape }), {
      jsonNull: spec.jsonNull,
    }),
    orderBy: order.length > 0 ? prismaOrderBy(order) : undefined,
  }
}

/** One request of a custom collection within its operation's span. */
async function serveCustom<T, C extends Context, P extends boolean>(
  c: C,
  observation: RouteObservation,
  options: CollectionHandlerOptions<P>,
  prepared: PreparedCustom,
  handler: CollectionHandler<T, C>
): Promise<JsonLdResponse<HydraCollection<T, P>> | ProblemResponse<P, CollectionProblems>> {
  const { hydraPrefix } = options
  const { paging, outages } = prepared
  const work = prepared.work(c.req.raw)
  const base = mountPrefix(c)
  try {
    refuseUnacceptable(c)
    const query = requestQuery(c)
    const context = options.context.startsWith('/') ? `${base}${options.context}` : options.context
    const render = renderOptions(c, query, paging.parameters, context, hydraPrefix)
    const request = readPagingRequest(query, paging)
    const parsed = handlerQuery(query, prepared.spec, base)
    const result = await work(async () => handler(request, c, parsed))
    const content = readInSpan(observation, contentOf(result, prepared.batchSize, work))
    const stream = {
      outages,
      streamYield: options.streamYield,
      cacheControl: options.cacheControl,
      logger: options.logger,
    }
    return await respondWithContent(c, content, (item: T) => item, render, stream, prepared.writer)
  } catch (error) {
    restyleRouteError(error, { base, hydraPrefix }, prepared.retryAfter, outages)
  }
}
