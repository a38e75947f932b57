/**
 * @module
 * PHP's array keys: which string keys are integers (and so where `[]` appends next), and how
 * `ksort` orders the top-level keys of a query (docs/paging.md#link-normal-form). Pure.
 */

/** PHP_INT_MIN and PHP_INT_MAX (64 bits): the range of an integer key. */
const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n
const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]*)$/

/** The PHP integer key a string array key turns into, if any (`'5'`, `'-3'`; not `'05'`, `'-0'`). */
export function integerKey(key: string): bigint | undefined {
  if (!CANONICAL_INTEGER.test(key) || key.length > 20) return undefined
  const value = BigInt(key)
  return value >= INT64_MIN && value <= INT64_MAX ? value : undefined
}

const PHP_WHITESPACE = '[ \\t\\n\\r\\v\\f]*'
const NUMERIC_STRING = new RegExp(
  `^${PHP_WHITESPACE}[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?${PHP_WHITESPACE}$`
)
const INTEGER_STRING = new RegExp(`^${PHP_WHITESPACE}[+-]?[0-9]+${PHP_WHITESPACE}$`)

function numericValue(key: string): bigint | number | undefined {
  if (!NUMERIC_STRING.test(key)) return undefined
  if (INTEGER_STRING.test(key)) {
    const value = BigInt(key.trim())
    if (value >= INT64_MIN && value <= INT64_MAX) return value
  }
  return Number(key.trim())
}

/**
 * Compares two top-level keys the way PHP 8 `ksort()` (SORT_REGULAR) does: two numeric keys
 * (integer keys, or numeric strings such as `'1.5'` or `'1e1'`) compare as numbers, anything else
 * compares byte by byte on the UTF-8 encoding (digits < upper case < `_` < lower case).
 */
export function compareQueryKeys(a: string, b: string): number {
  const left = numericValue(a)
  if (left !== undefined) {
    const right = numericValue(b)
    if (right !== undefined) {
      if (typeof left === 'bigint' && typeof right === 'bigint') {
        return left < right ? -1 : left > right ? 1 : 0
      }
      const difference = Number(left) - Number(right)
      return difference < 0 ? -1 : difference > 0 ? 1 : 0
    }
  }
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}
