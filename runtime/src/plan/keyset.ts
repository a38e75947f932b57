/**
 * @module
 * The rows past a cursor position (keyset-position.ts) as conditions on the key's fields:
 * a lexicographic comparison, led by a range on the first field so that an index on the key can
 * seek to the position instead of scanning to it.
 *
 * Written nested, each field once with each operator: `a ≥ x AND (a > x OR (b ≥ y AND (b > y OR
 * c > z)))` (`≥` at the last field when `inclusive`), two values a field, where the expansion of
 * every branch (`a > x OR (a = x AND b > y) OR …`) repeats the leading values in each. Prisma's
 * query layer and the driver adapter's work grow with the values sent: a feed page's `findMany`
 * cost 40-80 µs of CPU more with the expansion (`npm run bench:engines`, docs/performance.md). A
 * position with an empty value (a null, a field left out) keeps the expansion, whose equalities
 * read a null as `IS NULL`.
 */

import type { OrderField } from '../contract/order.js'
import { allOf, anyOf, type Condition, fieldEquals, onField } from './condition.js'
import { type KeysetPast, operatorFor } from './keyset-position.js'

/** The rows past `past`, as the fields' comparisons. */
export function pastCondition({
  keys,
  values,
  backward,
  inclusive,
}: KeysetPast): Condition | undefined {
  const first = keys[0] as OrderField
  if (values.length === 1) {
    const [value] = values
    return value === undefined
      ? undefined
      : compare(first, operatorFor(first, backward, inclusive), value)
  }
  const empty = values.some((value) => value === null || value === undefined)
  return empty
    ? expanded(keys, values, backward, inclusive)
    : nested(keys, values, backward, inclusive, 0)
}

const compare = (key: OrderField, op: ReturnType<typeof operatorFor>, value: unknown): Condition =>
  onField(key.field, { op, value })

/** The comparison from field `index` on: `k ≥ v AND (k > v OR <the next field's>)`. */
function nested(
  keys: readonly OrderField[],
  values: readonly unknown[],
  backward: boolean,
  inclusive: boolean,
  index: number
): Condition {
  const key = keys[index] as OrderField
  const value = values[index]
  if (index === values.length - 1) return compare(key, operatorFor(key, backward, inclusive), value)
  const beyond = compare(key, operatorFor(key, backward, false), value)
  const rest = nested(keys, values, backward, inclusive, index + 1)
  return {
    kind: 'and',
    parts: [
      compare(key, operatorFor(key, backward, true), value),
      { kind: 'or', parts: [beyond, rest] },
    ],
  }
}

/**
 * The comparison as one branch a field: `a > x OR (a = x AND b > y) OR …`, led by `a ≥ x`. A value
 * left out (undefined) compares nothing: its comparison holds for every row, as Prisma reads it.
 */
function expanded(
  keys: readonly OrderField[],
  values: readonly unknown[],
  backward: boolean,
  inclusive: boolean
): Condition | undefined {
  const given = (index: number, write: (key: OrderField, value: unknown) => Condition) => {
    const value = values[index]
    return value === undefined ? undefined : write(keys[index] as OrderField, value)
  }
  const equal = (index: number) => given(index, (key, value) => fieldEquals(key.field, value))
  const branches = values.map((_, index) =>
    allOf([
      ...values.slice(0, index).map((_, at) => equal(at)),
      given(index, (key, value) => compare(key, operatorFor(key, backward, false), value)),
    ])
  )
  if (inclusive) branches.push(allOf(values.map((_, index) => equal(index))))
  const leading = given(0, (key, value) => compare(key, operatorFor(key, backward, true), value))
  const any = branches.includes(undefined) ? undefined : anyOf(branches as Condition[])
  return allOf([leading, any])
}
