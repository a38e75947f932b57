import { describe, expect, it } from 'vitest'
import { allOf, type Condition } from '../plan/condition.js'
import {
  coarseValueTags,
  exactFields,
  MAX_PURGE_VALUE_TAGS,
  MAX_VALUE_TAGS,
  MAX_VALUE_TEXT,
  rowValueTags,
  selectionValueTags,
  valueText,
} from './value-tags.js'

const field = (name: string, test: unknown): Condition =>
  ({ kind: 'field', field: name, test }) as Condition
const equals = (name: string, value: unknown) => field(name, { op: 'equals', value })
const exact = new Map([
  ['authorId', 2],
  ['genre', 1],
  ['city', 2],
  ['id', 2],
  ['done', 0],
])

describe('the value tags of a page', () => {
  it('tags a page by the equality of its conditions naming the fewest values', () => {
    const authors = field('id', { op: 'in', values: [1, 2, 3] })
    expect(
      selectionValueTags('Book', [allOf([authors, equals('genre', 'FICTION')])], exact)
    ).toEqual(['Book:genre=fiction'])
    // Among equalities of one value each, the finest field's: an author's before a genre's.
    const parent = equals('authorId', 3)
    expect(selectionValueTags('Book', [equals('genre', 'FICTION'), parent], exact)).toEqual([
      'Book:authorId=3',
    ])
    expect(selectionValueTags('Book', [equals('done', true), equals('genre', 'A')], exact)).toEqual(
      ['Book:genre=a']
    )
    // The parent's condition and the scope count as the filters do.
    expect(selectionValueTags('Book', [undefined, equals('authorId', 3)], exact)).toEqual([
      'Book:authorId=3',
    ])
    expect(selectionValueTags('Book', [authors], exact)).toEqual([
      'Book:id=1',
      'Book:id=2',
      'Book:id=3',
    ])
    expect(selectionValueTags('Listing', [equals('city', 'Leeds')], exact)).toEqual([
      'Listing:city=leeds',
    ])
  })

  it('leaves a page no equality narrows untagged by value', () => {
    expect(selectionValueTags('Book', [], exact)).toBeUndefined()
    expect(
      selectionValueTags('Book', [field('price', { op: 'lt', value: 3 })], exact)
    ).toBeUndefined()
    // A field of an inexact type, a caseless or partial text test, an equality under `or` or `not`.
    expect(selectionValueTags('Book', [equals('price', 3)], exact)).toBeUndefined()
    const caseless = field('city', { op: 'equals', value: 'Leeds', caseless: true })
    expect(selectionValueTags('Book', [caseless], exact)).toBeUndefined()
    const either = { kind: 'or', parts: [equals('genre', 'A'), equals('genre', 'B')] } as Condition
    expect(selectionValueTags('Book', [either], exact)).toBeUndefined()
    const not = { kind: 'not', part: equals('genre', 'A') } as Condition
    expect(selectionValueTags('Book', [not], exact)).toBeUndefined()
    expect(selectionValueTags('Book', [equals('genre', null)], exact)).toBeUndefined()
  })

  it('falls back to Book:any past its budget of tags', () => {
    const many = Array.from({ length: MAX_VALUE_TAGS + 1 }, (_, index) => index)
    expect(
      selectionValueTags('Book', [field('id', { op: 'in', values: many })], exact)
    ).toBeUndefined()
    const all = many.slice(0, MAX_VALUE_TAGS)
    expect(
      selectionValueTags('Book', [field('id', { op: 'in', values: all })], exact)
    ).toHaveLength(MAX_VALUE_TAGS)
    const long = 'x'.repeat(MAX_VALUE_TEXT + 1)
    expect(selectionValueTags('Book', [equals('city', long)], exact)).toBeUndefined()
    expect(valueText('x'.repeat(MAX_VALUE_TEXT))).toHaveLength(MAX_VALUE_TEXT)
  })
})

