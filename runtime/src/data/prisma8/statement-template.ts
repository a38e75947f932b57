/**
 * @module
 * A compiled statement (compiled-query.ts: its text, its parameters `$1`…`$n` and their types) as
 * the template a Prisma 8 raw tag takes (`` db.raw.sql`…${value}…` ``): the text cut at each
 * parameter, and each parameter's value as `@prisma/adapter-pg`'s `mapArg` hands it to
 * node-postgres, so that PostgreSQL receives the same text for it under both majors. Prisma 8
 * binds each value interpolated into the tag as one parameter of its own, numbered in the order of
 * the text, and sends it untyped, as node-postgres does: PostgreSQL infers its type from where it
 * stands, as it does for the compiled engine's statements on Prisma 7.
 */
import type { ArgType, SqlQuery } from '../compiled/query.js'

/** A value the raw tag binds as a parameter (Prisma 8's `RawSqlLiteral`). */
export type RawValue = string | number | boolean | bigint | Uint8Array

/** The texts between the parameters (TemplateStringsArray) and the parameters' values. */
export type StatementTemplate = readonly [strings: TemplateStringsArray, values: RawValue[]]

const DOUBLE_QUOTE = 34
const SINGLE_QUOTE = 39
const DOLLAR = 36

const isDigit = (code: number) => code >= 48 && code <= 57
/** A character that continues an identifier: after one, `$1` is part of the name. */
const inWord = (code: number) =>
  isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95

/**
 * `query` as a template: each `$n` outside quotes a value (a `$n` in a quoted name or in a text
 * stays text), and a null parameter the text `NULL`, which PostgreSQL reads as it reads a null
 * parameter (the raw tag binds no null: a value's type says which codec encodes it).
 */
export function statementTemplate(query: SqlQuery): StatementTemplate {
  const { sql } = query
  const strings: string[] = []
  const values: RawValue[] = []
  let text = ''
  let from = 0
  let at = 0
  while (at < sql.length) {
    const code = sql.charCodeAt(at)
    if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE) {
      // A doubled quote inside is the quote itself: the scan steps over it as over any other.
      const end = sql.indexOf(String.fromCharCode(code), at + 1)
      at = end < 0 ? sql.length : end + 1
      continue
    }
    if (code !== DOLLAR || !isDigit(sql.charCodeAt(at + 1)) || inWord(sql.charCodeAt(at - 1))) {
      at++
      continue
    }
    let end = at + 1
    while (isDigit(sql.charCodeAt(end))) end++
    const index = Number(sql.slice(at + 1, end)) - 1
    if (index < 0 || index >= query.args.length)
      throw new Error(`The statement's parameter ${sql.slice(at, end)} has no value.`)
    text += sql.slice(from, at)
    const value = argument(query.args[index], query.argTypes[index])
    if (value === null) text += 'NULL'
    else {
      strings.push(text)
      values.push(value)
      text = ''
    }
    from = at = end
  }
  strings.push(text + sql.slice(from))
  return [Object.assign(strings, { raw: [...strings] }), values]
}

/**
 * A parameter as `@prisma/adapter-pg`'s `mapArg` writes it for node-postgres, but a date-time: its
 * UTC text with its zone, which a `timestamp` column ignores and a `timestamptz` one (Prisma 8's
 * DateTime) reads, where text without a zone would be read in the session's time zone; bytes given as base64 text as the bytes, any view of bytes as a
 * Uint8Array; JSON (an object) as its text, as node-postgres writes an object. Null for null.
 */
function argument(value: unknown, type: ArgType | undefined): RawValue | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' && type?.scalarType === 'datetime')
    return dateTimeText(new Date(value))
  if (value instanceof Date) return dateTimeText(value)
  if (typeof value === 'string' && type?.scalarType === 'bytes') return base64Bytes(value)
  if (value instanceof Uint8Array) return value
  if (ArrayBuffer.isView(value))
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  if (typeof value === 'object') return JSON.stringify(value)
  if (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint'
  )
    return value
  throw new Error(`A statement's parameter cannot be a ${typeof value}.`)
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0')

/** `YYYY-MM-DD HH:MM:SS[.mmm]+00:00`: `@prisma/adapter-pg`'s formatDateTime, and the zone. */
function dateTimeText(date: Date): string {
  const ms = date.getUTCMilliseconds()
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}` +
    (ms ? `.${pad(ms, 3)}` : '') +
    '+00:00'
  )
}

/** The bytes of base64 `text`. */
function base64Bytes(text: string): Uint8Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}
