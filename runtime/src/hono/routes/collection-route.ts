/**
 * @module
 * The route of a generated collection operation: the paging decision (paging/strategy.ts) over
 * the operation's Prisma source, rendered as a Hydra collection.
 */
import type { Context } from 'hono'
import type { CollectionOperation } from '../../contract/operations.js'
import type { PagingConfig } from '../../contract/paging.js'
import type { CallerView } from '../../data/caller-view.js'
import type { DataAccess } from '../../data/data-access.js'
import { outageLogOf } from '../../data/read-routing.js'
import { type Snapshot, snapshotOf } from '../../data/snapshot.js'
import { budgetOf } from '../../database/timeouts.js'
import { withDeclaredEmbeds } from '../../filters/declared-embeds.js'
import { readProperties } from '../../filters/properties.js'
import { type ProviderQuery, type RowSelection, selectRows } from '../../filters/selection.js'
import type { HydraCollection } from '../../hydra/collection.js'
import { shapeMembers } from '../../hydra/member-shape.js'
import { collectionSearch } from '../../hydra/search.js'
import type { QueryMap } from '../../iri/query-string.js'
import type { OperationsOptions } from '../../observe/options.js'
import { type BoundWork, type CollectionContent, readCollection } from '../../paging/strategy.js'
import type { CollectionResult, CollectionSource, PagingRequest } from '../../paging/types.js'
import { type CallerOperation, callerOperation, hideFields } from '../access/caller-operation.js'
import { mountPrefix } from '../request/location.js'
import { refuseUnacceptable } from '../request/request-state.js'
import { renderOptions, requestQuery, respondWithContent } from '../response/collection-response.js'
import { restyleRouteError } from '../response/error-handlers.js'
import type { JsonLdResponse } from '../response/json-ld.js'
import type { ResourceAppOptions } from './app-options.js'
import {
  boundWork,
  inDataAccess,
  inOperation,
  observeRoute,
  pagingAttributes,
  type RouteObservation,
  withTimings,
} from './route-observation.js'
import type { CollectionProblems, GuardProblems, ProblemResponse } from './typed-responses.js'

/**
 * A source given by hand (serveSource): one reading what the selection asks for (the filters'
 * `where`, the client's `orderBy`), or, for an operation that declares no filter and no order, a
 * plain source.
 */
export type SourceOf<Row extends object, Where> =
  | CollectionSource<Row, Where>
  | ((selection: RowSelection) => CollectionSource<Row, Where>)

/**
 * Where an operation's rows come from: the resource's data access (generated routes, which read
 * the caller first), or a source given by hand.
 */
type RowOrigin<Row extends object, Where> =
  | { kind: 'data'; access: DataAccess<Row> }
  | { kind: 'source'; source: SourceOf<Row, Where> }

/** A source given by hand for `selection`. */
function handSource<Row extends object, Where>(
  source: SourceOf<Row, Where>,
  operation: CollectionOperation<unknown>,
  selection: RowSelection
): CollectionSource<Row, Where> {
  if (typeof source === 'function') return source(selection)
  if (selection.where || selection.orderBy) {
    throw new TypeError(
      `serveCollection: ${operation.path} declares filters or an order; pass a function from the selection to a source`
    )
  }
  return source
}

/** The view a data access reads with: always the caller's (read before the route reads rows). */
function callerOf(access: CallerOperation<unknown> | undefined): CallerView {
  if (!access) throw new TypeError('A generated collection reads its caller before its rows')
  return access.view
}

/**
 * A sub-collection's parent condition, the caller's operation read with it, and the request's
 * observation (its operation's span already open).
 */
export interface WithinParent<O> {
  within: Record<string, unknown>
  access: CallerOperation<O>
  observation: RouteObservation
}

