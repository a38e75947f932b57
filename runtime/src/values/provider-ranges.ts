/**
 * What each database stores for the Prisma scalar types whose range depends on the database, as
 * Prisma maps the types by default (`Int` → 32-bit, `BigInt` → 64-bit, `Decimal` → DECIMAL(65,30),
 * `DateTime` → timestamp(3) / DATETIME(3) / ISO text). Read by the value rule
 * (`readColumnValue`); a value outside these ranges would make the database (or its driver
 * adapter) fail instead of answering.
 */

/** The datasource providers the runtime knows the ranges of. */
export type DatabaseProvider = 'sqlite' | 'postgresql' | 'mysql'

export interface ProviderRanges {
  int: { min: number; max: number }
  bigInt: { min: bigint; max: bigint }
  decimal: { integerDigits: number; fractionDigits: number }
  dateTime: { min: Date; max: Date }
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 }
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n }
/** Prisma's default DECIMAL(65,30): 35 digits before the point, 30 after it. */
const DECIMAL_65_30 = { integerDigits: 35, fractionDigits: 30 }
const LAST_INSTANT = new Date('9999-12-31T23:59:59.999Z')

const RANGES: Record<DatabaseProvider, ProviderRanges> = {
  // Dates are stored as ISO 8601 text and compared as text: only four-digit years sort right.
  sqlite: {
    int: INT32,
    bigInt: INT64,
    decimal: DECIMAL_65_30,
    dateTime: { min: new Date('0001-01-01T00:00:00.000Z'), max: LAST_INSTANT },
  },
  // timestamp(3) reaches 4713 BC to 294276 AD, but the driver adapter writes years before 1 and
  // after 9999 in forms PostgreSQL refuses (Prisma P2020).
  postgresql: {
    int: INT32,
    bigInt: INT64,
    decimal: DECIMAL_65_30,
    dateTime: { min: new Date('0001-01-01T00:00:00.000Z'), max: LAST_INSTANT },
  },
  // DATETIME(3): '1000-01-01 00:00:00.000' to '9999-12-31 23:59:59.999'.
  mysql: {
    int: INT32,
    bigInt: INT64,
    decimal: DECIMAL_65_30,
    dateTime: { min: new Date('1000-01-01T00:00:00.000Z'), max: LAST_INSTANT },
  },
}

/** What every supported database stores: the rules for a value whose provider is not known. */
const SHARED: ProviderRanges = {
  int: INT32,
  bigInt: INT64,
  decimal: DECIMAL_65_30,
  dateTime: { min: RANGES.mysql.dateTime.min, max: LAST_INSTANT },
}

/** The ranges of `provider`; for an unknown or left-out provider, those every database shares. */
export function rangesOf(provider: string | undefined): ProviderRanges {
  return provider !== undefined && Object.hasOwn(RANGES, provider)
    ? RANGES[provider as DatabaseProvider]
    : SHARED
}
