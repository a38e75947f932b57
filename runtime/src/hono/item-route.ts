/**
 * @module
 * The route of one item: its member with the resource's context, or a 404 problem.
 */
import type { Context } from 'hono'
import type { DataAccess } from '../data/data-access.js'
import { databaseWork } from '../database/outage.js'
import { budgetOf, type DatabaseTimeouts } from '../database/timeouts.js'
import { HydraError } from '../errors.js'
import type { IdKind, Resource } from '../hydra/resource.js'
import { hideFields, refuseHiddenKey } from './caller-operation.js'
import { restyleRouteError } from './error-handlers.js'
import { type JsonLdResponse, jsonLd } from './json-ld.js'
import { mountPrefix, segmentFromEnd } from './location.js'
import { refuseUnacceptable } from './request-state.js'
import type { GuardProblems, ItemProblems, ProblemResponse } from './typed-responses.js'

/** The JSON-LD shape of an item: its member with the resource's context. */
export type HydraItem<M> = M & { '@context': string }

/**
 * Serves one item, or a 404 problem when the key is malformed, no row has it, or the caller may
 * not see it (the same answer: docs/security.md).
 */
export async function serveItem<M, K extends IdKind>(
  c: Context,
  resource: Resource<M, K>,
  rows: DataAccess<object>,
  options: { timeouts?: DatabaseTimeouts | undefined } = {}
): Promise<JsonLdResponse<HydraItem<M>> | ProblemResponse<boolean, ItemProblems | GuardProblems>> {
  const base = mountPrefix(c)
  const budget = budgetOf(options.timeouts)
  try {
    refuseUnacceptable(c)
    // The guards answer before any query.
    const view = await rows.caller(c, { model: resource.name, operation: 'item' })
    refuseHiddenKey(view.hidden, resource)
    const raw = c.req.param('id') ?? ''
    // An id that is no value of the key's column, or not written as the resource writes its
    // IRIs, names no item: a 404 without a query. The segment is read as the path has it, where
    // a value's encoded `;` or `=` is still encoded (a composite key's separators are not).
    const id = resource.parseId(segmentFromEnd(c.req.path, 1))
    const row =
      id === undefined ? null : await databaseWork(rows.item(id, view), budget.query, rows.outages)
    if (!row) throw new HydraError(404, `No ${resource.name} with id "${raw}".`)
    const member = hideFields(
      (found: object) => resource.toMember(found, base),
      view.hidden
    )(row) as Record<string, unknown>
    const item = { '@context': `${base}/contexts/${resource.name}`, ...member } as HydraItem<M>
    return jsonLd(c, item, member['@id'] as string, resource.cacheControl)
  } catch (error) {
    restyleRouteError(
      error,
      { base, hydraPrefix: resource.hydraPrefix },
      budget.retryAfter,
      rows.outages
    )
  }
}
