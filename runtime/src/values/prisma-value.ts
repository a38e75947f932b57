/**
 * Which JavaScript values Prisma takes for a field of each scalar type in a `where`. Prisma
 * refuses the others when it validates the query; some it takes only on some databases (a
 * fraction for an `Int` compares on SQLite, and fails on PostgreSQL), so the runtime checks a row
 * scope's values with this rule before any database reads them.
 */
import { isDecimal } from '../decimal.js'

const INT_32 = 2 ** 31
const DECIMAL_TEXT = /^-?[0-9]+(\.[0-9]+)?$/
/** A date-time as Prisma takes it in text: ISO 8601 with its time and offset. */
const DATE_TIME_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** Whether Prisma takes `value` for a field of Prisma type `type` (an enum's name: text). */
export function prismaTakes(value: unknown, type: string): boolean {
  switch (type) {
    case 'Int':
      return Number.isInteger(value) && (value as number) >= -INT_32 && (value as number) < INT_32
    case 'BigInt':
      return typeof value === 'bigint' || Number.isSafeInteger(value)
    case 'Float':
      return typeof value === 'number'
    case 'Decimal':
      return (
        typeof value === 'number' ||
        (typeof value === 'string' && DECIMAL_TEXT.test(value)) ||
        isDecimal(value)
      )
    case 'Boolean':
      return typeof value === 'boolean'
    case 'DateTime':
      return (
        (value instanceof Date && !Number.isNaN(value.getTime())) ||
        (typeof value === 'string' && DATE_TIME_TEXT.test(value))
      )
    case 'Bytes':
      return value instanceof Uint8Array
    case 'Json':
      return true
    default:
      return typeof value === 'string'
  }
}
