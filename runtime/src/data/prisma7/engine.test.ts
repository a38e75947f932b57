import { describe, expect, it } from 'vitest'
import { countOf } from './engine.js'

describe('countOf', () => {
  it('reads a count from any driver type', () => {
    expect(countOf([{ total: 12n }])).toBe(12)
    expect(countOf([{ total: '12' }])).toBe(12)
    expect(countOf([{ total: 7 }])).toBe(7)
    expect(countOf([])).toBe(0)
  })
})
