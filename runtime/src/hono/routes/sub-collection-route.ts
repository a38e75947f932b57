/**
 * @module
 * The route of a sub-collection (`/authors/3/books`): the items of a to-many relation of one
 * item, served as the related resource's collection operation (its paging, client controls,
 * filters, orders, views and errors) over the rows related to that item (docs/hydra.md#relations).
 */

import type { Context } from 'hono'
import type { IdKind, IdValue, KeySpec } from '../../contract/keys.js'
import type { RelationSource } from '../../contract/model-source.js'
import type { CollectionOperation } from '../../contract/operations.js'
import type { DataAccess } from '../../data/data-access.js'
import type { ParentRows } from '../../data/parent-check.js'
import { budgetOf } from '../../database/timeouts.js'
import { HydraError, isHydraError } from '../../errors.js'
import { subCollectionName } from '../../filters/declared-embeds.js'
import { withoutRelation } from '../../filters/without-relation.js'
import type { HydraCollection } from '../../hydra/collection.js'
import { keySegment, readKeySegment } from '../../hydra/item-key.js'
import { type PreparedOperation, prepareOperation } from '../../hydra/prepared-operation.js'
import { type CallerOperation, callerOperation } from '../access/caller-operation.js'
import { varyByPrefer } from '../request/count-preference.js'
import { mountPrefix, segmentFromEnd } from '../request/location.js'
import { refuseUnacceptable } from '../request/request-state.js'
import { isSearchProbe, searchProbeAnswer } from '../request/search-probe.js'
import { restyleRouteError } from '../response/error-handlers.js'
import type { JsonLdResponse } from '../response/json-ld.js'
import type { ServeCollectionOptions } from './collection-content.js'
import { serveWithinParent } from './collection-route.js'
import { boundWork, inOperation, observeRoute, type RouteObservation } from './route-observation.js'
import type { GuardProblems, ProblemResponse, SubCollectionProblems } from './typed-responses.js'

/** What a sub-collection route answers: its document, or a problem. */
type SubCollectionAnswer<M, P extends boolean> =
  | JsonLdResponse<HydraCollection<M, P>>
  | ProblemResponse<P, SubCollectionProblems | GuardProblems>

/**
 * The route of the sub-collection of the parent named by the path's `:id`, prepared once: a 404
 * problem when the key is malformed or no parent has it (as the parent's item route answers),
 * else the operation's collection of the rows related to it (narrowed by the request's filters).
 */
export function subCollectionRoute<M, Row extends object, P extends boolean = true>(
  rows: DataAccess<Row>,
  relation: RelationSource<KeySpec>,
  operation: CollectionOperation<M, P>,
  options: Omit<ServeCollectionOptions<Row>, 'provider' | 'providers'> = {}
): (c: Context) => Promise<SubCollectionAnswer<M, P>> {
  const { parent } = relation
  const { key } = parent
  // Every row has this parent: filters and orders on the relation to it are left out.
  const back = relation.relation
  const { query } = operation
  const scoped = back && query ? { ...operation, query: withoutRelation(query, back) } : operation
  // Its declared embeds are those of the sub-collection's own name (`Book.loans`).
  const prepared = prepareOperation(scoped, subCollectionName(parent, operation))
  rows.reportHandoffs(operation, {
    name: `${parent.name}.${parent.link ?? operation.resource.name}`,
    query: scoped.query,
    embedded: prepared.embedded,
    relation,
  })
  // The operation's span names the parent's link: `hydra Author.books`.
  const names = { resource: parent.name, operation: parent.link ?? operation.resource.name }
  return async (c) => {
    const observation = await observeRoute(options)
    return inOperation(observation, names, async () => {
      const parentOptions = { ...options, observation }
      // A probe asks what the caller may query, whatever the parent: its guards answer first.
      if (isSearchProbe(c)) {
        const { variant } = await inParentStyle(c, rows, prepared, parentOptions, () =>
          callerOperation(c, rows, parentOptions, prepared, relation.parent)
        )
        return searchProbeAnswer(c, variant, c.req.path)
      }
      const [id, within, access] = await parentRows(c, rows, relation, prepared, parentOptions)
      // The collection's IRI names the parent as its own IRI does (one encoding, whatever the
      // client sent): `/users/a%2Fb%20c/sessions`, never a decoded space.
      const path = c.req.path.split('/')
      path[path.length - 2] = keySegment(key, keyRow(key, id))
      // The resource's providers replace its own operations' queries, not a sub-collection's.
      const own = { ...options, providers: undefined, path: path.join('/') }
      try {
        return await serveWithinParent(c, prepared, rows, own, { within, access, observation })
      } catch (error) {
        // A request refused for its query (a 400) before its parent was read: a missing
        // parent's 404 is the answer, whatever the query says.
        if (isHydraError(error) && error.status < 500 && error.status !== 404) {
          const { query } = budgetOf(options.timeouts)
          const database = operation.resource.provider
          const work = boundWork(observation, query, rows.outages, database, c.req.raw)
          await inParentStyle(c, rows, prepared, parentOptions, () =>
            work(() => within.parent.confirm())
          )
        }
        throw error
      }
    })
  }
}

