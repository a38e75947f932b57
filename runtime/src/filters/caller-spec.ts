/**
 * @module
 * What one caller may filter, order by and select (docs/security.md): an operation's QuerySpec
 * without the caller's hidden fields, and without orders through a relation whose rows the caller sees
 * only in part (an order cannot leave out related rows the caller cannot see, so it could rank
 * rows by them). What is left out is an unknown parameter for that caller, as an undeclared one.
 */

import type { QuerySpec, RelatedField, Through } from '../contract/query.js'
import { callerProperties, relationOf } from './properties.js'
import { relationHops } from './relation-path.js'

const NONE: ReadonlySet<string> = new Set()

/**
 * By relation path (`author`; `book` and `book.author` for `book.author.name`), the model its
 * filters and orders reach (`Author`).
 */
export function relatedModels(spec: QuerySpec | undefined): ReadonlyMap<string, string> {
  const found = new Map<string, string>()
  if (!spec) return found
  const add = ({ through }: Through) => {
    if (!through) return
    for (const hop of relationHops(through)) if (hop.model) found.set(hop.path, hop.model)
  }
  for (const filter of spec.filters) {
    add(filter)
    if (filter.kind === 'search' && filter.relation?.model)
      found.set(filter.field, filter.relation.model)
    if (filter.kind === 'exists' && filter.relation && filter.model)
      found.set(filter.field, filter.model)
  }
  for (const field of spec.order) add(field)
  for (const property of spec.properties?.properties ?? [])
    if (property.embed) found.set(relationOf(property), property.embed.model)
  return found
}

/**
 * Hidden fields (API names) as a spec's filters and orders name them: a link `@property` renames
 * (`writer`) by its Prisma field (`author`), which names `author=`, `author.name=`,
 * `exists[author]` and `order[author.name]`. Other fields keep their names.
 */
export function queryNames(
  hidden: ReadonlySet<string>,
  links: readonly { name: string; field?: string | undefined }[] = []
): ReadonlySet<string> {
  const fieldOf = new Map<string, string>()
  for (const { name, field } of links) if (field !== undefined) fieldOf.set(name, field)
  if (fieldOf.size === 0 || hidden.size === 0) return hidden
  return new Set([...hidden].map((name) => fieldOf.get(name) ?? name))
}

/**
 * `spec` without the filters and orders of `hidden` fields (and of hidden relations, and of a
 * related model's hidden fields, named by their relation path: `author.email`, `book.writer`),
 * and without orders through the relations of `partial` (relation paths to rows the caller sees
 * only in part); the fields of `someRows` (shown on some rows only, named as `hidden` names them)
 * lose their filters and orders but stay selectable.
 * `spec` itself when neither leaves anything out; the prepared operation
 * (hydra/prepared-operation.ts) keeps one variant a kind of caller.
 */
export function callerSpec(
  spec: QuerySpec,
  hidden: ReadonlySet<string>,
  partial: ReadonlySet<string>,
  someRows: ReadonlySet<string> = NONE
): QuerySpec {
  if (hidden.size === 0 && partial.size === 0 && someRows.size === 0) return spec
  // A field shown on some rows only would tell its value on the others through a filter or an
  // order: neither is offered, but it may still be selected (`properties[]`).
  const unqueried = someRows.size === 0 ? hidden : new Set([...hidden, ...someRows])
  const shown = ({ through }: Through, field: string) =>
    !unqueried.has(field) && !(through && throughHidden(through, unqueried))
  const seenInPart = ({ through }: Through) =>
    through !== undefined && relationHops(through).some((hop) => partial.has(hop.path))
  const order = spec.order.filter((field) => shown(field, field.field) && !seenInPart(field))
  return {
    ...spec,
    filters: spec.filters.filter((filter) => shown(filter, filter.field)),
    // An empty order turns the parameter off: a caller who may use none of the declared fields
    // still orders by the key, as every caller may, and is refused the others as undeclared.
    order:
      order.length === 0 && spec.order.length > 0
        ? [...(spec.key ?? (spec.id ? [spec.id] : []))]
        : order,
    ...(spec.properties ? { properties: callerProperties(spec.properties, hidden) } : {}),
  }
}

/**
 * Whether a field through relations is hidden: one of its relations is (the first as this model
 * names it, `author`; the next ones by their path, `book.writer` when Book hides its link `writer`),
 * or its field is (`book.author.email`).
 */
function throughHidden(through: RelatedField, hidden: ReadonlySet<string>): boolean {
  const hops = relationHops(through)
  const last = hops[hops.length - 1]
  if (last && hidden.has(`${last.path}.${through.field}`)) return true
  return hops.some((hop) =>
    hop.from === undefined
      ? hidden.has(hop.relation)
      : hidden.has(`${hop.from}.${hop.name ?? hop.relation}`)
  )
}