/**
 * Replaces the Prisma query of a generated operation: receives the checked paging request, the
 * request's filters and order (parsed, and as the generated query's `where` and `orderBy`) and
 * `snapshot`, which reads a page and its count in one snapshot as the generated query does
 * (data/snapshot.ts), and returns rows of the model (as its generated query selects them) in any
 * form a custom handler may return. The route, the parameter checks, the members and the
 * rendering stay generated.
 */
export type CollectionProvider<
  Row,
  C extends Context = Context,
  Where = Record<string, unknown>,
  OrderBy = Record<string, unknown>,
> = (
  request: PagingRequest,
  c: C,
  query: ProviderQuery<Where, OrderBy>,
  snapshot: Snapshot
) => CollectionResult<Row> | Promise<CollectionResult<Row>>

/**
 * Custom data providers of a resource's offset-paged operations, by operation name (`Names`):
 * each replaces that operation's query (`BookProviders`).
 */
export type OperationProviders<Row, Where, OrderBy, Names extends string> = {
  [Name in Names]?: CollectionProvider<Row, Context, Where, OrderBy> | undefined
}

/**
 * Options of a generated collection route. `C`, `Where` and `OrderBy` are the provider's: the
 * generated routes give the model's Prisma types (`Prisma.BookWhereInput`).
 */
export interface ServeCollectionOptions<
  Row,
  C extends Context = Context,
  Where = Record<string, unknown>,
  OrderBy = Record<string, unknown>,
> extends ResourceAppOptions {
  /** Replaces the operation's Prisma query (offset-paged operations). */
  provider?: CollectionProvider<Row, C, Where, OrderBy> | undefined
  /**
   * The resource's providers by operation name (`BookProviders`): an offset-paged operation
   * without its own `provider` takes the one named by its `name`.
   */
  providers?: OperationProviders<Row, Where, OrderBy, string> | undefined
  /**
   * The collection's path as its IRIs write it (without the query); default: the request's path.
   * A sub-collection gives its own, built from its parent's key.
   */
  path?: string | undefined
}

const NONE: ReadonlySet<string> = new Set()

/** The provider of an offset-paged operation among its resource's, by the operation's name. */
function providerOf<Provider>(
  providers: Readonly<Record<string, Provider | undefined>> | undefined,
  operation: { name?: string | undefined; paging: PagingConfig }
): Provider | undefined {
  if (!providers || operation.name === undefined || operation.paging.cursor) return undefined
  return Object.hasOwn(providers, operation.name) ? providers[operation.name] : undefined
}

/**
 * Each operation's `hydra:search` builder: a memo of a pure function of the operation (generated
 * data, never changed), so that its mappings are worked out once; the template is written per
 * path (a sub-collection is served at one path per parent).
 */
const searches = new WeakMap<object, (path: string) => Record<string, unknown> | undefined>()

function searchOf<M, P extends boolean>(
  operation: CollectionOperation<M, P>,
  path: string
): Record<string, unknown> | undefined {
  let search = searches.get(operation)
  if (!search) {
    const { resource, paging, hydraPrefix, query } = operation
    search = collectionSearch(resource, paging, hydraPrefix !== false, query)
    searches.set(operation, search)
  }
  return search(path)
}

/** What a collection route answers: its document, or a problem. */
type CollectionAnswer<M, P extends boolean> =
  | JsonLdResponse<HydraCollection<M, P>>
  | ProblemResponse<P, CollectionProblems | GuardProblems>

/**
 * Serves one page of a generated collection operation over its resource's data access: reads the
 * paging parameters, fetches (through the operation's source, or the provider that replaces it),
 * renders. Unpaged requests are streamed, read in batches (docs/paging.md#d5). The request is its
 * operation's span (a sub-collection's opened by its route).
 */
export function serveCollection<
  M,
  Row extends object,
  P extends boolean = true,
  C extends Context = Context,
  FilterWhere = Record<string, unknown>,
  OrderBy = Record<string, unknown>,
