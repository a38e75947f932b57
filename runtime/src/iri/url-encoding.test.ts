import { describe, expect, it } from 'vitest'
import { rawUrlEncode, urlDecode } from './url-encoding.js'

describe('urlDecode', () => {
  it.each([
    ['plain', 'plain'],
    ['a+b', 'a b'],
    ['a%20b', 'a b'],
    ['%2fdummies%2F8', '/dummies/8'],
    ['caf%C3%A9', 'café'],
    ['café', 'café'],
    ['%zz', '%zz'],
    ['100%', '100%'],
    ['%4', '%4'],
    ['%%41', '%A'],
    ['%2B', '+'],
    ['%E9', '\uFFFD'],
    ['%EF%BB%BFx', '\uFEFFx'],
  ])('%j → %j', (input, expected) => {
    expect(urlDecode(input)).toBe(expected)
  })
})

describe('rawUrlEncode', () => {
  it.each([
    ['AZaz09-_.~', 'AZaz09-_.~'],
    [' ', '%20'],
    ['[]', '%5B%5D'],
    ['/:+#', '%2F%3A%2B%23'],
    ["!*'()", '%21%2A%27%28%29'],
    ['&=?%', '%26%3D%3F%25'],
    ['café', 'caf%C3%A9'],
    ['😀', '%F0%9F%98%80'],
    ['\uD800', '%EF%BF%BD'],
  ])('%j → %j', (input, expected) => {
    expect(rawUrlEncode(input)).toBe(expected)
  })
  it('writes the RFC 3986 escape of each UTF-8 byte of any text, lone surrogates included', () => {
    // The definition, byte by byte, against 20,000 seeded strings drawn from ASCII, the rest of
    // the BMP (surrogates alone included) and astral characters.
    const unreserved = /[A-Za-z0-9\-_.~]/
    const reference = (text: string) =>
      [...Buffer.from(text, 'utf8')]
        .map((byte) =>
          unreserved.test(String.fromCharCode(byte)) && byte < 0x80
            ? String.fromCharCode(byte)
            : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
        )
        .join('')
    let state = 20_261_124
    const next = (below: number) => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0
      return state % below
    }
    const unit = () => {
      const kind = next(4)
      if (kind === 0) return String.fromCharCode(0x20 + next(0x5f))
      if (kind === 1) return String.fromCharCode(next(0x10000))
      if (kind === 2) return String.fromCodePoint(0x10000 + next(0xfffff))
      return "!*'()%+ :/[]"[next(12)] as string
    }
    const differing: string[] = []
    for (let index = 0; index < 20_000; index++) {
      const text = Array.from({ length: 1 + next(8) }, unit).join('')
      if (rawUrlEncode(text) !== reference(text)) differing.push(text)
    }
    expect(differing).toEqual([])
  })
})
