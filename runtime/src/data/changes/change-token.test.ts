import { describe, expect, it } from 'vitest'
import { comparePositions, newSecret, readToken, tokenKey, writeToken } from './change-token.js'

describe('change tokens', () => {
  it('read back the position they were sealed for, under the same key and feed', async () => {
    const key = await tokenKey(newSecret())
    for (const position of [{ id: 0n }, { id: 42n }, { id: 2n ** 63n - 1n }])
      expect(
        await readToken(key, 'Note', await writeToken(key, 'Note', position), 'sqlite')
      ).toEqual(position)
    const pg = { tx: 2n ** 63n - 1n, id: 2n ** 63n - 1n }
    const longest = await writeToken(key, 'Note', pg)
    expect(await readToken(key, 'Note', longest, 'postgresql')).toEqual(pg)
  })

  it('tell nothing of the position: the same one seals differently, all to one length', async () => {
    const key = await tokenKey(newSecret())
    const [one, two] = await Promise.all([
      writeToken(key, 'Note', { id: 7n }),
      writeToken(key, 'Note', { id: 7n }),
    ])
    expect(one).not.toBe(two)
    const lengths = await Promise.all(
      [0n, 9n, 10n, 1_000_000n, 10n ** 18n].map(async (id) => ({
        sqlite: (await writeToken(key, 'Note', { id })).length,
        postgresql: (await writeToken(key, 'Note', { tx: id, id })).length,
      }))
    )
    expect(new Set(lengths.map((length) => JSON.stringify(length)))).toEqual(
      new Set([JSON.stringify({ sqlite: 59, postgresql: 70 })])
    )
  })

  it('refuse a token altered, of another feed, or of the other form of position', async () => {
    const key = await tokenKey(newSecret())
    const token = await writeToken(key, 'Note', { id: 5n })
    const bytes = Buffer.from(token, 'base64url')
    for (let index = 4; index < bytes.length; index++) {
      const altered = Buffer.from(bytes)
      altered[index] = (altered[index] as number) ^ 1
      expect(await readToken(key, 'Note', altered.toString('base64url'), 'sqlite')).toBeUndefined()
    }
    expect(await readToken(key, 'Label', token, 'sqlite')).toBeUndefined()
    expect(await readToken(key, 'Note', token, 'postgresql')).toBeUndefined()
    for (const malformed of ['', 'x', '%00', `${token}=`, `${token}A`, 'a'.repeat(200)])
      expect(await readToken(key, 'Note', malformed, 'sqlite'), malformed).toBeUndefined()
  })

  it("tell a token of another key apart, by the key's id", async () => {
    const [key, other] = await Promise.all([tokenKey(newSecret()), tokenKey(newSecret())])
    const token = await writeToken(other, 'Note', { id: 5n })
    expect(await readToken(key, 'Note', token, 'sqlite')).toBe('other key')
  })

  it('order positions by transaction, then by id', () => {
    expect(comparePositions({ tx: 1n, id: 9n }, { tx: 2n, id: 1n })).toBe(-1)
    expect(comparePositions({ tx: 2n, id: 1n }, { tx: 2n, id: 1n })).toBe(0)
    expect(comparePositions({ id: 3n }, { id: 2n })).toBe(1)
  })
})
