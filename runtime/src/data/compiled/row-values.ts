/**
 * @module
 * The values of a row read by the `compiled` engine, made the values Prisma's client returns for
 * the same row: what a driver adapter gives (text for dates, decimals and 64-bit integers on some
 * databases, 0/1 for booleans on SQLite and MySQL, text for JSON) turned, by the field's Prisma
 * type, into a Date, a Prisma Decimal, a bigint, a boolean, a parsed JSON value, a Uint8Array.
 * The end-to-end snapshot and fuzz suites compare both engines' answers byte for byte.
 */
import { Decimal } from '@prisma/client-runtime-utils'
import type { CompiledEnums } from '../../contract/model-source.js'
import { enumReader } from './enum-names.js'
import { adapterTime, adapterTimestamp } from './server-timestamp.js'

type Convert = (value: unknown) => unknown

const bytes = (value: unknown): unknown => {
  if (ArrayBuffer.isView(value))
    return new Uint8Array(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))
  return value instanceof ArrayBuffer ? new Uint8Array(value.slice(0)) : value
}

/**
 * A Date read from the text of a UTC date-time, which knows its ISO text (`toISOString()`, what
 * JSON and the rendering write) from that text: written from the time value again it cost a page
 * of 31 dates 20 µs of the 30 their parse and ISO text took (docs/performance.md). Otherwise a
 * Date like Prisma's; once its time is set to another, its ISO text is written from the time.
 */
class StoredDate extends Date {
  readonly #time: number
  readonly #iso: string

  constructor(time: number, iso: string) {
    super(time)
    this.#time = time
    this.#iso = iso
  }

  override toISOString(): string {
    return this.getTime() === this.#time ? this.#iso : super.toISOString()
  }
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
/** The days of `month` (1-12) of `year`, in the proleptic Gregorian calendar. */
const daysIn = (year: number, month: number) =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
    ? 29
    : (DAYS[month - 1] as number)
/** The digits at `at` and `at + 1` as a number, or -1 when either is not a digit. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 48
  const units = text.charCodeAt(at + 1) - 48
  return tens >= 0 && tens <= 9 && units >= 0 && units <= 9 ? tens * 10 + units : -1
}
const isDigit = (code: number) => code >= 48 && code <= 57

const T = 84
const SPACE = 32

/**
 * Whether `text` has `-`, `-`, `separator` (`T`, or a space), `:`, `:` where `YYYY-MM-DDTHH:MM:SS`
 * has them.
 */
const shaped = (text: string, separator: number) =>
  text.charCodeAt(4) === 45 &&
  text.charCodeAt(7) === 45 &&
  text.charCodeAt(10) === separator &&
  text.charCodeAt(13) === 58 &&
  text.charCodeAt(16) === 58

/**
 * The time of the UTC `YYYY-MM-DDTHH:MM:SS` `text` starts with (`separator` between the date and
 * the time), and `ms`, or NaN when it has no such start or a field is out of range (a year before
 * 1000, a 30th of February, hour 24).
 */
function utcTime(text: string, ms: number, separator = T): number {
  if (!shaped(text, separator)) return Number.NaN
  const century = twoDigits(text, 0)
  const years = twoDigits(text, 2)
  const year = century * 100 + years
  const month = twoDigits(text, 5)
  const day = twoDigits(text, 8)
  const hours = twoDigits(text, 11)
  const minutes = twoDigits(text, 14)
  const seconds = twoDigits(text, 17)
  const valid =
    century >= 10 &&
    years >= 0 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    hours >= 0 &&
    hours <= 23 &&
    minutes >= 0 &&
    minutes <= 59 &&
    seconds >= 0 &&
    seconds <= 59
  return valid ? Date.UTC(year, month - 1, day, hours, minutes, seconds, ms) : Number.NaN
}

/**
 * A date-time as the drivers' adapters give it: `YYYY-MM-DDTHH:MM:SS`, up to three digits of a
 * second, `+00:00` or `Z` (SQLite's stored text, PostgreSQL's and MariaDB's as their adapters
 * write them) is read field by field into a StoredDate; anything else (another zone, more digits,
 * a field out of range) is the Date `new Date(text)` reads.
 */
function dateOf(value: unknown): Date {
  // A Date of a reader's own (utcDateTime), made for this row.
  if (value instanceof Date) return value
  if (typeof value !== 'string') return new Date(value as number)
  // PostgreSQL's own text (a driver without Prisma 7's adapter): the adapter's form first.
  const text =
    value.charCodeAt(10) === 32
      ? adapterTimestamp(value)
      : value.charCodeAt(2) === 58
        ? adapterTime(value)
        : value
  let digits = 0
  if (text.charCodeAt(19) === 46) {
    while (digits < 3 && isDigit(text.charCodeAt(20 + digits))) digits++
    if (digits === 0) return new Date(text)
  }
  const zone = text.slice(digits === 0 ? 19 : 20 + digits)
  if (zone !== 'Z' && zone !== '+00:00') return new Date(text)
  const fraction = text.slice(20, 20 + digits).padEnd(3, '0')
  const time = utcTime(text, Number(fraction))
  return Number.isNaN(time)
    ? new Date(text)
    : new StoredDate(time, `${text.slice(0, 19)}.${fraction}Z`)
}

/**
 * The StoredDate of the `mariadb` driver's text of a DATETIME or TIMESTAMP read as UTC,
 * `YYYY-MM-DD HH:MM:SS` and up to six digits of a second, of which the first three are kept (as
 * `@prisma/adapter-mariadb`'s `mapRow` keeps them); undefined for any other text, or a field out of
 * range. The compiled engine's MariaDB reader (compiled/mariadb.ts) reads each once this way,
 * rather than writing the adapter's text for dateOf to read again.
 */
export function utcDateTime(text: string): Date | undefined {
  let digits = 0
  if (text.length > 19) {
    if (text.charCodeAt(19) !== 46) return undefined
    while (isDigit(text.charCodeAt(20 + digits))) digits++
    if (digits === 0 || digits > 6 || text.length !== 20 + digits) return undefined
  } else if (text.length !== 19) return undefined
  const fraction = text.slice(20, 23).padEnd(3, '0')
  const time = utcTime(text, Number(fraction), SPACE)
  if (Number.isNaN(time)) return undefined
  return new StoredDate(time, `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`)
}

const CONVERT: Record<string, Convert> = {
  Int: (value) => Number(value),
  Float: (value) => Number(value),
  BigInt: (value) => BigInt(value as string | number | bigint),
  Decimal: (value) => new Decimal(value as string | number),
  Boolean: (value) => value === true || value === 1 || value === '1' || value === 1n,
  DateTime: dateOf,
  Json: (value) => (typeof value === 'string' ? JSON.parse(value) : value),
  Bytes: bytes,
}

/**
 * The reader of rows of `fields` of Prisma `types`. `typed`: the rows come from the client's raw
 * query, whose JSON is already parsed. `enums`: the enums stored under other names, whose
 * columns hold those names (compiled/enum-names.ts).
 */
export function rowReader(
  fields: readonly string[],
  types: readonly string[],
  typed = false,
  enums?: CompiledEnums | undefined
): (row: readonly unknown[]) => Record<string, unknown> {
  const converters = types.map((type) =>
    typed && type === 'Json' ? undefined : (CONVERT[type] ?? enumReader(enums, type))
  )
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
