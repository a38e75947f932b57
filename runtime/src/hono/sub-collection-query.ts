/**
 * What a sub-collection accepts (docs/hydra.md#relations): its target's collection operation
 * without the filters and orders on the relation that defines it. Under `/publishers/1/catalogue`
 * every title has publisher 1, so `publisher`, `publisher.name`, `exists[publisher]` and
 * `order[publisher.name]` would select or sort nothing: they are neither advertised in
 * `hydra:search` nor read (an unknown parameter, as anywhere else).
 */
import type { FilterSpec, OrderFieldSpec } from '../filters/spec.js'
import type { CollectionOperation } from './collection-route.js'

/** Derived operations, made once per operation and relation. */
const derived = new WeakMap<object, Map<string, object>>()

const onRelation = (relation: string) => (spec: FilterSpec | OrderFieldSpec) =>
  spec.field === relation || spec.through?.relation === relation

/** `operation` without its filters and orders on `relation` (the back relation to the parent). */
export function withoutRelation<M, P extends boolean>(
  operation: CollectionOperation<M, P>,
  relation: string
): CollectionOperation<M, P> {
  const query = operation.query
  if (!query) return operation
  const byRelation = derived.get(operation) ?? new Map<string, object>()
  derived.set(operation, byRelation)
  const known = byRelation.get(relation)
  if (known) return known as CollectionOperation<M, P>
  const excluded = onRelation(relation)
  const scoped: CollectionOperation<M, P> = {
    ...operation,
    query: {
      ...query,
      filters: query.filters.filter((filter) => !excluded(filter)),
      order: query.order.filter((field) => !excluded(field)),
    },
  }
  byRelation.set(relation, scoped)
  return scoped
}
