/**
 * @module
 * The ISO 8601 text of a Date (`2024-03-01T12:00:00.000Z`), as `Date.prototype.toISOString`
 * writes it, for the values a response writes: members' date-times, item keys and cursor links.
 *
 * Written by hand because V8's own costs 0.4-0.6 µs a call on Node 20 (a page of 30 dates, 13 µs
 * of the route's work), while this integer arithmetic costs a third of that: bench/RESULTS.md,
 * "Retired experiments and what they found", "The route's own work" (its command and the commit to
 * run it at). The text is made in one piece from its character codes, one string of 24 characters
 * a date as `toISOString` makes: joined from its parts (`${year}-${month}…`), it was a tree of a
 * dozen strings that the body's serialization then copied, nine times the memory a date and
 * slower than V8's own once that memory had to be collected. No library offers it faster: date
 * libraries format through `toISOString` or the `getUTC*` accessors. Years outside 0000-9999
 * (written with a sign and six digits), invalid dates (a RangeError) and Date subclasses with their
 * own text (the compiled engine's stored dates) are left to `toISOString`.
 */

const MS_PER_DAY = 86_400_000
/** The first and last time of years 0000 and 9999. */
const EARLIEST = -62_167_219_200_000
const LATEST = 253_402_300_799_999

/**
 * The character code of the decimal digit of `n` (0 to 9999) at `place` (1, 10, 100, 1000). In
 * 32-bit integers (`| 0`): with `Math.floor`, V8 passed each code to `String.fromCharCode` as a
 * boxed double, 70 bytes a date more (the same section of bench/RESULTS.md).
 */
const digit = (n: number, place: number): number => 48 + (((n / place) | 0) % 10)
const DASH = 0x2d // -
const COLON = 0x3a // :
const DOT = 0x2e // .
const T = 0x54
const Z = 0x5a

/**
 * The civil (proleptic Gregorian) year, month and day of `days` since 1970-01-01: H. Hinnant's
 * `civil_from_days` (chrono-Compatible Low-Level Date Algorithms).
 */
function civil(days: number): [year: number, month: number, day: number] {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365
  )
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const shifted = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1
  const month = shifted < 10 ? shifted + 3 : shifted - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  return [year, month, day]
}

/** `date.toISOString()`, the same text. */
export function isoText(date: Date): string {
  const time = date.getTime()
  if (!(time >= EARLIEST && time <= LATEST) || Object.getPrototypeOf(date) !== Date.prototype) {
    return date.toISOString()
  }
  const days = Math.floor(time / MS_PER_DAY)
  let rest = time - days * MS_PER_DAY
  const [year, month, day] = civil(days)
  const ms = rest % 1000
  rest = (rest - ms) / 1000
  const seconds = rest % 60
  rest = (rest - seconds) / 60
  const minutes = rest % 60
  const hours = (rest - minutes) / 60
  return String.fromCharCode(
    digit(year, 1000),
    digit(year, 100),
    digit(year, 10),
    digit(year, 1),
    DASH,
    digit(month, 10),
    digit(month, 1),
    DASH,
    digit(day, 10),
    digit(day, 1),
    T,
    digit(hours, 10),
    digit(hours, 1),
    COLON,
    digit(minutes, 10),
    digit(minutes, 1),
    COLON,
    digit(seconds, 10),
    digit(seconds, 1),
    DOT,
    digit(ms, 100),
    digit(ms, 10),
    digit(ms, 1),
    Z
  )
}
