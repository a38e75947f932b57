/**
 * @module
 * How a field's value read from the database is written to JSON when it is not already a JSON
 * value (scalar-types.ts names the formatter of each type): a date as ISO text, a BigInt and a
 * Decimal as text, bytes as base64; `null` as `null`. The generic member writer
 * (resource.ts) builds a converter per field from these; members written by generated code call
 * them by name (`memberValues`).
 */
import { isDecimal } from '../decimal.js'
import { type ScalarFormatter, scalarType } from '../scalar-types.js'
import { isoText } from '../values/iso-text.js'

/** Converts one value read from the database to its JSON value. */
type Convert = (value: unknown) => unknown

/** A Decimal in plain notation: with `scale` decimals (`57.70`), or its shortest form. */
function decimalText(value: unknown, scale: number | undefined): string {
  if (!isDecimal(value)) return String(value)
  return scale === undefined ? value.toFixed() : value.toFixed(scale)
}

const absent = (value: unknown): value is null | undefined => value === null || value === undefined

/**
 * Each formatter for one value that may be null, and a list's values: what generated member
 * writers call (generator/src/emit/member-writer.ts).
 */
export const memberValues = {
  /** A DateTime as ISO 8601 text in UTC. */
  dateTime: (value: unknown) =>
    absent(value) ? null : value instanceof Date ? isoText(value) : value,
  /** A BigInt as decimal text. */
  integerText: (value: unknown) => (absent(value) ? null : String(value)),
  /** A Decimal as plain decimal text, with `scale` decimals when given. */
  decimalText: (value: unknown, scale?: number) =>
    absent(value) ? null : decimalText(value, scale),
  /** Bytes as base64 text. */
  base64: (value: unknown) =>
    absent(value) ? null : Buffer.from(value as Uint8Array).toString('base64'),
  /** A list's values, each converted (a value that is no list is kept as it is). */
  list: (value: unknown, convert: Convert) => (Array.isArray(value) ? value.map(convert) : value),
} satisfies Record<ScalarFormatter | 'list', unknown>

/** The writer of a field's values (a Date as ISO text, a Decimal as plain text…); none: as read. */
export function converterFor(field: {
  type: string
  list?: boolean | undefined
  scale?: number | undefined
}): Convert | undefined {
  const formatter = scalarType(field.type)?.formatter
  if (!formatter) return undefined
  const { scale } = field
  // One argument each: a list's `map` passes its index second.
  const convert: Convert =
    formatter === 'decimalText'
      ? (value) => memberValues.decimalText(value, scale)
      : (value) => memberValues[formatter](value)
  return field.list ? (value) => memberValues.list(value, convert) : convert
}
