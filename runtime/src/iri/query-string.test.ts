import { describe, expect, it } from 'vitest'
import { buildIri } from './iri-builder.js'
import {
  getParam,
  isRepeated,
  isTruncated,
  MAX_INPUT_NESTING_LEVEL,
  MAX_INPUT_VARS,
  parseQuery,
  type QueryValue,
} from './query-string.js'

/** A plain-object view of a parsed query, for readable expectations (key order is checked too). */
type Plain = string | { [key: string]: Plain }

function plain(value: QueryValue): Plain {
  if (typeof value === 'string') return value
  const out: { [key: string]: Plain } = {}
  for (const [key, child] of value) out[key] = plain(child)
  return out
}

/** Entries in order, all levels, to check ordering (object key order puts integer keys first). */
type Entries = string | Array<[string, Entries]>

function entries(value: QueryValue): Entries {
  if (typeof value === 'string') return value
  return [...value].map(([key, child]): [string, Entries] => [key, entries(child)])
}

describe('parseQuery', () => {
  it.each<[string, string, Record<string, Plain>]>([
    ['empty query', '', {}],
    ['one pair', 'a=1', { a: '1' }],
    ['last value wins', 'x=1&x=2', { x: '2' }],
    ['no "=" gives an empty string', 'x', { x: '' }],
    ['"=" with nothing after', 'x=', { x: '' }],
    ['value split on the first "="', 'a=1=2', { a: '1=2' }],
    ['"+" is a space in values', 'name=Dummy+%238', { name: 'Dummy #8' }],
    ['"+" is a space in names, which are kept', 'a+b=1&c%20d=2', { 'a b': '1', 'c d': '2' }],
    ['dots are kept in names', 'a.b=1', { 'a.b': '1' }],
    ['a leading space is kept in names', '%20a=1', { ' a': '1' }],
    ['percent-decoding of values', 'id=%2fdummies%2f8', { id: '/dummies/8' }],
    ['UTF-8 escapes', 'name=caf%C3%A9', { name: 'café' }],
    ['raw UTF-8', 'name=café', { name: 'café' }],
    ['malformed escapes are kept', 'a=%zz&b%zz=1&c=%', { a: '%zz', 'b%zz': '1', c: '%' }],
    ['invalid UTF-8 becomes U+FFFD', 'a=%E9', { a: '\uFFFD' }],
    ['empty pairs are skipped', '&&a=1&&', { a: '1' }],
    ['empty names are skipped', '=1&%20=2&[a]=3&a=4', { ' ': '2', a: '4' }],
    ['a name is cut at NUL', 'a%00b=1', { a: '1' }],
    ['list', 'x[]=1&x[]=2', { x: { 0: '1', 1: '2' } }],
    ['list with an empty value', 'groups[]=', { groups: { 0: '' } }],
    ['nested', 'a[b][c]=1', { a: { b: { c: '1' } } }],
    ['encoded brackets', 'a%5Bb%5D%5bc%5d=1', { a: { b: { c: '1' } } }],
    ['mixed list and map', 'p[]=foo&p[group][]=baz', { p: { 0: 'foo', group: { 0: 'baz' } } }],
    ['append after an integer key', 'a[5]=x&a[]=y', { a: { 5: 'x', 6: 'y' } }],
    ['append after a string key', 'a[foo]=x&a[]=y', { a: { foo: 'x', 0: 'y' } }],
    ['append after a negative key (PHP 8)', 'a[-3]=x&a[]=y', { a: { '-3': 'x', '-2': 'y' } }],
    ['non-canonical integers are strings', 'a[05]=x&a[]=y', { a: { '05': 'x', 0: 'y' } }],
    ['"[ ]" appends', 'a[ ]=1', { a: { 0: '1' } }],
    ['a space inside an index is kept', 'a[ b]=1', { a: { ' b': '1' } }],
    ['dots and spaces inside an index are kept', 'a[b.c d]=1', { a: { 'b.c d': '1' } }],
    ['"[" inside an index is kept', 'a[b[c]=1', { a: { 'b[c': '1' } }],
    ['text after "]" is ignored', 'a[b]c=1', { a: { b: '1' } }],
    ['an unterminated nested bracket is dropped', 'a[b][c=1', { a: { b: '1' } }],
    ['an unterminated first bracket keeps the name', 'a[b=1', { 'a[b': '1' }],
    ['an array replaces a scalar', 'x=1&x[]=2', { x: { 0: '2' } }],
    ['a scalar replaces an array', 'x[]=1&x=2', { x: '2' }],
    ['a nested array replaces a nested scalar', 'a[b]=1&a[b][c]=2', { a: { b: { c: '2' } } }],
    ['"page[]=5" is an array', 'page[]=5', { page: { 0: '5' } }],
  ])('%s: %j', (_, raw, expected) => {
    expect(plain(parseQuery(raw))).toEqual(expected)
  })

  it('keeps the first position of a key that is set again, and the client order', () => {
    const query = parseQuery('b=1&a=2&b=3&d[y]=1&d[x]=2&d[y]=3')
    expect(entries(query)).toEqual([
      ['b', '3'],
      ['a', '2'],
      [
        'd',
        [
          ['y', '3'],
          ['x', '2'],
        ],
      ],
    ])
  })

  it('keeps the order of list entries as sent', () => {
    expect(entries(parseQuery('tags[1]=b&tags[0]=a'))).toEqual([
      [
        'tags',
        [
          ['1', 'b'],
          ['0', 'a'],
        ],
      ],
    ])
  })

  it('never throws on malformed input', () => {
    for (const raw of [
      '%',
      '%%',
      '%zz',
      '%E9%',
      '[',
      ']',
      '[]',
      'a[',
      'a]',
      'a[[',
      'a[]]',
      '=',
      '&=&',
    ]) {
      expect(() => buildIri('/d', parseQuery(raw), { pageParameterName: 'page' })).not.toThrow()
    }
  })

  it(`accepts ${MAX_INPUT_NESTING_LEVEL} levels of nesting and drops the variable beyond`, () => {
    const deep = (levels: number) => `a${'[x]'.repeat(levels)}=1`
    expect(parseQuery(deep(MAX_INPUT_NESTING_LEVEL)).has('a')).toBe(true)
    expect(parseQuery(`a=0&${deep(MAX_INPUT_NESTING_LEVEL + 1)}&b=2`)).toEqual(
      new Map([['b', '2']])
    )
  })

  it(`reads only the first ${MAX_INPUT_VARS} pairs, like PHP`, () => {
    const raw = Array.from({ length: MAX_INPUT_VARS + 5 }, (_, i) => `k${i}=${i}`).join('&')
    const query = parseQuery(raw)
    expect(query.size).toBe(MAX_INPUT_VARS)
    expect(query.get(`k${MAX_INPUT_VARS - 1}`)).toBe(String(MAX_INPUT_VARS - 1))
    expect(query.has(`k${MAX_INPUT_VARS}`)).toBe(false)
  })
})

