/**
 * @module
 * An offset-paged operation's order as a keyset key (`orderKey`): the one derivation, which the
 * generator runs over its model of the schema (generator/src/config/paging/cursor-key.ts) and
 * `defineOperations` over the resource a generated module describes, whose key, shown fields and
 * fields described without being shown (`unshown`) give the types.
 */

import { scalarType } from '../scalar-types.js'
import { type IdKind, keyFields } from './keys.js'
import type { CursorKey, OrderField } from './order.js'
import type { ResourceSpec } from './resource.js'

/** What the order key needs of a field: its Prisma type (`Enum` for an enum), and its shape. */
export interface OrderKeyField {
  /** Its Prisma type (`Enum` for an enum). */
  type: string
  /** Whether every row has a value. Default true. */
  required?: boolean | undefined
  /** Whether it is a list. */
  list?: boolean | undefined
  /** A `@db.Uuid` String. */
  uuid?: boolean | undefined
}

/** Whether Prisma compares values of the type with lt/gt. */
const comparable = (type: string) => scalarType(type)?.cursor === true

/**
 * The order as a keyset key when every field is required and comparable with lt/gt
 * (docs/paging.md#d5-unpaged-collections-are-streamed); otherwise undefined, and unpaged responses
 * read in batches by offset. `fieldOf` describes each field of the order (undefined: unknown).
 */
export function orderKeyOf(
  order: readonly OrderField[],
  fieldOf: (name: string) => OrderKeyField | undefined
): CursorKey[] | undefined {
  const key: CursorKey[] = []
  for (const { field, direction } of order) {
    const spec = fieldOf(field)
    if (!spec || spec.list || spec.required === false || !comparable(spec.type)) return undefined
    key.push({ field, direction, type: spec.type, ...(spec.uuid ? { uuid: true } : {}) })
  }
  return key
}

/** The fields of a resource as the order key reads them: its key's, then the described ones. */
export function resourceFields(
  resource: ResourceSpec<IdKind>
): (name: string) => OrderKeyField | undefined {
  return (name) => {
    const part = keyFields(resource.id).find((key) => key.name === name)
    if (part) return { type: part.kind, uuid: part.uuid }
    const described = [...resource.fields, ...(resource.unshown ?? [])]
    return described.find((entry) => entry.name === name)
  }
}
