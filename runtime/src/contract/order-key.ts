/**
 * @module
 * An offset-paged operation's order as a keyset key (`orderKey`), derived from its order and its
 * resource alone: the types come from the key, the shown fields and the fields the resource
 * describes without showing them (`unshown`).
 */

import { scalarType } from '../scalar-types.js'
import type { IdKind } from './keys.js'
import { keyFields } from './keys.js'
import type { CursorKey, OrderField } from './order.js'
import type { ResourceSpec } from './resource.js'

/** Whether Prisma compares values of the type with lt/gt (the generator's test, too). */
const comparable = (type: string) => scalarType(type)?.cursor === true

/** One field of the order as a key field, or undefined when it cannot key a batch. */
function keyFieldOf(
  { field, direction }: OrderField,
  resource: ResourceSpec<IdKind>
): CursorKey | undefined {
  const part = keyFields(resource.id).find((key) => key.name === field)
  if (part) {
    if (!comparable(part.kind)) return undefined
    return { field, direction, type: part.kind, ...(part.uuid ? { uuid: true } : {}) }
  }
  const described = [...resource.fields, ...(resource.unshown ?? [])]
  const spec = described.find((entry) => entry.name === field)
  if (!spec || spec.list || spec.required === false || !comparable(spec.type)) return undefined
  return { field, direction, type: spec.type, ...(spec.uuid ? { uuid: true } : {}) }
}

/**
 * The order as a keyset key when every field is a key field or a field of the resource, shown or
 * not, that is required and comparable with lt/gt
 * (docs/paging.md#d5-unpaged-collections-are-streamed); otherwise undefined, and unpaged responses
 * read in batches by offset.
 */
export function orderKeyOf(
  order: readonly OrderField[],
  resource: ResourceSpec<IdKind>
): CursorKey[] | undefined {
  const key: CursorKey[] = []
  for (const entry of order) {
    const part = keyFieldOf(entry, resource)
    if (!part) return undefined
    key.push(part)
  }
  return key
}
