/**
 * The one rule per Prisma scalar type for a value a client typed (an item id, a cursor value, a
 * filter value): read as the column's type, and only if the database of the schema's provider can
 * store it. A value that passes never makes the database fail (docs/errors.md#values-checked-against-the-column); one that does not
 * is answered by the caller: a 404 for an item id, a 400 naming the parameter otherwise.
 */
import { type ProviderRanges, SHARED_RANGES } from './provider-ranges.js'

/** The type of the column a value is compared with. */
export interface ColumnType {
  /** Prisma scalar type: `Int`, `BigInt`, `Float`, `Decimal`, `DateTime`, `String`, `Boolean`. */
  type: string
  /** A `@db.Uuid` String column: values must be UUIDs. */
  uuid?: boolean | undefined
}

/** A value read for a column, or what the column expects (for the caller's message). */
export type ColumnValue = { ok: true; value: unknown } | { ok: false; expected: string }

const INT = /^-?[0-9]+$/
const FLOAT = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/
const DECIMAL = /^-?([0-9]+)(?:\.([0-9]+))?$/
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const TRUE = new Set(['true', '1'])
const FALSE = new Set(['false', '0'])

const DATE_TIME_EXPECTED = 'an ISO 8601 date (2024-01-31) or date-time (2024-01-31T12:00:00Z)'

const fail = (expected: string): ColumnValue => ({ ok: false, expected })
const ok = (value: unknown): ColumnValue => ({ ok: true, value })

/**
 * Reads `raw` as a value of `column` within `ranges`, its database's (`rangesOf` of the dialect
 * table; left out: the rules every supported database shares, the strictest). Never throws on
 * client input.
 */
export function readColumnValue(
  column: ColumnType,
  raw: string,
  ranges: ProviderRanges = SHARED_RANGES
): ColumnValue {
  switch (column.type) {
    case 'Int': {
      if (!INT.test(raw)) return fail('an integer')
      const value = Number(raw)
      if (value < ranges.int.min || value > ranges.int.max) return fail('a 32-bit integer')
      return ok(value)
    }
    case 'BigInt': {
      if (!INT.test(raw)) return fail('an integer')
      const value = BigInt(raw)
      if (value < ranges.bigInt.min || value > ranges.bigInt.max) return fail('a 64-bit integer')
      return ok(value)
    }
    case 'Float': {
      const value = Number(raw)
      if (!FLOAT.test(raw) || !Number.isFinite(value)) return fail('a number')
      return ok(value)
    }
    case 'Decimal': {
      const match = DECIMAL.exec(raw)
      if (!match) return fail('a decimal number')
      const whole = (match[1] as string).replace(/^0+(?=.)/, '')
      const fraction = (match[2] ?? '').replace(/0+$/, '')
      const { integerDigits, fractionDigits } = ranges.decimal
      if (whole.length > integerDigits || fraction.length > fractionDigits) {
        return fail(
          `a decimal number of at most ${integerDigits} digits before the point and ${fractionDigits} after it`
        )
      }
      return ok(raw)
    }
    case 'DateTime': {
      const value = readDate(raw)
      if (!value) return fail(DATE_TIME_EXPECTED)
      const time = value.getTime()
      if (time < ranges.dateTime.min.getTime() || time > ranges.dateTime.max.getTime()) {
        return fail(
          `a date-time from ${ranges.dateTime.min.toISOString()} to ${ranges.dateTime.max.toISOString()}`
        )
      }
      return ok(value)
    }
    case 'Boolean': {
      const text = raw.toLowerCase()
      if (TRUE.has(text)) return ok(true)
      if (FALSE.has(text)) return ok(false)
      return fail('true or false')
    }
    default: {
      // String and enums: text the database can store. A NUL is refused on every database:
      // PostgreSQL's text types cannot hold it, SQLite's LIKE ends its pattern there (a filter that
      // selects every row) and MariaDB's matches nothing; one request means one thing everywhere.
      if (column.uuid && !UUID.test(raw)) return fail('a UUID')
      if (raw.includes('\u0000')) return fail('text without a NUL character')
      return ok(raw)
    }
  }
}

/**
 * An ISO 8601 date or date-time whose every part exists (no 30 February, no hour 24). Without an
 * offset, a date-time is UTC, whatever the server's time zone.
 */
function readDate(raw: string): Date | undefined {
  const match = ISO_DATE.exec(raw)
  if (!match) return undefined
  const [
    ,
    year,
    month,
    day,
    hour = '0',
    minute = '0',
    second = '0',
    offsetHour = '0',
    offsetMinute = '0',
  ] = match
  const days = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate()
  const valid =
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= days &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHour) <= 23 &&
    Number(offsetMinute) <= 59
  const value = new Date(
    match[4] !== undefined && !/(Z|[+-]\d{2}:?\d{2})$/.test(raw) ? `${raw}Z` : raw
  )
  return valid && !Number.isNaN(value.getTime()) ? value : undefined
}
