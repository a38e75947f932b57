/**
 * @module
 * A cursor position over several keys as one row-value comparison. The paging layer writes a
 * position as Prisma reads it (paging/cursor.ts, `keysetWhere`): the first key's bound, then the
 * order's expansion, one branch a key, and a branch of the position itself when it is included:
 *
 *     { AND: [{ a: { lte: x } }, { OR: [{ a: { lt: x } }, { a: x, b: { lt: y } }, { a: x, b: y }] }] }
 *
 * When every key runs the same way that is, in SQL's own definition, the row-value comparison
 * `(a, b) <= (x, y)` (`<` without the last branch; a null on either side leaves a row out of both),
 * which SQLite and PostgreSQL read as one range of an index on `(a, b)`, where the expansion is a
 * range on `a` and a filter on the rest (on SQLite the 30 % deep page of the benchmarks' feed runs in
 * 55 µs as a row value, 66 as the expansion: docs/performance.md). Any other shape is not a
 * position, and is written as it is.
 */
import { isDecimal } from '../decimal.js'

type Where = Record<string, unknown>

/** A position as a row-value comparison: `(fields) operator (values)`. */
export interface Keyset {
  fields: string[]
  values: unknown[]
  operator: 'lt' | 'lte' | 'gt' | 'gte'
}

/** A bound's value: neither null nor undefined, and not an operator object (`{ lt: … }`). */
const isValue = (value: unknown): boolean =>
  typeof value === 'object'
    ? value !== null && (value instanceof Date || isDecimal(value) || ArrayBuffer.isView(value))
    : value !== undefined

/** The one entry of `object`, or undefined. */
function only(object: unknown): [string, unknown] | undefined {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return undefined
  const entries = Object.entries(object)
  return entries.length === 1 ? entries[0] : undefined
}

/** The keyset of the items of an `AND`, or undefined when they are not a position over keys. */
export function keysetOf(items: readonly unknown[]): Keyset | undefined {
  if (items.length !== 2) return undefined
  const [first, rest] = items
  const bound = only(first)
  const leading = only(bound?.[1])
  const or = only(rest)
  if (!bound || !leading || or?.[0] !== 'OR' || !Array.isArray(or[1])) return undefined
  const [inclusive, value] = leading
  if ((inclusive !== 'lte' && inclusive !== 'gte') || !isValue(value)) return undefined
  const branches = or[1] as unknown[]
  const strict = inclusive === 'lte' ? 'lt' : 'gt'
  const fields: string[] = []
  const values: unknown[] = []
  for (const branch of branches) {
    if (typeof branch !== 'object' || branch === null) return undefined
    const entries = Object.entries(branch as Where)
    const last = entries.at(-1)
    const inner = only(last?.[1])
    const stepping = inner !== undefined && entries.length === fields.length + 1
    if (!sameKeys(entries, fields, values)) return undefined
    if (!stepping) {
      // The position itself, the last branch: every key equal to its value.
      const whole = entries.length === fields.length && branch === branches.at(-1)
      return whole && starts(fields, values, bound[0], value)
        ? { fields, values, operator: inclusive }
        : undefined
    }
    if (inner[0] !== strict || !isValue(inner[1])) return undefined
    fields.push(last?.[0] as string)
    values.push(inner[1])
  }
  return starts(fields, values, bound[0], value) ? { fields, values, operator: strict } : undefined
}

/** Whether a branch's first entries are the keys before it, each equal to its value. */
function sameKeys(
  entries: readonly [string, unknown][],
  fields: readonly string[],
  values: readonly unknown[]
): boolean {
  return fields.every(
    (field, index) => entries[index]?.[0] === field && entries[index]?.[1] === values[index]
  )
}

/** Whether the keys are several, the first one the leading bound's. */
const starts = (fields: string[], values: unknown[], field: string, value: unknown): boolean =>
  fields.length >= 2 && fields[0] === field && values[0] === value
