import { describe, expect, it } from 'vitest'
import { readWhere } from '../../plan/scope-reader.js'
import { refuseUnevaluable, scopeHeldOn, UnknownScope } from './image-scope.js'

const types = new Map([
  ['owner', 'String'],
  ['title', 'String'],
  ['score', 'BigInt'],
  ['rank', 'Int'],
  ['done', 'Boolean'],
  ['written', 'DateTime'],
  ['author', 'Author'],
  ['stage', 'Stage'],
])
const held = (where: object, image: Record<string, unknown>) =>
  scopeHeldOn(readWhere(where), image, types)
const refused = (where: object) => refuseUnevaluable(readWhere(where), types)

describe('a scope on a logged image', () => {
  it('holds as the database would hold it on the row', () => {
    const image = { owner: 'ann', score: '9007199254740993', rank: 3, done: 1, stage: 'DRAFT' }
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
    expect(held({ stage: { in: ['DRAFT'] } }, image)).toBe(true)
    expect(held({ written: null }, { ...image, written: null })).toBe(true)
    expect(held({ written: { not: null } }, { ...image, written: null })).toBe(false)
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
      { stage: { gt: 'DRAFT' } },
    ])
      expect(() => held(where, image), JSON.stringify(where)).toThrow(UnknownScope)
  })

  it('refuses every part it cannot evaluate, behind a part that decides early too', () => {
    const pattern = { title: { contains: 'shared' } }
    for (const where of [
      { AND: [{ owner: { not: null } }, pattern] },
      { OR: [{ owner: null }, pattern] },
      { OR: [{ owner: 'ann' }, { AND: [{ done: false }, { NOT: pattern }] }] },
      { OR: [{ owner: 'ann' }, { author: { is: { name: 'ann' } } }] },
    ])
      expect(() => refused(where), JSON.stringify(where)).toThrow(UnknownScope)
    expect(() => refused({ OR: [{ owner: null }, { title: 'x' }] })).not.toThrow()
  })
})
