/**
 * @module
 * A collection operation as one caller may use it (docs/security.md): the guards checked and the
 * scopes read by the data-access layer (caller-view.ts), the filters and orders the caller may not
 * use left out of the operation's query spec (so they are unknown parameters, and `hydra:search`
 * does not list them), and the scopes of the relations its filters go through.
 */
import type { Context } from 'hono'
import { type KeySpec, keyFields } from '../../contract/keys.js'
import { operationName } from '../../contract/operations.js'
import type { PropertySpec } from '../../contract/properties.js'
import type { CallerView } from '../../data/caller-view.js'
import type { DataAccess } from '../../data/data-access.js'
import { queryNames } from '../../filters/caller-spec.js'
import { declaredPages } from '../../filters/declared-embeds.js'
import type { RelationScope } from '../../filters/filter-conditions.js'
import type { OperationVariant, PreparedOperation } from '../../hydra/prepared-operation.js'
import { type CallerOptions, readingCaller } from './request-caller.js'

/** What a collection request of one caller reads with. */
export interface CallerOperation<M, P extends boolean> {
  /** What the caller may see of each model: the scopes, guards and hidden fields it reads with. */
  view: CallerView
  /** The operation as the caller may use it (the same value for the same kind of caller). */
  variant: OperationVariant<M, P>
  /** By relation path (`author`, `book.author`), the scope of the related rows the caller may see. */
  scopeOf: RelationScope | undefined
  /**
   * The resource's fields the caller may not see, as filters, orders and relations name them (a
   * renamed link by its Prisma field: `author` for `writer`).
   */
  hiddenFields: ReadonlySet<string>
}

const NONE: ReadonlySet<string> = new Set()

/**
 * The caller's view of a collection request, and the operation as the caller may use it; throws
 * a guard's 401 or 403 problem before any query runs. `parent` names a sub-collection's parent
 * (its model, and the link whose sub-collection it is).
 */
export async function callerOperation<M, P extends boolean, Row extends object>(
  c: Context,
  rows: DataAccess<Row>,
  options: CallerOptions,
  prepared: PreparedOperation<M, P>,
  parent?: { name: string; link?: string | undefined } | undefined
): Promise<CallerOperation<M, P>> {
  const { relations } = prepared
  const { operation } = prepared.declared
  const request = {
    model: operation.resource.name,
    operation: operationName(operation),
    related: [...new Set(relations.values())],
    pages: declaredPages(prepared.embedded),
    parent: parent?.name,
  }
  const view = await readingCaller(c, options, rows, request)
  if (!view.personal)
    return { view, variant: prepared.declared, scopeOf: undefined, hiddenFields: NONE }
  refuseHiddenKey(view.hidden, operation.resource)
  refuseShownWhere(view.shownWhere, operation.resource)
  for (const key of operation.paging.cursor ?? [])
    if (view.hidden.has(key.field) || view.shownWhere.has(key.field))
      throw new TypeError(`${operation.path}: ${key.field} orders its cursor and cannot be hidden`)
  // The operation's own order ranks every row by its value: beside the rows that show it, the
  // rows that do not would be bounded by their neighbours' values.
  for (const { field } of operation.order ?? [])
    if (view.shownWhere.has(field))
      throw new TypeError(
        `${operation.path}: ${field} orders the operation and cannot be shown on some rows only`
      )
  const partial = new Set<string>()
  for (const [relation, model] of relations) if (view.scopeOf(model)) partial.add(relation)
  const scopeOf: RelationScope = (relation) => {
    const model = relations.get(relation)
    return model === undefined ? undefined : view.scopeOf(model)
  }
  const hiddenFields = queryNames(view.hidden, operation.resource.links)
  // A field the related model hides is hidden through the relation too (`author.email`).
  const hidden = new Set(hiddenFields)
  const someRows = new Set(view.shownWhere.keys())
  for (const [relation, model] of relations) {
    for (const field of view.hiddenOf(model)) hidden.add(`${relation}.${field}`)
    for (const field of view.shownWhereOf(model).keys()) someRows.add(`${relation}.${field}`)
  }
  return { view, variant: prepared.variant(hidden, partial, someRows), scopeOf, hiddenFields }
}

/**
 * Throws when a `shownWhere` rule names a field of the items' key (in every `@id`) or a link (its
 * other side and its sub-collections would tell it on the rows it is not shown on): a
 * configuration error, answered as a 500 and logged, as a hidden key is.
 */
export function refuseShownWhere(
  shown: ReadonlyMap<string, unknown>,
  resource: { name: string; id: KeySpec; links?: readonly { name: string }[] | undefined }
): void {
  if (shown.size === 0) return
  for (const field of keyFields(resource.id))
    if (shown.has(field.name))
      throw new TypeError(
        `${resource.name}: ${field.name} is part of its items' key, written in every @id, and cannot be shown on some rows only`
      )
  for (const link of resource.links ?? [])
    if (shown.has(link.name))
      throw new TypeError(
        `${resource.name}: ${link.name} is a link, which shownWhere does not take: hide it with hidden, or scope the related rows`
      )
}

/**
 * The models an item's property filter embeds: the caller's view of an item request reads their
 * scopes and guards, as a collection's reads those of its relations.
 */
export const embeddedModels = (spec: PropertySpec | undefined): string[] => [
  ...new Set(spec?.properties.flatMap((property) => property.embed?.model ?? []) ?? []),
]

/**
 * Throws when a rule hides a field of the items' key: its value is written in every `@id`, where
 * no rule can hide it (docs/security.md). A configuration error, answered as a 500 and logged.
 */
export function refuseHiddenKey(
  hidden: ReadonlySet<string>,
  resource: { name: string; id: KeySpec }
): void {
  if (hidden.size === 0) return
  for (const field of keyFields(resource.id))
    if (hidden.has(field.name))
      throw new TypeError(
        `${resource.name}: ${field.name} is part of its items' key, written in every @id, and cannot be hidden`
      )
}