describe('getParam', () => {
  const query = parseQuery('page=2&itemsPerPage=&page2[]=5&nested[a][b]=1')

  it('returns undefined when absent', () => {
    expect(getParam(query, 'missing')).toBeUndefined()
  })

  it('returns the string when scalar', () => {
    expect(getParam(query, 'page')).toBe('2')
    expect(getParam(query, 'itemsPerPage')).toBe('')
  })

  it('returns the map when sent as an array', () => {
    const value = getParam(parseQuery('page[]=5'), 'page')
    expect(value).toBeInstanceOf(Map)
    expect(plain(value as QueryValue)).toEqual({ 0: '5' })
    expect(getParam(query, 'nested')).toBeInstanceOf(Map)
  })

  it('only reads top-level keys', () => {
    expect(getParam(query, 'a')).toBeUndefined()
  })
})
describe('what parseQuery drops or overwrites, for strict readers', () => {
  it('notes a parameter whose value another overwrites', () => {
    const query = parseQuery('page=2&page=3&a[]=1&a[]=2&b[x]=1&b[y]=2&c=1&c[]=2&d[x]=1&d[x]=2')
    expect(['page', 'a', 'b', 'c', 'd'].map((name) => isRepeated(query, name))).toEqual([
      true,
      false,
      false,
      true,
      true,
    ])
    expect(isRepeated(parseQuery('page=2'), 'page')).toBe(false)
  })

  it('notes a query past the pairs it reads', () => {
    const pairs = Array.from({ length: MAX_INPUT_VARS }, (_, i) => `a${i}=1`)
    expect(isTruncated(parseQuery(pairs.join('&')))).toBe(false)
    expect(isTruncated(parseQuery([...pairs, 'page=0'].join('&')))).toBe(true)
  })
})
