/**
 * @module
 * An offset-paged operation's order as a keyset key (`orderKey`), derived from its order and its
 * resource: the types come from the key and the shown fields the resource already lists.
 */

import type { OrderField } from '../data/model-source.js'
import { keyFields } from '../hydra/item-key.js'
import type { IdKind, ResourceSpec } from '../hydra/resource.js'
import type { CursorKey } from '../paging/types.js'
import { scalarType } from '../scalar-types.js'

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
  const shown = resource.fields.find((entry) => entry.name === field)
  if (!shown || shown.list || shown.required === false || !comparable(shown.type)) return undefined
  return { field, direction, type: shown.type }
}

/**
 * The order as a keyset key when every field is a key field or a shown field that is required and
 * comparable with lt/gt (docs/paging.md#d5-unpaged-collections-are-streamed); otherwise undefined,
 * and unpaged responses read in batches by offset. A field the resource does not show has no type
 * here: the generated module then writes the operation's `orderKey` itself.
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
