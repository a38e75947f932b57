/**
 * The one text an item IRI writes for a key value (docs/hydra.md#identifiers), and whether a text
 * a client sent is that text: `12` for 12, never `012`; a date-time's `toISOString()` form; a
 * decimal without leading zeros or trailing fraction zeros; a `@db.Uuid` in lower case, as
 * PostgreSQL writes it. Any other spelling names no item, in a path or in a filter.
 */
import { isDecimal } from '../decimal.js'
import type { ColumnType } from './column-value.js'
import { isoText } from './iso-text.js'

/** A key value of `kind` (a Prisma scalar type, or `Enum`) as text, before percent-encoding. */
export function keyText(kind: string, value: unknown): string {
  switch (kind) {
    case 'DateTime':
      return value instanceof Date ? isoText(value) : String(value)
    case 'Decimal':
      return isDecimal(value) ? canonicalDecimal(value.toFixed()) : canonicalDecimal(String(value))
    case 'Bytes':
      return Buffer.from(value as Uint8Array).toString('base64url')
    default:
      return String(value)
  }
}

/**
 * Whether `text`, read as `value` of `column`, is the way IRIs write that value. Text keys are
 * written as they are stored: any text is its own spelling but a `@db.Uuid`'s in upper case.
 */
export function isKeyText(column: ColumnType, text: string, value: unknown): boolean {
  if (column.type === 'String' || column.type === 'Enum')
    return !column.uuid || text === text.toLowerCase()
  return keyText(column.type, value) === text
}

/** A decimal's text without leading zeros, trailing fraction zeros or a negative zero. */
function canonicalDecimal(text: string): string {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text)
  if (!match) return text
  const whole = (match[2] as string).replace(/^0+(?=.)/, '')
  const fraction = (match[3] ?? '').replace(/0+$/, '')
  const digits = fraction ? `${whole}.${fraction}` : whole
  return match[1] && digits !== '0' ? `-${digits}` : digits
}
