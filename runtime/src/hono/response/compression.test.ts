import { describe, expect, it } from 'vitest'
import { codingFor } from './compression.js'

describe('the coding of a response (Accept-Encoding, RFC 9110 12.5.3)', () => {
  it.each([
    ['no header', undefined, undefined],
    ['identity alone', 'identity', undefined],
    ['gzip', 'gzip', 'gzip'],
    ['both, the first offered on a tie', 'deflate, gzip', 'gzip'],
    ['the higher quality', 'gzip;q=0.5, deflate', 'deflate'],
    ['case and spaces', ' GZIP ; Q = 0.8 ', 'gzip'],
    ['a wildcard', 'br, *;q=0.1', 'gzip'],
    ['a coding refused, another by the wildcard', 'gzip;q=0, *', 'deflate'],
    ['everything refused', 'gzip;q=0, deflate;q=0', undefined],
    ['a quality that is no number', 'gzip;q=high', undefined],
    ['codings it does not write', 'br, zstd', undefined],
    ['an empty header', '', undefined],
  ] as const)('%s', (_, header, coding) => {
    expect(codingFor(header, ['gzip', 'deflate'])).toBe(coding)
  })

  it('offers only the codings the app allows', () => {
    expect(codingFor('gzip, deflate', ['deflate'])).toBe('deflate')
  })
})
