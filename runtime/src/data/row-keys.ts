/**
 * @module
 * Rows found again by their key: the `where` selecting rows by the keys of others, the `select`
 * of the key, and the key as text to compare rows by. The checks of embedded rows against a scope
 * (embedded-scope.ts) and of a page's members against their item scope (embedded-pages.ts) read
 * the rows they hold this way, one query for all of them.
 */

type Where = Record<string, unknown>

/** The `where` of the rows whose key (fields `names`) is one of `rows`'. */
export function byKeys(names: readonly string[], rows: readonly Where[]): Where {
  const [only] = names
  if (names.length === 1 && only !== undefined)
    return { [only]: { in: rows.map((row) => row[only]) } }
  return { OR: rows.map((row) => Object.fromEntries(names.map((name) => [name, row[name]]))) }
}

/** The `select` of the key's fields. */
export const keySelect = (names: readonly string[]): Record<string, true> =>
  Object.fromEntries(names.map((name) => [name, true]))

/** A row's key as text, the same for the row however it was read. */
export const keyText =
  (names: readonly string[]) =>
  (row: Where): string =>
    JSON.stringify(names.map((name) => String(row[name])))