>(
  c: C,
  declared: CollectionOperation<M, P>,
  rows: DataAccess<Row>,
  options: ServeCollectionOptions<Row, C, FilterWhere, OrderBy> = {},
  /** A sub-collection's condition: the rows of one parent (sub-collection-route.ts). */
  parent?: WithinParent<CollectionOperation<M, P>> | undefined
): Promise<CollectionAnswer<M, P>> {
  const origin = { kind: 'data', access: rows } as const
  return inCollectionSpan(declared, options, parent, (observation) =>
    collectionResponse(c, declared, origin, options, parent, observation)
  )
}

/**
 * Serves a collection operation over a source given by hand (SourceOf), as serveCollection
 * serves a generated one: no caller is read, every row of the source is served.
 */
export function serveSource<M, Row extends object, Where, P extends boolean = true>(
  c: Context,
  declared: CollectionOperation<M, P>,
  source: SourceOf<Row, Where>,
  options: ServeCollectionOptions<Row> = {}
): Promise<CollectionAnswer<M, P>> {
  const origin = { kind: 'source', source } as const
  return inCollectionSpan(declared, options, undefined, (observation) =>
    collectionResponse(c, declared, origin, options, undefined, observation)
  )
}

/** serveCollection and serveSource: `respond` in the operation's span, opened unless its parent's is. */
async function inCollectionSpan<T>(
  declared: CollectionOperation<unknown, boolean>,
  options: OperationsOptions,
  parent: { observation: RouteObservation } | undefined,
  respond: (observation: RouteObservation) => Promise<T>
): Promise<T> {
  if (parent) return respond(parent.observation)
  const observation = await observeRoute(options)
  const names = { resource: declared.resource.name, operation: declared.name ?? 'collection' }
  return inOperation(observation, names, () => respond(observation))
}

/** serveCollection within its operation's span. */
async function collectionResponse<
  M,
  Row extends object,
  Where,
  P extends boolean,
  C extends Context,
  FilterWhere,
  OrderBy,
>(
  c: C,
  declared: CollectionOperation<M, P>,
  origin: RowOrigin<Row, Where>,
  options: ServeCollectionOptions<Row, C, FilterWhere, OrderBy>,
  parent: WithinParent<CollectionOperation<M, P>> | undefined,
  observation: RouteObservation
): Promise<CollectionAnswer<M, P>> {
  const base = mountPrefix(c)
  const { resource, paging, hydraPrefix } = declared
  const budget = budgetOf(options.timeouts)
  const outages = origin.kind === 'data' ? origin.access.outages : outageLogOf(origin.source)
  try {
    refuseUnacceptable(c)
    // The caller first: a guard refuses before any query, and what the caller may not filter or
    // order by is unknown to it (the operation as the caller may use it).
    const access =
      parent?.access ??
      (origin.kind === 'data'
        ? await callerOperation(c, origin.access, options, declared)
        : undefined)
    const operation = access?.operation ?? declared
    const query = requestQuery(c)
    const context = `${base}/contexts/${resource.name}`
    const render = renderOptions(c, query, paging.parameters, context, hydraPrefix)
    if (options.path !== undefined) render.path = options.path
    render.search = searchOf(operation, render.path)
    const read: ContentRead<M, Row, Where, C, FilterWhere, OrderBy> = {
      operation,
      origin,
      options,
      access,
      within: parent?.within,
      base,
      work: boundWork(observation, budget.query, outages),
      observation,
    }
    const content = await inDataAccess(
      observation,
      dataNames(read),
      () => readContent(c, query, read),
      pagingAttributes
    )
    const hidden = access?.view.hidden ?? NONE
    const requested = readProperties(query, operation.query?.properties)
    const selected = withDeclaredEmbeds(requested, resource.embedded, access?.view)
    const toMember = shapeMembers(
      hideFields((row: Row) => resource.toMember(row, base), hidden),
      selected,
      base,
      { links: resource.links, hydraPrefix: hydraPrefix !== false }
    )
    const responding = respondWithContent(c, content, toMember, render, {
      retryAfter: budget.retryAfter,
      outages,
      streamYield: options.streamYield,
      cacheControl: operation.cacheControl,
      logger: options.logger,
    })
    const { timing } = observation
    // A page's document is written here; a stream's, as its batches are read.
    const response =
      content.page && timing ? await timing.measure('serialize', responding) : await responding
    return withTimings(observation, response)
  } catch (error) {
    restyleRouteError(error, { base, hydraPrefix }, budget.retryAfter, outages)
  }
}

