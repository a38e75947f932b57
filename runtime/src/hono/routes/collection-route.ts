/**
 * @module
 * The route of a generated collection operation: the paging decision (paging/strategy.ts) over
 * the operation's Prisma source, rendered as a Hydra collection.
 */
import type { Context } from 'hono'
import { type CollectionOperation, operationName } from '../../contract/operations.js'
import type { DataAccess } from '../../data/data-access.js'
import { outageLogOf } from '../../data/read-routing.js'
import { budgetOf } from '../../database/timeouts.js'
import type { HydraCollection } from '../../hydra/collection.js'
import { shapeMembers } from '../../hydra/member-shape.js'
import { collectionSearch } from '../../hydra/search.js'
import type { OperationsOptions } from '../../observe/options.js'
import { type CallerOperation, callerOperation, hideFields } from '../access/caller-operation.js'
import { mountPrefix } from '../request/location.js'
import { refuseUnacceptable } from '../request/request-state.js'
import { renderOptions, requestQuery, respondWithContent } from '../response/collection-response.js'
import { restyleRouteError } from '../response/error-handlers.js'
import { asJsonLd, type JsonLdResponse } from '../response/json-ld.js'
import {
  type ContentRead,
  dataNames,
  providerOf,
  type RowOrigin,
  readContent,
  type ServeCollectionOptions,
  type SourceOf,
} from './collection-content.js'
import { type PlainPage, plainPageOf } from './plain-page.js'
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
export interface WithinParent<O> {
  within: Record<string, unknown>
  access: CallerOperation<O>
  observation: RouteObservation
  /** The sub-collection's name, which chooses its declared embeds (`Book.loans`). */
  name: string
}

const NONE: ReadonlySet<string> = new Set()

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

/**
 * Each operation's page writers over each data access, by the name its declared embeds are
 * chosen by (null: it has none).
 */
const plainPages = new WeakMap<object, WeakMap<object, Map<string, PlainPage | null>>>()

/**
 * The page writer of `operation` over `rows` (plain-page.ts) as `declaredAs` (the operation's
 * name, or a sub-collection's), unless the app `replaced` what it would read or write (a custom
 * provider, the collection's path).
 */
function plainPageFor<M, Row extends object>(
  operation: CollectionOperation<M, boolean>,
  rows: DataAccess<Row>,
  declaredAs: string,
  replaced: boolean
): PlainPage | undefined {
  if (replaced) return undefined
  let known = plainPages.get(operation)
  if (!known) {
    known = new WeakMap()
    plainPages.set(operation, known)
  }
  let byName = known.get(rows)
  if (!byName) {
    byName = new Map()
    known.set(rows, byName)
  }
  let plain = byName.get(declaredAs)
  if (plain === undefined) {
    const search = (path: string) => searchOf(operation, path)
    plain = plainPageOf(operation, rows, search, declaredAs) ?? null
    byName.set(declaredAs, plain)
  }
  return plain ?? undefined
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
  const names = { resource: declared.resource.name, operation: operationName(declared) }
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
    const declaredAs = parent?.name ?? operationName(declared)
    const within = parent?.within
    if (access && origin.kind === 'data') {
      // A sub-collection's path writes its parent's key as the parent's IRI does: the writer
      // answers the requests that spell it so (the others get a canonical link).
      const ownPath = parent ? options.path === c.req.path : options.path === undefined
      const replaced = !ownPath || providerOf(options, declared) !== undefined
      // The operation as the caller may use it: its `hydra:search` names only what they may use.
      const plain = plainPageFor(access.operation, origin.access, declaredAs, replaced)
      const answer = plain?.({ c, view: access.view, within, base, budget, observation })
      if (answer) return asJsonLd<HydraCollection<M, P>>(await answer)
    }
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
      within,
      declaredAs,
      base,
      work: boundWork(observation, budget.query, outages),
      observation,
    }
    const { content, properties } = await inDataAccess(
      observation,
      dataNames(read),
      async () => {
        const { content, properties } = await readContent(c, query, read)
        return { content: readInSpan(observation, content), properties }
      },
      (read) => pagingAttributes(read.content)
    )
    const hidden = access?.view.hidden ?? NONE
    const toMember = shapeMembers(
      hideFields((row: Row) => resource.toMember(row, base), hidden),
      properties,
      base,
      { links: resource.links, hydraPrefix: hydraPrefix !== false }
    )
    const respond = () =>
      respondWithContent(c, content, toMember, render, {
        outages,
        streamYield: options.streamYield,
        cacheControl: operation.cacheControl,
        logger: options.logger,
      })
    const { timing } = observation
    // A page's document is written by the call itself, before it returns, so the timer is
    // around the call; a stream's is written as its batches are read, after this.
    const response = await (content.page && timing ? timing.time('serialize', respond) : respond())
    return withTimings(observation, response)
  } catch (error) {
    restyleRouteError(error, { base, hydraPrefix }, budget.retryAfter, outages)
  }
}
