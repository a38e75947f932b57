/**
 * @module
 * Orders as the generator writes them and the runtime reads them: one field of an order, one
 * field of a keyset (cursor) key, and the rule that ends every order with the item key.
 */

/** One field of an operation's order, or of a client's. */
export interface OrderField {
  /** The field ordered by. */
  field: string
  /** Ascending or descending. */
  direction: 'asc' | 'desc'
}

/** One entry of a client's order (docs/filters.md): an order field. */
export type OrderEntry = OrderField

/** One field of a cursor key, in the collection's order. */
export interface CursorKey {
  /** The field. */
  field: string
  /** Its direction in the collection's order. */
  direction: 'asc' | 'desc'
  /** Prisma type of the field: decides how values are read from links and written to them. */
  type: string
  /** A `@db.Uuid` String field: values must be UUIDs. */
  uuid?: boolean
}

/**
 * The order ending with the item key's fields it does not name, ascending, so that no two rows
 * tie and pages never overlap: the rule of every order, an operation's own (which the generator
 * writes without them) and a client's.
 */
export function withTieBreaker(
  order: readonly OrderField[],
  keyFields: readonly string[]
): OrderField[] {
  const missing = keyFields.filter((name) => !order.some((entry) => entry.field === name))
  return [...order, ...missing.map((field) => ({ field, direction: 'asc' as const }))]
}
