/**
 * What the change log's SQL needs of each database (docs/syncing.md): identifiers quoted, a JSON
 * object built from a row's columns, and each Prisma type's value written so that JSON keeps it
 * whole (64-bit integers and decimals as strings, bytes in hexadecimal).
 */
import type { ResourceModel } from '../../config/schema/model.js'

/** One column of a logged row: its field's name (the JSON key), its column and Prisma type. */
export type LoggedColumn = ResourceModel['columns'][number]

/** How one database writes the pieces of the log's SQL. */
export interface ChangeLogDialect {
  /** An identifier, quoted. */
  quote(name: string): string
  /** A JSON object of `[key, expression]` pairs. */
  object(pairs: readonly (readonly [string, string])[]): string
  /** A column's value of the row `row` (`NEW`, `OLD`), as JSON should hold it. */
  value(row: string, column: LoggedColumn): string
  /** An enum column's stored name as text, for the `ELSE` of the `CASE` that maps it. */
  enumText(reference: string): string
}

/** Each enum whose values are stored under other names: its values' stored names by value. */
export type StoredEnums = Readonly<Record<string, Readonly<Record<string, string>>>>

/** Pairs per call of a JSON function: every database takes at least 100 arguments. */
const PAIRS_PER_CALL = 40

/**
 * A JSON object of `pairs` built by `build` (`json_object(k, v, ...)`) for the first 40 pairs and
 * `add` (`json_insert(object, '$.k', v, ...)`) for each 40 after them, so that no call takes more
 * arguments than a database allows; null values stay (a merge patch would drop them).
 */
export function chunkedObject(
  pairs: readonly (readonly [string, string])[],
  build: (pairs: readonly (readonly [string, string])[]) => string,
  add: (object: string, pairs: readonly (readonly [string, string])[]) => string
): string {
  let object = build(pairs.slice(0, PAIRS_PER_CALL))
  for (let start = PAIRS_PER_CALL; start < pairs.length; start += PAIRS_PER_CALL) {
    object = add(object, pairs.slice(start, start + PAIRS_PER_CALL))
  }
  return object
}

/** The arguments of a function building a JSON object from `pairs`: each key, then its value. */
export const argumentPairs = (pairs: readonly (readonly [string, string])[]) =>
  pairs.map(([key, value]) => `${key}, ${value}`).join(', ')

/** The pairs of `json_insert` and `JSON_INSERT`: each key as a path (`'$.title'`), then its value. */
const insertPairs = (pairs: readonly (readonly [string, string])[]) =>
  pairs.map(([key, value]) => `'$.${key.slice(1, -1)}', ${value}`).join(', ')

/**
 * An object of `pairs` built by the functions `build` and `insert` (`json_object` and
 * `json_insert` on SQLite, `JSON_OBJECT` and `JSON_INSERT` on MySQL), in calls of at most
 * PAIRS_PER_CALL pairs each.
 */
export const calledObject =
  (build: string, insert: string) => (pairs: readonly (readonly [string, string])[]) =>
    chunkedObject(
      pairs,
      (chunk) => `${build}(${argumentPairs(chunk)})`,
      (object, chunk) => `${insert}(${object}, ${insertPairs(chunk)})`
    )

/** A SQL string literal of a name (model and field names: letters, digits and `_`). */
export const literal = (text: string) => `'${text.replaceAll("'", "''")}'`

/** Quotes with `mark`, doubling it inside. */
export const quoteWith = (mark: string) => (name: string) =>
  `${mark}${name.replaceAll(mark, mark + mark)}${mark}`

/**
 * The JSON of a row's key and of its scalar fields, in `dialect`'s SQL, with Prisma's values: an
 * enum of `enums` by its value's name in the schema, not the name it is stored under.
 */
export function rowObjects(
  dialect: ChangeLogDialect,
  resource: ResourceModel,
  row: string,
  enums: StoredEnums
): { key: string; image: string } {
  const value = (column: LoggedColumn) => {
    const stored = enums[column.type]
    if (!stored) return dialect.value(row, column)
    const reference = `${row}.${dialect.quote(column.column)}`
    const cases = Object.entries(stored).map(
      ([name, storedName]) => `WHEN ${literal(storedName)} THEN ${literal(name)}`
    )
    return `CASE ${reference} ${cases.join(' ')} ELSE ${dialect.enumText(reference)} END`
  }
  const pairs = (columns: readonly LoggedColumn[]) =>
    columns.map((column) => [literal(column.name), value(column)] as const)
  return {
    key: dialect.object(pairs(keyColumns(resource))),
    image: dialect.object(pairs(resource.columns)),
  }
}

/** The columns of the resource's item key. */
export function keyColumns(resource: ResourceModel): LoggedColumn[] {
  return resource.key.fields.map(
    (field) => resource.columns.find((column) => column.name === field.name) as LoggedColumn
  )
}

/** A text's length in UTF-8 bytes. */
const byteLength = (text: string) => new TextEncoder().encode(text).length

/**
 * A name for a database object made from `parts`, at most 60 bytes in UTF-8 (PostgreSQL keeps
 * 63 bytes, MySQL 64 characters, which are never fewer): a longer one keeps its start, whole
 * characters only, and ends with a hash of the whole, so that two long names never meet.
 */
export function objectName(...parts: string[]): string {
  const name = parts.join('_')
  if (byteLength(name) <= 60) return name
  let hash = 2166136261
  for (const char of name) hash = Math.imul(hash ^ (char.codePointAt(0) as number), 16777619)
  let start = ''
  for (const char of name) {
    if (byteLength(start + char) > 51) break
    start += char
  }
  return `${start}_${(hash >>> 0).toString(16).padStart(8, '0')}`
}
