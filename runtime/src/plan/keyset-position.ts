/**
 * @module
 * A position in a key order, as a request's plan holds it (paging/cursor.ts and paging/batches.ts
 * read it from a cursor or the last row of a batch): the key's fields with their directions, the
 * position's values, the way read and whether the position itself belongs. The engines write it in
 * their own language from its conditions (keyset.ts): a lexicographic comparison, or, when every
 * key runs the same way and every value is given, in SQL's own definition the row-value
 * comparison `(a, b) < (x, y)` ({@link rowValueOf}), which SQLite and PostgreSQL read as one range
 * of an index on `(a, b)`.
 */

import type { OrderField } from '../contract/order.js'

/** The rows past a position in a key order. */
export interface KeysetPast {
  /** The key's fields in the order's, at least as many as `values`. */
  keys: readonly OrderField[]
  /** The position's value of each of the first fields. */
  values: readonly unknown[]
  /** Whether the rows are read against the order (the rows before the position). */
  backward: boolean
  /** Whether the row at the position belongs. */
  inclusive: boolean
}

/** A comparison of a cursor field with a position's value. */
export type KeysetOperator = 'lt' | 'lte' | 'gt' | 'gte'

/** A position as a row-value comparison: `(fields) operator (values)`. */
export interface KeysetPosition {
  /** The key's fields, in the order's. */
  fields: readonly string[]
  /** The position's value of each field. */
  values: readonly unknown[]
  /** How rows compare with the position: before it (`lt`, `lte`) or after it (`gt`, `gte`). */
  operator: KeysetOperator
}

/** How rows past a position compare on `key`: below it or above it, the position's row or not. */
export function operatorFor(
  key: OrderField,
  backward: boolean,
  inclusive: boolean
): KeysetOperator {
  const lower = (key.direction === 'desc') !== backward
  return `${lower ? 'lt' : 'gt'}${inclusive ? 'e' : ''}` as KeysetOperator
}

/**
 * The rows past `past` as one row-value comparison, when they are one: more than one key, every
 * key running one way, every value given (a null compares as unknown in a row value).
 */
export function rowValueOf({
  keys,
  values,
  backward,
  inclusive,
}: KeysetPast): KeysetPosition | undefined {
  const first = keys[0]
  if (!first || values.length < 2) return undefined
  const ordered = keys.slice(0, values.length)
  if (!ordered.every((key) => key.direction === first.direction)) return undefined
  if (values.some((value) => value === null || value === undefined)) return undefined
  const fields = ordered.map((key) => key.field)
  return { fields, values, operator: operatorFor(first, backward, inclusive) }
}
