import { describe, expect, it } from 'vitest'
import { comparePositions, readToken, writeToken } from './change-token.js'

describe('change tokens', () => {
  it('read back the position they were written for', () => {
    for (const position of [{ id: 0n }, { id: 42n }, { id: 2n ** 63n - 1n }])
      expect(readToken(writeToken(position), 'sqlite')).toEqual(position)
    const pg = { tx: 1_234_567n, id: 8n }
    expect(readToken(writeToken(pg), 'postgresql')).toEqual(pg)
  })

  it('refuse what no position writes, and the other form of position', () => {
    const encode = (text: string) => Buffer.from(text).toString('base64url')
    for (const token of [
      '',
      '=',
      'x',
      '%00',
      encode('-1'),
      encode('01'),
      encode('1.2'),
      encode('9223372036854775808'),
      encode(' 1'),
      `${encode('12')}=`,
      'a'.repeat(65),
    ])
      expect(readToken(token, 'sqlite'), token).toBeUndefined()
    expect(readToken(encode('5'), 'postgresql')).toBeUndefined()
    expect(readToken(encode('5.1.2'), 'postgresql')).toBeUndefined()
  })

  it('order positions by transaction, then by id', () => {
    expect(comparePositions({ tx: 1n, id: 9n }, { tx: 2n, id: 1n })).toBe(-1)
    expect(comparePositions({ tx: 2n, id: 1n }, { tx: 2n, id: 1n })).toBe(0)
    expect(comparePositions({ id: 3n }, { id: 2n })).toBe(1)
  })
})
