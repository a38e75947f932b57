/**
 * @module
 * A position in a key order, handed from the paging layer (cursor.ts, `keysetWhere`) to whatever
 * reads its `where` without Prisma (the compiled engine, data/compiled-sql.ts). The `where` is
 * written as Prisma reads it, the lexicographic comparison nested one field at a time
 * (`a <= x AND (a < x OR b < y)`); when every key runs the same way and every value is given, that
 * is, in SQL's own definition, the row-value comparison `(a, b) < (x, y)` (`<=` when the position
 * itself belongs), which SQLite and PostgreSQL read as one range of an index on `(a, b)`. The
 * paging layer knows the position when it writes the `where`, so it says so on it, under a
 * symbol: Prisma reads only a where's own enumerable string keys, and the where stays what it was
 * for every other reader.
 */

/** A position as a row-value comparison: `(fields) operator (values)`. */
export interface KeysetPosition {
  fields: readonly string[]
  values: readonly unknown[]
  operator: 'lt' | 'lte' | 'gt' | 'gte'
}

const POSITION = Symbol('prisma-hydra keyset position')

/** `where`, marked as the comparison with `position` (not enumerable, not copied by a spread). */
export function markPosition<W extends object>(where: W, position: KeysetPosition): W {
  Object.defineProperty(where, POSITION, { value: position, enumerable: false })
  return where
}

/** The position `where` compares with, when the paging layer wrote it as one. */
export function positionOf(where: object): KeysetPosition | undefined {
  return (where as { [POSITION]?: KeysetPosition })[POSITION]
}