describe('the text of a tagged value', () => {
  it('writes integers, bigints, booleans and strings, never a separator', () => {
    expect(valueText(3)).toBe('3')
    expect(valueText(2n ** 70n)).toBe('1180591620717411303424')
    expect(valueText(false)).toBe('false')
    expect(valueText('São Paulo, BR')).toBe('s%C3%A3o%20paulo%2C%20br')
    expect(valueText('a/b')).not.toContain('/')
    // As a `char(n)` column pads it, and `citext` compares it.
    expect(valueText('AB   ')).toBe(valueText('ab'))
  })

  it('tags no other value', () => {
    for (const value of [1.5, null, undefined, new Date(0), { a: 1 }, '\uD800'])
      expect(valueText(value)).toBeUndefined()
  })
})

describe('the fields a page is tagged by the values of', () => {
  const columns = {
    id: ['id', 'Int'],
    big: ['big', 'BigInt'],
    done: ['done', 'Boolean'],
    genre: ['genre', 'Genre'],
    title: ['title', 'String'],
    price: ['price', 'Decimal'],
    rate: ['rate', 'Float'],
    at: ['at', 'DateTime'],
  } as const
  it('takes exact types, and text where the provider compares it exactly', () => {
    const compiled = { select: '', columns }
    expect(Object.fromEntries(exactFields({ provider: 'postgresql', compiled }))).toEqual({
      id: 2,
      big: 2,
      done: 0,
      genre: 1,
      title: 2,
    })
    expect(exactFields({ provider: 'mysql', compiled }).has('title')).toBe(false)
    expect(exactFields({ provider: 'sqlite', compiled: undefined }).size).toBe(0)
  })

  it("tags PostgreSQL's strings only where their native type's equality is text equality", () => {
    const columns = {
      ip: ['ip', 'String'],
      email: ['email', 'String'],
      code: ['code', 'String'],
      name: ['name', 'String'],
      tag: ['tag', 'String'],
      key: ['key', 'String'],
      plain: ['plain', 'String'],
    } as const
    // `'10.0.0.1'::inet = '10.0.0.1/32'::inet`; citext compares by PostgreSQL's own lower().
    const nativeTypes = {
      ip: 'Inet',
      email: 'Citext',
      code: 'Char',
      name: 'VarChar',
      tag: 'Text',
      key: 'Uuid',
    }
    const compiled = { select: '', columns, nativeTypes }
    expect([...exactFields({ provider: 'postgresql', compiled }).keys()]).toEqual([
      'code',
      'name',
      'tag',
      'key',
      'plain',
    ])
  })
})

describe('the value tags a row purges', () => {
  it('tags each of its values pages are tagged by and Book:any, or none when it lacks a field', () => {
    const scalars = new Set(['id', 'city', 'price', 'at'])
    const tagged = new Set(['id', 'city'])
    const row = { id: 1, city: 'York', price: 2, at: '2024-01-01' }
    expect(rowValueTags('Listing', row, scalars, tagged)).toEqual([
      'Listing:any',
      'Listing:id=1',
      'Listing:city=york',
    ])
    // No page is tagged by a price or a date-time, whose texts a row may still hold.
    expect(rowValueTags('Listing', row, scalars, new Set())).toEqual(['Listing:any'])
    expect(rowValueTags('Listing', { id: 1, city: 'York' }, scalars, tagged)).toBeUndefined()
    expect(rowValueTags('Listing', null, scalars, tagged)).toBeUndefined()
  })
})

describe('the value tags one purge sends', () => {
  const values = (model: string, count: number) =>
    Array.from({ length: count }, (_, index) => `${model}:id=${index}`)

  it('sends a model tag instead of more than 32 value tags of its model', () => {
    const many = [...values('Book', MAX_PURGE_VALUE_TAGS + 1), 'Book:any', '/books/3']
    const few = [...values('Author', MAX_PURGE_VALUE_TAGS), 'Author:any', 'Author:rows']
    expect(coarseValueTags([...many, ...few])).toEqual(['Book', '/books/3', ...few])
    expect(coarseValueTags(few)).toEqual(few)
  })

  it('counts value tags alone, never rows, field or IRI tags', () => {
    const others = ['Book', 'Book:rows', 'Book.title', 'Book:any', '/books/1=2']
    expect(coarseValueTags([...others, ...values('Book', 3)], 2)).toEqual([
      'Book',
      'Book:rows',
      'Book.title',
      '/books/1=2',
    ])
  })
})
