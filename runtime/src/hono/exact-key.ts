/**
 * @module
 * One id, one item: a row found by its key is the item of the IRI asked for only when its key is
 * exactly the key read from the IRI. A column's collation can make a database match more than one
 * spelling (MariaDB's default `utf8mb4_unicode_ci` finds `en` for `EN` and for `en `, a
 * PostgreSQL `citext` or a SQLite `COLLATE NOCASE` column the same); those spellings are 404s on
 * every database, as on a binary column, so each item has one IRI (docs/errors.md).
 */

/** Whether `row[field]` is exactly `id` (text keys; other kinds are compared by their parsers). */
export function keyIs(row: object, field: string, id: unknown): boolean {
  return typeof id !== 'string' || (row as Record<string, unknown>)[field] === id
}

/** Whether `row`, selected for its key alone (a sub-collection's parent), holds exactly `id`. */
export function holdsKey(row: object, id: unknown): boolean {
  return typeof id !== 'string' || Object.values(row).includes(id)
}
