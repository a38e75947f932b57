/**
 * What a database stores for the Prisma scalar types whose range depends on the database, as
 * Prisma maps the types by default (`Int` → 32-bit, `BigInt` → 64-bit, `Decimal` → DECIMAL(65,30),
 * `DateTime` → timestamp(3) / DATETIME(3) / ISO text). Each database's own are in the dialect
 * table (database/dialects.ts); a value outside them would make the database (or its driver
 * adapter) fail instead of answering.
 */

/** The ranges of one database, by the Prisma type they bound. */
export interface ProviderRanges {
  /** An `Int`'s smallest and largest value. */
  int: {
    /** The smallest. */
    min: number
    /** The largest. */
    max: number
  }
  /** A `BigInt`'s smallest and largest value. */
  bigInt: {
    /** The smallest. */
    min: bigint
    /** The largest. */
    max: bigint
  }
  /** A `Decimal`'s digits. */
  decimal: {
    /** The most digits before the point. */
    integerDigits: number
    /** The most digits after the point. */
    fractionDigits: number
  }
  /** A `DateTime`'s first and last instant. */
  dateTime: {
    /** The first. */
    min: Date
    /** The last. */
    max: Date
  }
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 }
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n }
/** Prisma's default DECIMAL(65,30): 35 digits before the point, 30 after it. */
const DECIMAL_65_30 = { integerDigits: 35, fractionDigits: 30 }
const LAST_INSTANT = new Date('9999-12-31T23:59:59.999Z')

/** The ranges of a database whose dates start at `firstInstant` (ISO 8601). */
export function rangesFrom(firstInstant: string): ProviderRanges {
  return {
    int: INT32,
    bigInt: INT64,
    decimal: DECIMAL_65_30,
    dateTime: { min: new Date(firstInstant), max: LAST_INSTANT },
  }
}

/**
 * What every supported database stores, the strictest (MySQL's dates start at year 1000): the
 * rules for a value whose database is not known.
 */
export const SHARED_RANGES: ProviderRanges = rangesFrom('1000-01-01T00:00:00.000Z')
