/**
 * `order[id]`: the order generic clients send unless told otherwise. react-admin lists, and so API
 * Platform's admin, sort by the record's `id` by default, which is the item's identity (its `@id`)
 * whatever the key field is called (`GET /genres?order[id]=ASC&page=1&itemsPerPage=10`). A
 * collection whose key is not a field named `id` takes `order[id]` as its key order, so that
 * default sort lists its items instead of answering a 400.
 */
import type { OrderFieldSpec, QuerySpec } from '../contract/query.js'

/** The order field generic clients name an item's identity by. */
export const ID_ORDER = 'id'

/** The item key's fields, which end every client order: `key` (composite), else `id`. */
export function keyOf(spec: QuerySpec): readonly OrderFieldSpec[] {
  return spec.key ?? (spec.id ? [spec.id] : [])
}

/**
 * The key fields `order[id]` orders by on this collection, or undefined where it means nothing
 * more: the collection takes no order at all, has no key, or has a field named `id` (its own
 * `order[id]`, or a filtered field a client would take it for).
 */
export function idOrderFields(spec: QuerySpec): readonly OrderFieldSpec[] | undefined {
  const key = keyOf(spec)
  if (spec.order.length === 0 || key.length === 0) return undefined
  const named = [...spec.filters, ...spec.order, ...key].some((entry) => entry.field === ID_ORDER)
  return named ? undefined : key
}
