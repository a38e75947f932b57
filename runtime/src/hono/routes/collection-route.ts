/**
 * @module
 * The route of a generated collection operation: the paging decision (paging/strategy.ts) over
 * the operation's Prisma source, rendered as a Hydra collection.
 */

import type { Context } from 'hono'
import { type CollectionOperation, operationName } from '../../contract/operations.js'
import type { DataAccess } from '../../data/data-access.js'
import type { ParentRows } from '../../data/parent-check.js'
import { outageLogOf } from '../../data/read-routing.js'
import { budgetOf } from '../../database/timeouts.js'
import { caselessOperation } from '../../filters/caseless-search.js'
import type { HydraCollection } from '../../hydra/collection.js'
import { type PreparedOperation, prepareOperation } from '../../hydra/prepared-operation.js'
import type { OperationsOptions } from '../../observe/options.js'
import { type CallerOperation, callerOperation } from '../access/caller-operation.js'
import { mountPrefix } from '../request/location.js'
import { refuseUnacceptable } from '../request/request-state.js'
import { isSearchProbe, searchProbeAnswer } from '../request/search-probe.js'
import { isTextSearch, TEXT_SEARCH_CACHE_CONTROL } from '../request/text-search.js'
import { renderOptions, requestQuery, respondWithContent } from '../response/collection-response.js'
import { restyleRouteError } from '../response/error-handlers.js'
import type { JsonLdResponse } from '../response/json-ld.js'
import {
  type ContentRead,
  dataNames,
  type RowOrigin,
  readContent,
  type ServeCollectionOptions,
  type SourceOf,
  varyByCount,
} from './collection-content.js'
import {
  boundWork,
  inDataAccess,
  inOperation,
  observeRoute,
  pagingAttributes,
  type RouteObservation,
  readInSpan,
  withTimings,
} from './route-observation.js'
import type { CollectionProblems, GuardProblems, ProblemResponse } from './typed-responses.js'

/**
 * A sub-collection's parent condition, the caller's operation read with it, and the request's
 * observation (its operation's span already open).
 */
export interface WithinParent<M, P extends boolean> {
  /** The rows of the parent, and the check of the parent the page reads with them. */
  within: ParentRows
  /** The operation as the caller may use it, read with the parent. */
  access: CallerOperation<M, P>
  /** The request's observation. */
  observation: RouteObservation
}

/** What a collection route answers: its document, or a problem. */
type CollectionAnswer<M, P extends boolean> =
  | JsonLdResponse<HydraCollection<M, P>>
  | ProblemResponse<P, CollectionProblems | GuardProblems>

/**
 * The route of a generated collection operation over its resource's data access, prepared once
 * (hydra/prepared-operation.ts): each request reads the paging parameters, fetches (through the
 * operation's source, or the provider that replaces it), renders. Unpaged requests are streamed,
 * read in batches (docs/paging.md#d5). The request is its operation's span.
 */
export function collectionRoute<
  M,
  Row extends object,
  P extends boolean = true,
  C extends Context = Context,
  FilterWhere = Record<string, unknown>,
  OrderBy = Record<string, unknown>,
>(
  declared: CollectionOperation<M, P>,
  rows: DataAccess<Row>,
  options: ServeCollectionOptions<Row, C, FilterWhere, OrderBy> = {}
): (c: C) => Promise<CollectionAnswer<M, P>> {
  const prepared = prepareOperation(declared, operationName(declared))
  const origin = { kind: 'data', access: rows } as const
  rows.reportHandoffs(declared, {
    name: `GET ${declared.path}`,
    query: declared.query,
    embedded: prepared.embedded,
  })
  return (c) =>
    inCollectionSpan(declared, options, undefined, (observation) =>
      collectionResponse(c, prepared, origin, options, undefined, observation)
    )
}

