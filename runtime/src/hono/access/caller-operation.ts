/**
 * @module
 * A collection operation as one caller may use it (docs/security.md): the guards checked and the
 * scopes read by the data-access layer (caller-view.ts), the filters and orders the caller may not
 * use left out of the operation's query spec (so they are unknown parameters, and `hydra:search`
 * does not list them), and the scopes of the relations its filters go through.
 */
import type { Context } from 'hono'
import { type KeySpec, keyFields } from '../../contract/keys.js'
import { type CollectionOperation, operationName } from '../../contract/operations.js'
import type { DeclaredEmbed, PropertySpec } from '../../contract/properties.js'
import type { CallerView } from '../../data/caller-view.js'
import type { DataAccess } from '../../data/data-access.js'
import { callerSpec, queryNames, relatedModels } from '../../filters/caller-spec.js'
import { declaredFor, declaredPages, subCollectionName } from '../../filters/declared-embeds.js'
import { callerProperties, relationOf } from '../../filters/properties.js'
import type { RelationScope } from '../../filters/where.js'
import { type CallerOptions, requestCaller } from './request-caller.js'

/** What a collection request of one caller reads with. */
export interface CallerOperation<O> {
  view: CallerView
  /** The operation with the query spec the caller may use (the same object for the same kind). */
  operation: O
  /** By relation path (`author`, `book.author`), the scope of the related rows the caller may see. */
  scopeOf: RelationScope | undefined
  /**
   * The resource's fields the caller may not see, as filters, orders and relations name them (a
   * renamed link by its Prisma field: `author` for `writer`).
   */
  hiddenFields: ReadonlySet<string>
}

const NONE: ReadonlySet<string> = new Set()

/** Each operation's caller variants, by their query spec. */
const variants = new WeakMap<object, WeakMap<object, object>>()

/**
 * The caller's view of a collection request, and the operation as the caller may use it; throws
 * a guard's 401 or 403 problem before any query runs. `parent` names a sub-collection's parent
 * (its model, and the link whose sub-collection it is).
 */
export async function callerOperation<O extends CollectionOperation<unknown>, Row extends object>(
  c: Context,
  rows: DataAccess<Row>,
  options: CallerOptions,
  operation: O,
  parent?: { name: string; link?: string | undefined } | undefined
): Promise<CallerOperation<O>> {
  // The relations this operation (or sub-collection) declares embedded: their models' rules too.
  const embedded = declaredFor(operation.resource.embedded, subCollectionName(parent, operation))
  const relations = withEmbedded(relatedModels(operation.query), embedded)
  const request = {
    model: operation.resource.name,
    operation: operationName(operation),
    related: [...new Set(relations.values())],
    pages: declaredPages(embedded),
    parent: parent?.name,
  }
  const view = rows.caller(await requestCaller(c, options, request), request)
  if (!view.personal) return { view, operation, scopeOf: undefined, hiddenFields: NONE }
  refuseHiddenKey(view.hidden, operation.resource)
  for (const key of operation.paging.cursor ?? [])
    if (view.hidden.has(key.field))
      throw new TypeError(`${operation.path}: ${key.field} orders its cursor and cannot be hidden`)
  const partial = new Set<string>()
  for (const [relation, model] of relations) if (view.scopeOf(model)) partial.add(relation)
  const scopeOf: RelationScope = (relation) => {
    const model = relations.get(relation)
    return model === undefined ? undefined : view.scopeOf(model)
  }
  const hiddenFields = queryNames(view.hidden, operation.resource.links)
  // A field the related model hides is hidden through the relation too (`author.email`).
  const hidden = new Set(hiddenFields)
  for (const [relation, model] of relations)
    for (const field of view.hiddenOf(model)) hidden.add(`${relation}.${field}`)
  const spec = operation.query && callerSpec(operation.query, hidden, partial)
  if (!spec || spec === operation.query) return { view, operation, scopeOf, hiddenFields }
  let known = variants.get(operation)
  if (!known) {
    known = new WeakMap()
    variants.set(operation, known)
  }
  let variant = known.get(spec) as O | undefined
  if (!variant) {
    variant = { ...operation, query: spec }
    known.set(spec, variant)
  }
  return { view, operation: variant, scopeOf, hiddenFields }
}

/** The relations a request reads through, with those the resource declares embedded. */
function withEmbedded(
  relations: ReadonlyMap<string, string>,
  embedded: readonly DeclaredEmbed[] | undefined
): ReadonlyMap<string, string> {
  if (!embedded || embedded.length === 0) return relations
  const all = new Map(relations)
  for (const property of embedded) all.set(relationOf(property), property.embed.model)
  return all
}

/**
 * The models an item's property filter embeds: the caller's view of an item request reads their
 * scopes and guards, as a collection's reads those of its relations.
 */
export const embeddedModels = (spec: PropertySpec | undefined): string[] => [
  ...new Set(spec?.properties.flatMap((property) => property.embed?.model ?? []) ?? []),
]

/**
 * An item's property filter as the caller may use it (docs/security.md): without the resource's
 * fields the caller may not see, nor the fields of an embedded model that model's rules hide.
 */
export function callerItemProperties(
  spec: PropertySpec | undefined,
  view: CallerView,
  links: readonly { name: string; field?: string | undefined }[] | undefined
): PropertySpec | undefined {
  if (!spec || !view.personal) return spec
  const hidden = new Set(queryNames(view.hidden, links))
  for (const property of spec.properties)
    if (property.embed)
      for (const field of view.hiddenOf(property.embed.model))
        hidden.add(`${relationOf(property)}.${field}`)
  return hidden.size === 0 ? spec : callerProperties(spec, hidden)
}

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

/** Members without the fields the caller may not see. */
export function hideFields<R, M>(
  toMember: (row: R) => M,
  hidden: ReadonlySet<string>
): (row: R) => M {
  if (hidden.size === 0) return toMember
  return (row) => {
    const member = toMember(row) as Record<string, unknown>
    for (const field of hidden) delete member[field]
    return member as M
  }
}
