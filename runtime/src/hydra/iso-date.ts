/**
 * `Date#toISOString`, computed in JavaScript for the years 0000-9999 (every date a database
 * column holds in practice): the built-in leaves the optimised code for a runtime call on every
 * date, which made formatting the dates of a page as costly as serializing the rest of it. Dates
 * outside that range (written with a signed six-digit year) and invalid dates (a `RangeError`) go
 * to the built-in, so the result is always exactly the built-in's.
 */
const DAY = 86_400_000
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
const FIRST = -62_167_219_200_000
const LAST = 253_402_300_799_999
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'))
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'))

export function isoString(date: Date): string {
  const time = date.getTime()
  if (!(time >= FIRST && time <= LAST)) return date.toISOString()
  const days = Math.floor(time / DAY)
  let ms = time - days * DAY
  // Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's civil_from_days).
  const shifted = days + 719_468
  const era = Math.floor(shifted / 146_097)
  const dayOfEra = shifted - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365
  )
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const hours = Math.floor(ms / 3_600_000)
  ms -= hours * 3_600_000
  const minutes = Math.floor(ms / 60_000)
  ms -= minutes * 60_000
  const seconds = Math.floor(ms / 1000)
  ms -= seconds * 1000
  const two = TWO_DIGITS
  return `${two[Math.floor(year / 100)]}${two[year % 100]}-${two[month]}-${two[day]}T${two[hours]}:${two[minutes]}:${two[seconds]}.${THREE_DIGITS[ms]}Z`
}
