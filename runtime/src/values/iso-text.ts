/**
 * @module
 * The ISO 8601 text of a Date (`2024-03-01T12:00:00.000Z`), as `Date.prototype.toISOString`
 * writes it, for the values a response writes: members' date-times, item keys and cursor links.
 *
 * Written by hand because V8's own costs 0.4-0.6 µs a call on Node 20 (a page of 30 dates, 13 µs
 * of the route's work), while this integer arithmetic costs about half of that: the last line of
 * `npm run bench:route` (bench/route-work.ts). No library offers it faster: date libraries format
 * through `toISOString` or the `getUTC*` accessors. Years outside 0000-9999 (written with a sign
 * and six digits), invalid dates (a RangeError) and Date subclasses with their own text (the
 * compiled engine's stored dates) are left to `toISOString`.
 */

const MS_PER_DAY = 86_400_000
/** The first and last time of years 0000 and 9999. */
const EARLIEST = -62_167_219_200_000
const LATEST = 253_402_300_799_999

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`)
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`)
const four = (n: number): string =>
  n < 10 ? `000${n}` : n < 100 ? `00${n}` : n < 1000 ? `0${n}` : `${n}`

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
  return `${four(year)}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${three(ms)}Z`
}