/** The names of a request's data access: its operation, engine and database. */
function dataNames<M, Row extends object, Where, C extends Context, FilterWhere, OrderBy>(
  read: ContentRead<M, Row, Where, C, FilterWhere, OrderBy>
) {
  const { operation, origin, options } = read
  const provided = options.provider ?? providerOf(options.providers, operation)
  const own = origin.kind === 'data' ? origin.access.engineOf(operation) : 'source'
  return {
    resource: operation.resource.name,
    operation: operation.name ?? 'collection',
    provider: operation.resource.provider,
    // A provider reads however it reads; a source given by hand is the app's own.
    engine: provided ? 'provider' : own,
  }
}

/** What one request of a collection operation is read with, besides its query. */
interface ContentRead<M, Row extends object, Where, C extends Context, FilterWhere, OrderBy> {
  /** The operation as the caller may use it. */
  operation: CollectionOperation<M, boolean>
  origin: RowOrigin<Row, Where>
  options: ServeCollectionOptions<Row, C, FilterWhere, OrderBy>
  access: CallerOperation<unknown> | undefined
  within: Record<string, unknown> | undefined
  base: string
  work: BoundWork
  observation: RouteObservation
}

/**
 * The content of one request: its rows selected (filters, order, cursor) and read through the
 * operation's source, or handed to the provider that replaces it.
 */
async function readContent<M, Row extends object, Where, C extends Context, FilterWhere, OrderBy>(
  c: C,
  query: QueryMap,
  read: ContentRead<M, Row, Where, C, FilterWhere, OrderBy>
): Promise<CollectionContent<Row>> {
  const { operation, origin, access, options } = read
  const { resource, paging } = operation
  // `operation` is the declared one, or a variant of it ({ ...operation, query }): same name.
  const provider = options.provider ?? providerOf(options.providers, operation)
  const selection = selectRows(
    query,
    operation,
    read.base,
    resource.provider,
    !provider,
    access?.scopeOf
  )
  // The relations the resource declares embedded are read by the same query as the page.
  const shape = withDeclaredEmbeds(selection.rows.properties, resource.embedded, access?.view)
  selection.rows.properties = shape
  const { filters, order } = selection.query
  const { orderBy } = selection.rows
  // A provider reads within the caller's scope too.
  const where =
    origin.kind === 'data'
      ? origin.access.where(selection.rows, callerOf(access))
      : selection.rows.where
  const reading = <W>(source: CollectionSource<Row, W>) =>
    readCollection(query, {
      source,
      paging,
      orderKey: selection.orderKey,
      cursor: selection.cursor,
      filterOperators: selection.filterOperators,
      provider:
        provider &&
        ((request) =>
          // The selection is built from the operation's spec, which the generator wrote from the
          // model: its where and orderBy are the model's Prisma inputs the provider is typed with.
          provider(
            request,
            c,
            {
              filters,
              order,
              where: where as FilterWhere | undefined,
              orderBy: orderBy as OrderBy[] | undefined,
            },
            snapshotOf(resource.provider, options.timeouts)
          )),
      batchSize: options.batchSize,
      database: resource.provider,
      work: read.work,
    })
  if (origin.kind === 'source') return reading(handSource(origin.source, operation, selection.rows))
  const { within, observation } = read
  const view = callerOf(access)
  return reading(origin.access.source(operation, selection.rows, view, within, observation.timing))
}
