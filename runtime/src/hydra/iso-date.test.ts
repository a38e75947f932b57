import { describe, expect, it } from 'vitest'
import { isoString } from './iso-date.js'

describe('isoString', () => {
  it.each([
    ['the first instant of year 0', Date.parse('0000-01-01T00:00:00.000Z')],
    ['the epoch', 0],
    ['a millisecond before the epoch', -1],
    ['29 February 2000', Date.UTC(2000, 1, 29, 12, 30, 45, 678)],
    ['the end of 28 February 1900 (no leap day)', Date.UTC(1900, 1, 28, 23, 59, 59, 999)],
    ['1 March 2100', Date.UTC(2100, 2, 1)],
    ['31 December 1969, 23:59:59.999', Date.UTC(1969, 11, 31, 23, 59, 59, 999)],
    ['the last instant of year 9999', Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
    ['year 1', -62_135_596_800_000],
  ])('writes %s as the built-in does', (_, time) => {
    const date = new Date(time)
    expect(isoString(date)).toBe(date.toISOString())
  })

  it('writes 200,000 instants spread over years 0-9999 as the built-in does', () => {
    const first = Date.parse('0000-01-01T00:00:00.000Z')
    const span = Date.UTC(9999, 11, 31, 23, 59, 59, 999) - first + 1
    // An odd step near 0.618 of the span visits every part of it, down to the millisecond.
    const step = 195_012_345_678_901
    const wrong: string[] = []
    let offset = 0
    for (let i = 0; i < 200_000; i++) {
      offset = (offset + step) % span
      const date = new Date(first + offset)
      if (isoString(date) !== date.toISOString()) wrong.push(date.toISOString())
    }
    expect(wrong).toEqual([])
  })

  it('leaves years outside 0-9999 to the built-in (signed six-digit years)', () => {
    for (const date of [new Date(Date.UTC(10_000, 0, 1)), new Date(-62_167_219_200_001)]) {
      expect(isoString(date)).toBe(date.toISOString())
    }
    expect(isoString(new Date(Date.UTC(10_000, 0, 1)))).toBe('+010000-01-01T00:00:00.000Z')
  })

  it('throws the built-in RangeError for an invalid date', () => {
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError)
  })
})
