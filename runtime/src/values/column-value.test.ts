import { describe, expect, it } from 'vitest'
import { rangesOf } from '../database/dialects.js'
import { defineResource } from '../hydra/resource.js'
import { readColumnValue } from './column-value.js'

const rejected = (type: string, raw: string, provider?: string, uuid?: boolean) =>
  readColumnValue({ type, uuid }, raw, rangesOf(provider))

describe('readColumnValue: the range of each type on each provider', () => {
  it.each([
    ['Int', '2147483648', 'a 32-bit integer'],
    ['Int', '-2147483649', 'a 32-bit integer'],
    ['Int', '9007199254740991', 'a 32-bit integer'],
    ['BigInt', '9223372036854775808', 'a 64-bit integer'],
    ['BigInt', '-9223372036854775809', 'a 64-bit integer'],
    ['Decimal', `1${'0'.repeat(35)}`, 'a decimal number of at most 35 digits'],
    ['Decimal', `0.${'1'.repeat(31)}`, 'a decimal number of at most 35 digits'],
  ])('%s %s is refused everywhere', (type, raw, expected) => {
    for (const provider of ['sqlite', 'postgresql', 'mysql', undefined]) {
      const read = rejected(type, raw, provider)
      expect(read.ok).toBe(false)
      if (!read.ok) expect(read.expected).toContain(expected)
    }
  })

  it.each([
    ['Int', '2147483647', 2147483647],
    ['Int', '-2147483648', -2147483648],
    ['Int', '007', 7],
    ['BigInt', '9223372036854775807', 2n ** 63n - 1n],
    ['Decimal', `${'9'.repeat(35)}.${'9'.repeat(30)}`, `${'9'.repeat(35)}.${'9'.repeat(30)}`],
    ['Decimal', `000${'9'.repeat(35)}.5000`, `000${'9'.repeat(35)}.5000`],
    ['Boolean', 'TRUE', true],
    ['Boolean', '0', false],
  ])('%s %s is read', (type, raw, value) => {
    expect(readColumnValue({ type }, raw, rangesOf('postgresql'))).toEqual({ ok: true, value })
  })

  it('dates PostgreSQL and SQLite store: years 1 to 9999', () => {
    for (const provider of ['postgresql', 'sqlite']) {
      for (const raw of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '+010000-01-01']) {
        expect(rejected('DateTime', raw, provider).ok).toBe(false)
      }
      expect(rejected('DateTime', '0001-01-01T00:00:00Z', provider)).toEqual({
        ok: true,
        value: new Date('0001-01-01T00:00:00Z'),
      })
      expect(rejected('DateTime', '9999-12-31T23:59:59.999Z', provider).ok).toBe(true)
      expect(rejected('DateTime', '9999-12-31T23:59:59-01:00', provider)).toEqual({
        ok: false,
        expected: 'a date-time from 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z',
      })
    }
  })

  it('dates MySQL stores (and every database, when the provider is not known): from 1000', () => {
    expect(rejected('DateTime', '0999-12-31T23:59:59Z', 'mysql').ok).toBe(false)
    expect(rejected('DateTime', '0999-12-31T23:59:59Z').ok).toBe(false)
    expect(rejected('DateTime', '1000-01-01', 'mysql').ok).toBe(true)
  })

  it('text with a NUL character: refused on every database', () => {
    for (const provider of ['postgresql', 'sqlite', 'mysql', undefined]) {
      expect(rejected('String', 'en\u0000', provider)).toEqual({
        ok: false,
        expected: 'text without a NUL character',
      })
    }
    expect(rejected('Genre', '\u0000', 'postgresql')).toMatchObject({ ok: false })
  })

  it('UUID columns take UUIDs only', () => {
    expect(rejected('String', 'x', 'postgresql', true)).toEqual({ ok: false, expected: 'a UUID' })
  })
})

describe('item ids: the value rule, then the form the resource writes its IRIs in', () => {
  const resource = (kind: 'Int' | 'BigInt' | 'String', provider?: string) =>
    defineResource(
      { key: { name: 'id', kind }, provider },
      {
        name: 'Thing',
        collectionPath: '/things',
        fields: [],
      }
    )

  it.each([
    ['Int', '1', 1],
    ['Int', '-5', -5],
    ['Int', '2147483647', 2147483647],
    ['Int', '2147483648', undefined],
    ['Int', '-2147483649', undefined],
    ['Int', '01', undefined],
    ['Int', '-0', undefined],
    ['Int', '+1', undefined],
    ['Int', '1.0', undefined],
    ['BigInt', '9223372036854775807', 2n ** 63n - 1n],
    ['BigInt', '9223372036854775808', undefined],
    ['BigInt', '007', undefined],
  ] as const)('%s "%s"', (kind, raw, id) => {
    expect(resource(kind, 'postgresql').parseId(raw)).toBe(id)
  })

  it('String keys: NUL refused on every database', () => {
    expect(resource('String', 'postgresql').parseId('en\u0000')).toBeUndefined()
    expect(resource('String', 'sqlite').parseId('en\u0000')).toBeUndefined()
    expect(resource('String', 'mysql').parseId('en\u0000')).toBeUndefined()
    expect(resource('String', 'postgresql').parseId('en')).toBe('en')
  })
})
