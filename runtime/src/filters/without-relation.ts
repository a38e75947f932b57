/**
 * @module
 * What a sub-collection accepts (docs/hydra.md#relations): its target's filters and orders without
 * those on the relation that defines it. Under `/publishers/1/catalogue` every title has publisher
 * 1, so `publisher`, `publisher.name`, `exists[publisher]` and `order[publisher.name]` would
 * select or sort nothing: they are neither advertised (`hydra:search`, the OpenAPI document) nor
 * read (an unknown parameter, as anywhere else).
 */
import type { FilterSpec, OrderFieldSpec, QuerySpec } from '../contract/query.js'

const onRelation = (relation: string) => (spec: FilterSpec | OrderFieldSpec) =>
  spec.field === relation || spec.through?.relation === relation

/** `spec` without its filters and orders on `relation` (the back relation to the parent). */
export function withoutRelation(spec: QuerySpec, relation: string): QuerySpec {
  const excluded = onRelation(relation)
  return {
    ...spec,
    filters: spec.filters.filter((filter) => !excluded(filter)),
    order: spec.order.filter((field) => !excluded(field)),
  }
}
