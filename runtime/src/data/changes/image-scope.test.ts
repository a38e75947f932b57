import { describe, expect, it } from 'vitest'
import { readWhere } from '../../plan/scope-reader.js'
import { refuseUnevaluable, scopeHeldOn, UnknownScope, UnreadableImage } from './image-scope.js'
import { type TextComparison, textComparison } from './text-comparison.js'

const types = new Map([
  ['owner', 'String'],
  ['title', 'String'],
  ['score', 'BigInt'],
  ['rank', 'Int'],
  ['ratio', 'Float'],
  ['done', 'Boolean'],
  ['written', 'DateTime'],
  ['author', 'Author'],
  ['stage', 'Stage'],
])
const unused = {
  $queryRawUnsafe: () => Promise.reject(new Error('SQLite asks nothing')),
  $executeRawUnsafe: () => Promise.reject(new Error('SQLite asks nothing')),
}
/** SQLite's comparison: its columns' `BINARY` order, answered here. */
const sqlite = textComparison(unused, 'sqlite', undefined)
const held = (where: object, image: Record<string, unknown>, text: TextComparison = sqlite) =>
  scopeHeldOn(readWhere(where), image, { types, text })
const refused = (where: object, text: TextComparison = sqlite) =>
  refuseUnevaluable(readWhere(where), { types, text })

/** A database comparing text whatever its case, as MySQL's default collations do. */
function caseless(covered: readonly string[]): TextComparison & { asked: number } {
  const fold = (value: string) => value.toLowerCase()
  const comparison = {
    asked: 0,
    ready: async () => {},
    covers: (field: string) => covered.includes(field),
    async holds(_field: string, own: string, op: string, values: readonly string[]) {
      comparison.asked++
      const [left, right] = [fold(own), fold(values[0] ?? '')]
      if (op === 'in') return values.map(fold).includes(left)
      if (op === 'equals') return left === right
      return op === 'lt' ? left < right : op === 'gt' ? left > right : false
    },
  }
  return comparison
}

describe('a scope on a logged image', () => {
  it('holds as the database would hold it on the row', async () => {
    const image = { owner: 'ann', score: '9007199254740993', rank: 3, done: 1, stage: 'DRAFT' }
    expect(await held({ owner: 'ann' }, image)).toBe(true)
    expect(await held({ owner: 'Ann' }, image)).toBe(false)
    expect(await held({ score: 9_007_199_254_740_993n }, image)).toBe(true)
    expect(await held({ score: 9_007_199_254_740_992n }, image)).toBe(false)
    expect(await held({ rank: { gte: 3, lt: 4 } }, image)).toBe(true)
    expect(await held({ done: true }, { ...image, done: true })).toBe(true)
    expect(await held({ done: false }, image)).toBe(false)
    expect(await held({ OR: [{ owner: 'bob' }, { rank: { in: [1, 3] } }] }, image)).toBe(true)
    expect(await held({ NOT: { owner: 'ann' } }, image)).toBe(false)
    expect(await held({ owner: null }, { ...image, owner: null })).toBe(true)
    expect(await held({ stage: { in: ['DRAFT'] } }, image)).toBe(true)
    expect(await held({ written: null }, { ...image, written: null })).toBe(true)
    expect(await held({ written: { not: null } }, { ...image, written: null })).toBe(false)
    expect(await held({}, image)).toBe(true)
  })

  it('reads a comparison with a null as unknown, which does not hold, negated or not', async () => {
    const image = { owner: null }
    expect(await held({ owner: 'ann' }, image)).toBe(false)
    expect(await held({ NOT: { owner: 'ann' } }, image)).toBe(false)
  })

  it('holds an empty list on no row, a null included, so that its negation holds on every one', async () => {
    // Both engines write `in []` as `1=0`: `NOT (1=0)` shows the rows whose value is null too.
    expect(await held({ rank: { in: [] } }, { rank: null })).toBe(false)
    expect(await held({ NOT: { rank: { in: [] } } }, { rank: null })).toBe(true)
    expect(await held({ NOT: { owner: { in: [] } } }, { owner: null })).toBe(true)
    expect(await held({ ratio: null }, { ratio: null })).toBe(true)
    // Whatever the image holds of the field: an entry logged before it existed too.
    expect(await held({ NOT: { rank: { in: [] } } }, { owner: 'ann' })).toBe(true)
  })

  it('tells an image it cannot be read on apart from a scope it cannot evaluate', async () => {
    // An entry logged before the field was added; a value of another type than the field's.
    await expect(held({ rank: 3 }, { owner: 'ann' })).rejects.toThrow(UnreadableImage)
    await expect(held({ rank: 3 }, { rank: 'NaN' })).rejects.toThrow(UnreadableImage)
    await expect(held({ owner: 'ann' }, { owner: 7 })).rejects.toThrow(UnreadableImage)
  })

  it('orders SQLite text by code point, as its BINARY collation orders UTF-8 bytes', async () => {
    // JavaScript's `<` orders by UTF-16 units: U+FF5E after U+1F600's surrogates.
    expect('\u{FF5E}' < '\u{1F600}').toBe(false)
    expect(await held({ owner: { lt: '\u{1F600}' } }, { owner: '\u{FF5E}' })).toBe(true)
    expect(await held({ owner: { gt: 'b' } }, { owner: 'B' })).toBe(false)
  })

  it('compares text as the column does, where the database compares it', async () => {
    const text = caseless(['owner'])
    expect(await held({ owner: 'ann' }, { owner: 'Ann' }, text)).toBe(true)
    expect(await held({ owner: { in: ['bob', 'ANN'] } }, { owner: 'ann' }, text)).toBe(true)
    expect(await held({ owner: { gt: 'b' } }, { owner: 'Bob' }, text)).toBe(true)
    expect(text.asked).toBe(3)
  })

  it('refuses what the image cannot answer exactly', async () => {
    const image = { owner: 'ann', written: '2026-01-01 00:00:00' }
    for (const where of [
      { owner: { startsWith: 'a' } },
      { owner: { equals: 'ann', mode: 'insensitive' } },
      { written: { lt: new Date() } },
      { author: { is: { name: 'ann' } } },
      { owner: { notIn: ['bob'] } },
      { stage: { gt: 'DRAFT' } },
      // A float column may be single precision, compared as such, or hold NaN.
      { ratio: { gt: 0.1 } },
      { ratio: 0.5 },
    ])
      await expect(held(where, image), JSON.stringify(where)).rejects.toThrow(UnknownScope)
  })

  it('refuses a text comparison whose column the database does not describe', async () => {
    const text = caseless(['owner'])
    await expect(refused({ owner: 'ann' }, text)).resolves.toBeUndefined()
    await expect(refused({ title: 'ann' }, text)).rejects.toThrow('title')
    await expect(refused({ title: null }, text)).resolves.toBeUndefined()
  })

  it('refuses every part it cannot evaluate, behind a part that decides early too', async () => {
    const pattern = { title: { contains: 'shared' } }
    for (const where of [
      { AND: [{ owner: { not: null } }, pattern] },
      { OR: [{ owner: null }, pattern] },
      { OR: [{ owner: 'ann' }, { AND: [{ done: false }, { NOT: pattern }] }] },
      { OR: [{ owner: 'ann' }, { author: { is: { name: 'ann' } } }] },
    ])
      await expect(refused(where), JSON.stringify(where)).rejects.toThrow(UnknownScope)
    await expect(refused({ OR: [{ owner: null }, { title: 'x' }] })).resolves.toBeUndefined()
  })
})
