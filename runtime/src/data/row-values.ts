/**
 * @module
 * The values of a row read by the `compiled` engine, made the values Prisma's client returns for
 * the same row: what a driver adapter gives (text for dates, decimals and 64-bit integers on some
 * databases, 0/1 for booleans on SQLite and MySQL, text for JSON) turned, by the field's Prisma
 * type, into a Date, a Prisma Decimal, a bigint, a boolean, a parsed JSON value, a Uint8Array.
 * The end-to-end snapshot and fuzz suites compare both engines' answers byte for byte.
 */
import { Decimal } from '@prisma/client-runtime-utils'

type Convert = (value: unknown) => unknown

const bytes = (value: unknown): unknown => {
  if (ArrayBuffer.isView(value))
    return new Uint8Array(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))
  return value instanceof ArrayBuffer ? new Uint8Array(value.slice(0)) : value
}

const CONVERT: Record<string, Convert> = {
  Int: (value) => Number(value),
  Float: (value) => Number(value),
  BigInt: (value) => BigInt(value as string | number | bigint),
  Decimal: (value) => new Decimal(value as string | number),
  Boolean: (value) => value === true || value === 1 || value === '1' || value === 1n,
  DateTime: (value) => new Date(value as string | number),
  Json: (value) => (typeof value === 'string' ? JSON.parse(value) : value),
  Bytes: bytes,
}

/**
 * The reader of rows of `fields` of Prisma `types`. `typed`: the rows come from the client's raw
 * query, whose JSON is already parsed.
 */
export function rowReader(
  fields: readonly string[],
  types: readonly string[],
  typed = false
): (row: readonly unknown[]) => Record<string, unknown> {
  const converters = types.map((type) => (typed && type === 'Json' ? undefined : CONVERT[type]))
  return (row) => {
    const result: Record<string, unknown> = {}
    for (let index = 0; index < fields.length; index++) {
      const value = row[index]
      const convert = converters[index]
      result[fields[index] as string] = value === null || !convert ? value : convert(value)
    }
    return result
  }
}