/**
 * Serves one request of a generated collection operation, as its route (collectionRoute) does; the
 * operation is prepared anew for the request, which a route made once saves.
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
  options: ServeCollectionOptions<Row, C, FilterWhere, OrderBy> = {}
): Promise<CollectionAnswer<M, P>> {
  return collectionRoute(declared, rows, options)(c)
}

/**
 * Serves one page of a sub-collection's operation, prepared once by its route
 * (sub-collection-route.ts), within its parent's rows and span.
 */
export function serveWithinParent<M, Row extends object, P extends boolean>(
  c: Context,
  prepared: PreparedOperation<M, P>,
  rows: DataAccess<Row>,
  options: ServeCollectionOptions<Row>,
  parent: WithinParent<M, P>
): Promise<CollectionAnswer<M, P>> {
  const origin = { kind: 'data', access: rows } as const
  return collectionResponse(c, prepared, origin, options, parent, parent.observation)
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
  const prepared = prepareOperation(declared, operationName(declared))
  return inCollectionSpan(declared, options, undefined, (observation) =>
    collectionResponse(c, prepared, origin, options, undefined, observation)
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
  const names = { resource: declared.resource.name, operation: operationName(declared) }
  return inOperation(observation, names, () => respond(observation))
}

/** A request of a collection operation within its operation's span. */
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
  prepared: PreparedOperation<M, P>,
  origin: RowOrigin<Row, Where>,
  options: ServeCollectionOptions<Row, C, FilterWhere, OrderBy>,
  parent: WithinParent<M, P> | undefined,
  observation: RouteObservation
): Promise<CollectionAnswer<M, P>> {
  const base = mountPrefix(c)
  const { resource, paging, hydraPrefix } = prepared.declared.operation
  const budget = budgetOf(options.timeouts)
  const outages = origin.kind === 'data' ? origin.access.outages : outageLogOf(origin.source)
  varyByCount(c, origin, options, prepared.declared.operation)
  try {
    refuseUnacceptable(c)
    // The caller first: a guard refuses before any query, and what the caller may not filter or
    // order by is unknown to it (the operation as the caller may use it).
    const access =
      parent?.access ??
      (origin.kind === 'data'
        ? await callerOperation(c, origin.access, options, prepared)
        : undefined)
    const variant = access?.variant ?? prepared.declared
    const { operation } = variant
    const query = requestQuery(c)
    const context = `${base}/contexts/${resource.name}`
    const render = renderOptions(c, query, paging.parameters, context, hydraPrefix)
    if (options.path !== undefined) render.path = options.path
    if (isSearchProbe(c)) return searchProbeAnswer(c, variant, render.path)
    const read: ContentRead<M, Row, Where, C, FilterWhere, OrderBy> = {
      operation: isTextSearch(c) ? caselessOperation(operation) : operation,
      origin,
      options,
      access,
      within: parent?.within,
      embedded: prepared.embedded,
      base,
      work: boundWork(observation, budget.query, outages, resource.provider, c.req.raw),
      observation,
    }
    const { content, shape } = await inDataAccess(
      observation,
      dataNames(read),
      async () => {
        const { content, shape } = await readContent(c, query, read)
        return { content: readInSpan(observation, content), shape }
      },
      (read) => pagingAttributes(read.content)
    )
    const toMember = (row: Row) => shape.write(row)
    const streamOptions = {
      outages,
      streamYield: options.streamYield,
      cacheControl: isTextSearch(c) ? TEXT_SEARCH_CACHE_CONTROL : operation.cacheControl,
      logger: options.logger,
    }
    const respond = () => respondWithContent(c, content, toMember, render, streamOptions, variant)
    const { timing } = observation
    // A page's document is written by the call itself, before it returns, so the timer is
    // around the call; a stream's is written as its batches are read, after this.
    const response = await (content.page && timing ? timing.time('serialize', respond) : respond())
    return withTimings(observation, response)
  } catch (error) {
    restyleRouteError(error, { base, hydraPrefix }, budget.retryAfter, outages)
  }
}
