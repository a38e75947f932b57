/**
 * @module
 * The route of one item: its member with the resource's context, or a 404 problem. An item whose
 * model declares the property filter shows the properties a request selects and embeds the
 * relations it names (docs/member-shape.md), as its collection does.
 */
import type { Context } from 'hono'
import type { IdKind } from '../../contract/keys.js'
import type { PropertySpec } from '../../contract/properties.js'
import type { Resource } from '../../contract/resource.js'
import type { DataAccess } from '../../data/data-access.js'
import { budgetOf, type DatabaseTimeouts } from '../../database/timeouts.js'
import { HydraError } from '../../errors.js'
import { declaredFor, declaredModels, declaredPages } from '../../filters/declared-embeds.js'
import { itemShape } from '../../hydra/member-shape.js'
import type { OperationsOptions } from '../../observe/options.js'
import { embeddedModels, refuseHiddenKey, refuseShownWhere } from '../access/caller-operation.js'
import { type CallerOptions, noteLinkedRows, readingCaller } from '../access/request-caller.js'
import { mountPrefix, segmentFromEnd } from '../request/location.js'
import { refuseUnacceptable } from '../request/request-state.js'
import { requestQuery } from '../response/collection-response.js'
import { restyleRouteError } from '../response/error-handlers.js'
import { type JsonLdResponse, jsonLd } from '../response/json-ld.js'
import {
  boundWork,
  inDataAccess,
  inOperation,
  observeRoute,
  type RouteObservation,
  withTimings,
} from './route-observation.js'
import type { GuardProblems, ItemProblems, ProblemResponse } from './typed-responses.js'

/** The JSON-LD shape of an item: its member with the resource's context. */
export type HydraItem<M> = M & {
  /** The IRI of the resource's context (`/contexts/Book`). */
  '@context': string
}

/** The 400 of a malformed selection, answered by items whose model declares a property filter. */
type SelectionProblems<P> = [P] extends [PropertySpec] ? 400 : never

/** What an item route answers: the item, or a problem. */
type ItemAnswer<M, P> =
  | JsonLdResponse<HydraItem<M>>
  | ProblemResponse<boolean, ItemProblems | GuardProblems | SelectionProblems<P>>

/** Options of an item route: the app's access rules, time budgets and operations. */
interface ItemOptions extends CallerOptions, OperationsOptions {
  /** Time budgets of the item's database work (docs/deployment.md#timeouts). */
  timeouts?: DatabaseTimeouts | undefined
}

/** What an item route works out once: the relations it declares embedded and the models it reads. */
interface PreparedItem {
  declared: ReturnType<typeof declaredFor>
  related: string[]
  pages: string[]
}

/**
 * The route of one item, prepared once: the item, or a 404 problem when the key is malformed, no
 * row has it, or the caller may not see it (the same answer: docs/security.md). Each request is
 * its operation's span.
 */
export function itemRoute<M, K extends IdKind, P = undefined>(
  resource: Resource<M, K> & { properties?: P },
  rows: DataAccess<object>,
  options: ItemOptions = {}
): (c: Context) => Promise<ItemAnswer<M, P>> {
  const declared = declaredFor(resource.embedded, 'item')
  const related = [
    ...new Set([...embeddedModels(resource.properties), ...declaredModels(declared)]),
  ]
  const prepared = { declared, related, pages: declaredPages(declared) }
  const names = { resource: resource.name, operation: 'item' }
  rows.reportHandoffs(undefined, {
    name: `GET ${resource.collectionPath}/{id}`,
    embedded: declared,
    item: true,
  })
  return async (c) => {
    const observation = await observeRoute(options)
    return inOperation(observation, names, () =>
      itemResponse(c, resource, rows, options, prepared, observation)
    )
  }
}

/**
 * Serves one item, as its route (itemRoute) does; the route is prepared anew for the request,
 * which a route made once saves.
 */
export function serveItem<M, K extends IdKind, P = undefined>(
  c: Context,
  resource: Resource<M, K> & { properties?: P },
  rows: DataAccess<object>,
  options: ItemOptions = {}
): Promise<ItemAnswer<M, P>> {
  return itemRoute(resource, rows, options)(c)
}

/** An item's request within its operation's span. */
async function itemResponse<M, K extends IdKind>(
  c: Context,
  resource: Resource<M, K>,
  rows: DataAccess<object>,
  options: CallerOptions & { timeouts?: DatabaseTimeouts | undefined },
  { declared, related, pages }: PreparedItem,
  observation: RouteObservation
): Promise<JsonLdResponse<HydraItem<M>> | ProblemResponse<boolean, ItemProblems | GuardProblems>> {
  const base = mountPrefix(c)
  const budget = budgetOf(options.timeouts)
  try {
    refuseUnacceptable(c)
    // The guards answer before any query; the models the item may embed are read with them.
    const request = { model: resource.name, operation: 'item', related, pages }
    const view = await readingCaller(c, options, rows, request)
    refuseHiddenKey(view.hidden, resource)
    refuseShownWhere(view.shownWhere, resource)
    // A selection names only what the caller may see: anything else is a 400 before any query.
    const shape = itemShape(resource, requestQuery(c), view, declared, base)
    const raw = c.req.param('id') ?? ''
    // An id that is no value of the key's column, or not written as the resource writes its
    // IRIs, names no item: a 404 without a query. The segment is read as the path has it, where
    // a value's encoded `;` or `=` is still encoded (a composite key's separators are not).
    const id = resource.parseId(segmentFromEnd(c.req.path, 1))
    const work = boundWork(observation, budget.query, rows.outages, resource.provider, c.req.raw)
    const data = { resource: resource.name, operation: 'item', provider: resource.provider }
    const row =
      id === undefined
        ? null
        : await inDataAccess(
            observation,
            { ...data, engine: rows.engineOf() },
            () => work(() => rows.item(id, view, shape.selection, observation.timing)),
            (found) => ({ 'hydra.items': found ? 1 : 0 })
          )
    if (!row) throw new HydraError(404, `No ${resource.name} with id "${raw}".`)
    noteLinkedRows(c, rows.linkedRows?.(resource.links, row) ?? [])
    const write = () => {
      const member = shape.write(row) as Record<string, unknown>
      const item = { '@context': `${base}/contexts/${resource.name}`, ...member } as HydraItem<M>
      return jsonLd(c, item, member['@id'] as string, resource.cacheControl)
    }
    const { timing } = observation
    return withTimings(observation, timing ? timing.time('serialize', write) : write())
  } catch (error) {
    restyleRouteError(
      error,
      { base, hydraPrefix: resource.hydraPrefix },
      budget.retryAfter,
      rows.outages
    )
  }
}
