/**
 * `@filter(search: { id: "exact" })` on a model whose items have a composite key (docs/filters.md,
 * several items in one request): `id[]=/order-lines/orderId=1;productId=2` (or the key alone,
 * `orderId=1;productId=2`), as a one-field key's `id[]` takes its IRIs. The key is read field by
 * field, as a relation filter reads a composite-keyed target's, on the model's own key fields.
 */
import type { FilterSpec } from '@prisma-hydra/runtime/defaults'
import type { AnnotationValue } from '../../annotations/parse.js'
import { show } from '../../problems.js'
import type { FilterContext } from './filter-fields.js'
import { valueTypeOf } from './relation-filters.js'

/**
 * The search of `id` by the items' composite key, a problem's text when it is declared otherwise,
 * or undefined when the model's key is not composite (or `id` is one of its fields).
 */
export function compositeItemsSearch(
  name: string,
  setting: AnnotationValue | undefined,
  context: FilterContext
): FilterSpec | string | undefined {
  const key = context.keyFields ?? []
  const path = context.served.get(context.model.name)?.collectionPath
  if (name !== 'id' || key.length < 2 || context.fields.has(name) || path === undefined)
    return undefined
  if (setting !== 'exact')
    return `names the composite key of the items (${key.map((field) => field.name).join(', ')}): it takes "exact" only, by IRI or key, got ${show(setting)}`
  const [first] = key
  const id = valueTypeOf(first as (typeof key)[number])
  return {
    kind: 'search',
    field: 'id',
    strategy: 'exact',
    type: id.type,
    relation: {
      foreignKey: (first as (typeof key)[number]).name,
      collectionPath: path,
      id,
      // Each part of the key is a column of the model itself.
      key: key.map((field) => ({
        name: field.name,
        ...valueTypeOf(field),
        foreignKey: field.name,
      })),
    },
  }
}
