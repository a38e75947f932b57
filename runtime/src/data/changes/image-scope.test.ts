import { describe, expect, it } from 'vitest'
import { readWhere } from '../../plan/scope-reader.js'
import { scopeHeldOn, UnknownScope } from './image-scope.js'

const types = new Map([
  ['owner', 'String'],
  ['score', 'BigInt'],
  ['rank', 'Int'],
  ['done', 'Boolean'],
  ['written', 'DateTime'],
  ['author', 'Author'],
])
const held = (where: object, image: Record<string, unknown>) =>
  scopeHeldOn(readWhere(where), image, types)

describe('a scope on a logged image', () => {
  it('holds as the database would hold it on the row', () => {
    const image = { owner: 'ann', score: '9007199254740993', rank: 3, done: 1 }
    expect(held({ owner: 'ann' }, image)).toBe(true)
    expect(held({ owner: 'Ann' }, image)).toBe(false)
    expect(held({ score: 9_007_199_254_740_993n }, image)).toBe(true)
    expect(held({ score: 9_007_199_254_740_992n }, image)).toBe(false)
    expect(held({ rank: { gte: 3, lt: 4 } }, image)).toBe(true)
    expect(held({ done: true }, { ...image, done: true })).toBe(true)
    expect(held({ done: false }, image)).toBe(false)
    expect(held({ OR: [{ owner: 'bob' }, { rank: { in: [1, 3] } }] }, image)).toBe(true)
    expect(held({ NOT: { owner: 'ann' } }, image)).toBe(false)
    expect(held({ owner: null }, { ...image, owner: null })).toBe(true)
    expect(held({}, image)).toBe(true)
  })

  it('reads a comparison with a null as unknown, which does not hold, negated or not', () => {
    const image = { owner: null }
    expect(held({ owner: 'ann' }, image)).toBe(false)
    expect(held({ NOT: { owner: 'ann' } }, image)).toBe(false)
  })

  it('refuses what the image cannot answer exactly', () => {
    const image = { owner: 'ann', written: '2026-01-01 00:00:00' }
    for (const where of [
      { owner: { startsWith: 'a' } },
      { owner: { equals: 'ann', mode: 'insensitive' } },
      { written: { lt: new Date() } },
      { author: { is: { name: 'ann' } } },
      { owner: { notIn: ['bob'] } },
    ])
      expect(() => held(where, image), JSON.stringify(where)).toThrow(UnknownScope)
  })
})
