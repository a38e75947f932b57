/**
 * @module
 * Rows found again by their key: the condition selecting a row by its key or rows by the keys of
 * others, and the key as text to compare rows by. The checks of embedded rows against a scope
 * (embedded-scope.ts) and of a page's members against their item scope (embedded-pages.ts) read
 * the rows they hold this way, one query for all of them.
 */

import type { ModelKey } from '../contract/model-source.js'
import { allOf, anyOf, type Condition, fieldEquals, onField } from '../plan/condition.js'

/** A row as the client answers it. */
type Fields = Record<string, unknown>

/** The rows whose key (fields `names`) is one of `rows`'. */
export function byKeys(names: readonly string[], rows: readonly Fields[]): Condition {
  const [only] = names
  if (names.length === 1 && only !== undefined)
    return onField(only, { op: 'in', values: rows.map((row) => row[only]) })
  return anyOf(
    rows.map((row) => allOf(names.map((name) => fieldEquals(name, row[name]))) as Condition)
  )
}

/** The fields of `key`: its one field, or a composite key's. */
export const keyNames = (key: ModelKey): string[] =>
  key.fields?.map(({ name }) => name) ?? [key.name]

/** The row keyed `id`: a composite key's value is an object of exactly its fields. */
export function keyCondition(key: ModelKey, id: unknown): Condition {
  if (!key.fields) return fieldEquals(key.name, id)
  const value = id as Record<string, unknown>
  return allOf(key.fields.map(({ name }) => fieldEquals(name, value[name]))) as Condition
}

/** A row's key as text, the same for the row however it was read. */
export const keyText =
  (names: readonly string[]) =>
  (row: Fields): string =>
    JSON.stringify(names.map((name) => String(row[name])))
