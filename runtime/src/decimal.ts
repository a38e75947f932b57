/** A Prisma Decimal (decimal.js): written in plain notation (`toFixed()`), never as `1e-7`. */
export function isDecimal(value: unknown): value is { toFixed(decimals?: number): string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toFixed?: unknown }).toFixed === 'function'
  )
}
