import { describe, expect, it } from 'vitest'
import { readPreferences } from './prefer-header.js'

const read = (...lines: string[]) => Object.fromEntries(readPreferences(lines))

describe('readPreferences (RFC 7240 section 2)', () => {
  it('reads each preference of a list over one or several lines, names in lower case', () => {
    expect(read('respond-async, wait=10', 'Count=exact')).toEqual({
      'respond-async': '',
      wait: '10',
      count: 'exact',
    })
  })

  it('keeps the first of a preference given twice', () => {
    expect(read('count=none, count=exact')).toEqual({ count: 'none' })
    expect(read('count=none', 'count=exact')).toEqual({ count: 'none' })
  })

  it('reads quoted values with their escapes, and commas and semicolons inside them', () => {
    expect(read('count="exact"')).toEqual({ count: 'exact' })
    expect(read('a="x,y;z", b="say \\"hi\\""')).toEqual({ a: 'x,y;z', b: 'say "hi"' })
  })

  it('reads the parameters after a preference for their form only', () => {
    expect(read('count=none; foo=bar; baz, other ; q="1"')).toEqual({ count: 'none', other: '' })
    expect(read('count=none;')).toEqual({ count: 'none' })
  })

  it('leaves out what is not a preference, keeping the rest', () => {
    for (const malformed of [
      'count=',
      'count="none',
      'count=none x',
      '=none',
      '"count"=none',
      'count=none"',
      'count=\\none',
      'count=a=b',
      'count=none; =x',
      'cöunt=none',
    ])
      expect([malformed, read(malformed, 'ok')]).toEqual([malformed, { ok: '' }])
    expect(read(',, ,count=exact,')).toEqual({ count: 'exact' })
    expect(read('')).toEqual({})
  })

  it('takes a malformed first count as no count, the next well-formed one counting', () => {
    expect(read('count=, count=none')).toEqual({ count: 'none' })
  })
})