/**
 * Serves one request of a sub-collection, as its route (subCollectionRoute) does; the operation
 * is prepared anew for the request, which a route made once saves.
 */
export function serveSubCollection<M, Row extends object, P extends boolean = true>(
  c: Context,
  rows: DataAccess<Row>,
  relation: RelationSource<KeySpec>,
  operation: CollectionOperation<M, P>,
  options: Omit<ServeCollectionOptions<Row>, 'provider' | 'providers'> = {}
): Promise<SubCollectionAnswer<M, P>> {
  return subCollectionRoute(rows, relation, operation, options)(c)
}

/** The options the parent's reads take. */
type ParentOptions = Pick<
  ServeCollectionOptions<object>,
  'timeouts' | 'access' | 'authentication' | 'cacheTags'
> & { observation: RouteObservation }

/**
 * The parent's key, its rows with the check of the parent (read with the page) and the caller's
 * operation, or a 404 problem in the operation's style (a parent the caller may not see is one no
 * item has).
 */
async function parentRows<Row extends object, M, P extends boolean>(
  c: Context,
  rows: DataAccess<Row>,
  relation: RelationSource<KeySpec>,
  prepared: PreparedOperation<M, P>,
  options: ParentOptions
): Promise<[IdValue<IdKind>, ParentRows, CallerOperation<M, P>]> {
  const { operation } = prepared.declared
  // A sub-collection's rows are the generated source's, whose totals the client may choose.
  varyByPrefer(c, operation.paging)
  return inParentStyle(c, rows, prepared, options, async () => {
    refuseUnacceptable(c)
    const { key, name } = relation.parent
    // The guards of the collection and of the parent's item answer before any query.
    const access = await callerOperation(c, rows, options, prepared, relation.parent)
    const raw = c.req.param('id') ?? ''
    // A key no item can have is a 404 without a query, as on the item route.
    const id = readKeySegment(key, segmentFromEnd(c.req.path, 2), operation.resource.provider)
    // Listing the rows of one parent tells their link to it: a caller the rows' resource hides
    // that link from (`hidden: ['author']`, renamed or not; a many-to-many's `shelves`), or the
    // parent its link to them (`hidden: ['books']`), gets the 404 of a missing parent.
    const { condition } = relation
    const back = condition.kind === 'some' ? condition.field : relation.relation
    const linkHidden =
      (back !== undefined && access.hiddenFields.has(back)) ||
      (relation.parent.link !== undefined && access.view.hiddenOf(name).has(relation.parent.link))
    const missing = () => new HydraError(404, `No ${name} with id "${raw}".`)
    const within =
      id === undefined || linkHidden ? undefined : rows.within(relation, id, access.view, missing)
    if (id === undefined || !within) throw missing()
    return [id, within, access]
  })
}

/** `step`, a part of the parent's check, its errors in the operation's style. */
async function inParentStyle<T, Row extends object, M, P extends boolean>(
  c: Context,
  rows: DataAccess<Row>,
  prepared: PreparedOperation<M, P>,
  options: ParentOptions,
  step: () => Promise<T>
): Promise<T> {
  const budget = budgetOf(options.timeouts)
  const { operation } = prepared.declared
  try {
    return await step()
  } catch (error) {
    restyleRouteError(
      error,
      { base: mountPrefix(c), hydraPrefix: operation.hydraPrefix },
      budget.retryAfter,
      rows.outages
    )
  }
}

/** The key's value as the columns of a row, as keySegment reads them. */
function keyRow(key: KeySpec, id: unknown): Record<string, unknown> {
  return key.kind === 'Composite' ? (id as Record<string, unknown>) : { [key.name]: id }
}
