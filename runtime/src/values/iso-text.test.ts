import { describe, expect, it } from 'vitest'
import { isoText } from './iso-text.js'

/** A seeded sequence (mulberry32), so that a failure names times that replay. */
function randomTimes(seed: number, count: number, min: number, max: number): number[] {
  let state = seed
  const next = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  return Array.from({ length: count }, () => Math.floor(min + next() * (max - min)))
}

const text = (time: number) => isoText(new Date(time))
const v8 = (time: number) => new Date(time).toISOString()

describe('isoText: the text of Date.prototype.toISOString', () => {
  it.each([
    ['the epoch', 0],
    ['a millisecond before it', -1],
    ['the first time of year 0000', -62_167_219_200_000],
    ['the last time of year 9999', 253_402_300_799_999],
    ['29 February 2000', Date.UTC(2000, 1, 29, 23, 59, 59, 999)],
    ['1 March 1900 (no 29 February)', Date.UTC(1900, 2, 1)],
    ['31 December 1969, late', Date.UTC(1969, 11, 31, 23, 59, 59, 999)],
    ['year 0999', Date.UTC(999, 5, 15, 1, 2, 3, 4)],
    ['a time with 7 ms', Date.UTC(2024, 0, 1, 0, 0, 0, 7)],
    ['a time with 70 ms', Date.UTC(2024, 0, 1, 0, 0, 0, 70)],
  ])('%s', (_, time) => {
    expect(text(time)).toBe(v8(time))
  })

  it('agrees on every month from 1600 to 2400, every year of 0000-9999 and 15,000 times', () => {
    // The first millisecond of each month and the one before it: every length of a month, every
    // leap rule over two 400-year eras; and of each year's first day over the whole range.
    const months = Array.from({ length: 9_600 }, (_, month) => Date.UTC(1600, month, 1))
    // (setUTCFullYear, not Date.UTC, which reads years 0 to 99 as 1900 to 1999.)
    const years = Array.from({ length: 10_001 }, (_, year) =>
      new Date(0).setUTCFullYear(year, 0, 1)
    )
    const edges = [...months, ...years].flatMap((time) => [time, time - 1])
    // Times of day at random, from a fixed seed.
    const near = randomTimes(20_261_123, 10_000, Date.UTC(1600, 0, 1), Date.UTC(2400, 0, 1))
    const far = randomTimes(7, 5_000, -62_167_219_200_000, 253_402_300_799_999)
    const times = [...edges, ...near, ...far]
    // Gathered, one assertion: an expect per time would cost more than the comparisons.
    const differing = times.filter((time) => text(time) !== v8(time))
    expect(differing).toEqual([])
    expect(times.length).toBe(54_202)
  })

  it('leaves years outside 0000-9999 to toISOString (a sign and six digits)', () => {
    for (const time of [-62_167_219_200_001, 253_402_300_800_000, 8.64e15, -8.64e15]) {
      expect(text(time)).toBe(v8(time))
    }
    expect(text(-62_167_219_200_001)).toBe('-000001-12-31T23:59:59.999Z')
  })

  it('throws the RangeError of toISOString on an invalid date', () => {
    expect(() => isoText(new Date(Number.NaN))).toThrow(RangeError)
  })

  it('lets a Date subclass write its own text', () => {
    class Stored extends Date {
      override toISOString(): string {
        return 'as stored'
      }
    }
    expect(isoText(new Stored(0))).toBe('as stored')
  })
})
