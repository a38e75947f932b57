/**
 * @module
 * A position in a key order, handed from the paging layer (cursor.ts, `keysetBound`) to whatever
 * reads its `where` without Prisma (the compiled engine, data/compiled-sql.ts). The `where` is
 * written as Prisma reads it, the lexicographic comparison nested one field at a time
 * (`a <= x AND (a < x OR b < y)`); when every key runs the same way and every value is given, that
 * is, in SQL's own definition, the row-value comparison `(a, b) < (x, y)` (`<=` when the position
 * itself belongs), which SQLite and PostgreSQL read as one range of an index on `(a, b)`. The
 * paging layer knows the position when it writes the `where`, so it hands both over.
 */

/** A position as a row-value comparison: `(fields) operator (values)`. */
export interface KeysetPosition {
  /** The key's fields, in the order's. */
  fields: readonly string[]
  /** The position's value of each field. */
  values: readonly unknown[]
  /** How rows compare with the position: before it (`lt`, `lte`) or after it (`gt`, `gte`). */
  operator: 'lt' | 'lte' | 'gt' | 'gte'
}

/** The rows past a position: as Prisma reads them and, when it is one, as a row value. */
export interface KeysetBound {
  where: Record<string, unknown>
  position?: KeysetPosition | undefined
}
