/**
 * @module
 * The route of a sub-collection (`/authors/3/books`): the items of a to-many relation of one
 * item, served as the related resource's collection operation (its paging, client controls,
 * filters, orders, views and errors) over the rows related to that item (docs/hydra.md#relations).
 */
import type { Context } from 'hono'
import { databaseWork } from '../database/outage.js'
import { budgetOf } from '../database/timeouts.js'
import { HydraError } from '../errors.js'
import type { HydraCollection } from '../hydra/collection.js'
import { type IdKind, type IdValue, parseItemId } from '../hydra/resource.js'
import {
  type CollectionOperation,
  type RowsOf,
  type ServeCollectionOptions,
  serveCollection,
} from './collection-route.js'
import { restyleRouteError } from './error-handlers.js'
import type { JsonLdResponse } from './json-ld.js'
import { mountPrefix } from './location.js'
import { refuseUnacceptable } from './request-state.js'
import { withoutRelation } from './sub-collection-query.js'

/** The item whose relation the sub-collection lists: how its key is read and how it is found. */
export interface SubCollectionParent<K extends IdKind> {
  /** The parent's model name, for the 404's detail. */
  name: string
  /** The kind of the parent's key, read from the path's `:id` as item routes read it. */
  id: K
  /** The datasource provider: keys are checked against what its columns store. */
  provider?: string | undefined
  /** The parent row, or null when there is none (→ 404). */
  find: (id: IdValue<K>) => Promise<object | null>
  /**
   * The target's to-one relation back to the parent (`publisher` under
   * `/publishers/:id/catalogue`): its filters and orders are left out of the sub-collection.
   */
  relation?: string | undefined
}

/**
 * Serves the sub-collection of the parent named by the path's `:id`: a 404 problem when the key
 * is malformed or no parent has it (as the parent's item route answers), else the operation's
 * collection of the rows `rows(id)` reads (the related rows, narrowed by the request's filters).
 */
export async function serveSubCollection<
  M,
  Row extends object,
  Where,
  K extends IdKind,
  P extends boolean = true,
>(
  c: Context,
  parent: SubCollectionParent<K>,
  operation: CollectionOperation<M, P>,
  rows: (id: IdValue<K>) => RowsOf<Row, Where>,
  options: Omit<ServeCollectionOptions<Row>, 'provider'> = {}
): Promise<JsonLdResponse<HydraCollection<M, P>>> {
  const id = await parentKey(c, parent, operation.hydraPrefix, options)
  const scoped = parent.relation ? withoutRelation(operation, parent.relation) : operation
  return serveCollection(c, scoped, rows(id), options)
}

/** The key of the path's parent, or a 404 problem in the operation's style. */
async function parentKey<K extends IdKind>(
  c: Context,
  parent: SubCollectionParent<K>,
  hydraPrefix: boolean | undefined,
  options: Pick<ServeCollectionOptions<object>, 'timeouts'>
): Promise<IdValue<K>> {
  const budget = budgetOf(options.timeouts)
  try {
    refuseUnacceptable(c)
    const raw = c.req.param('id') ?? ''
    // A key no item can have is a 404 without a query, as on the item route.
    const id = parseItemId(parent.id, raw, parent.provider)
    const row = id === undefined ? null : await databaseWork(parent.find(id), budget.query)
    if (!row || id === undefined) throw new HydraError(404, `No ${parent.name} with id "${raw}".`)
    return id
  } catch (error) {
    restyleRouteError(error, { base: mountPrefix(c), hydraPrefix }, budget.retryAfter)
  }
}
