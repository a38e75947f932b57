import { describe, expect, it } from 'vitest'
import type { QuerySpec } from '../contract/query.js'
import { isHydraError } from '../errors.js'
import { parseQuery } from '../iri/query-string.js'
import { readCollectionQuery } from './read.js'
import { defaultFilterParameterNames } from './spec.js'

const books: QuerySpec = {
  filters: [
    { kind: 'search', field: 'title', strategy: 'partial', type: 'String' },
    {
      kind: 'search',
      field: 'genre',
      strategy: 'exact',
      type: 'Enum',
      enumValues: ['FICTION', 'POETRY'],
    },
    {
      kind: 'search',
      field: 'author',
      strategy: 'exact',
      type: 'Int',
      relation: { foreignKey: 'authorId', collectionPath: '/authors', id: { type: 'Int' } },
    },
    { kind: 'range', field: 'price', type: 'Decimal' },
    { kind: 'numeric', field: 'pages', type: 'Int' },
    { kind: 'range', field: 'pages', type: 'Int' },
    { kind: 'date', field: 'publishedAt' },
    { kind: 'boolean', field: 'available' },
    { kind: 'exists', field: 'returnedAt' },
  ],
  order: [
    { field: 'title', type: 'String' },
    { field: 'price', type: 'Decimal' },
  ],
  id: { field: 'id', type: 'Int' },
  parameters: defaultFilterParameterNames,
  likeEscape: 'backslash',
}

const read = (query: string, spec = books, options = {}) =>
  readCollectionQuery(parseQuery(query), spec, options)

function problem(query: string, spec = books, options = {}): string {
  try {
    read(query, spec, options)
  } catch (error) {
    if (isHydraError(error) && error.status === 400) return error.detail
    throw error
  }
  throw new Error(`"${query}" was accepted`)
}

describe('readCollectionQuery', () => {
  it('reads the item key by IRI or id, as a list in either bracket form', () => {
    const authors: QuerySpec = {
      ...books,
      filters: [{ kind: 'search', field: 'id', strategy: 'exact', type: 'Int', items: '/authors' }],
    }
    const ids = (query: string) => read(query, authors, { base: '/api' }).filters
    const expected = [{ kind: 'search', field: 'id', strategy: 'exact', values: [1, 3] }]
    // API Platform's admin numbers its list (`id[0]`, `id[1]`); IRIs under the mount.
    expect(ids('id%5B0%5D=%2Fapi%2Fauthors%2F1&id%5B1%5D=3')).toEqual(expected)
    expect(ids('id[]=1&id[]=/api/authors/3')).toEqual(expected)
    expect(ids('id=/api/authors/7')).toEqual([
      { kind: 'search', field: 'id', strategy: 'exact', values: [7] },
    ])
    for (const wrong of ['id=/api/books/1', 'id=/authors/1', 'id[]=x', 'id=/api/authors/1/2'])
      expect(() => ids(wrong), wrong).toThrow(/"id(\[\])?" parameter/)
  })

  it('reads nothing from a query without declared parameters', () => {
    expect(read('page=2&foo=bar', books)).toEqual({ filters: [], order: [] })
    // No orderable field: `order` is an unknown parameter, as in API Platform.
    expect(read('order[id]=ASC&title=x', { ...books, filters: [], order: [] })).toEqual({
      filters: [],
      order: [],
    })
  })

  it('reads search values, single and listed (title[] and the admin’s title[0])', () => {
    expect(read('title=dune').filters).toEqual([
      { kind: 'search', field: 'title', strategy: 'partial', values: ['dune'] },
    ])
    expect(read('genre[]=FICTION&genre[]=POETRY').filters).toEqual([
      { kind: 'search', field: 'genre', strategy: 'exact', values: ['FICTION', 'POETRY'] },
    ])
    expect(read('genre[0]=FICTION&genre[1]=POETRY').filters[0]).toMatchObject({
      values: ['FICTION', 'POETRY'],
    })
  })

  it('keeps LIKE wildcards as typed: the value is passed as text', () => {
    expect(read('title=50%25_off').filters[0]).toMatchObject({ values: ['50%_off'] })
  })

  it('refuses % and _ in LIKE strategies where the database cannot escape them', () => {
    const sqlite = { ...books, likeEscape: 'none' as const }
    expect(problem('title=50%25', sqlite)).toBe(
      'The "title" parameter cannot hold % or _: this API matches search values literally and cannot read these two in this search; "50%" given.'
    )
    expect(problem('title[]=a&title[]=b_c', sqlite)).toContain(
      'The "title[]" parameter cannot hold'
    )
    expect(read('title=plain', sqlite).filters[0]).toMatchObject({ values: ['plain'] })
  })

  it('refuses an enum value outside the enum, naming the parameter and the values', () => {
    expect(problem('genre=NOVEL')).toBe(
      'The "genre" parameter must be one of FICTION, POETRY, "NOVEL" given.'
    )
    expect(problem('genre[]=FICTION&genre[]=x')).toBe(
      'The "genre[]" parameter must be one of FICTION, POETRY, "x" given.'
    )
  })

  it('reads a relation by IRI (under the mount path) or by id, and refuses other IRIs', () => {
    expect(read('author=/authors/3').filters).toEqual([
      { kind: 'search', field: 'author', strategy: 'exact', values: [3], foreignKey: 'authorId' },
    ])
    expect(read('author=3').filters[0]).toMatchObject({ values: [3] })
    expect(read('author=/api/authors/4', books, { base: '/api' }).filters[0]).toMatchObject({
      values: [4],
    })
    expect(problem('author=/books/3')).toBe(
      'The "author" parameter must be an IRI of /authors/… or an id, "/books/3" given.'
    )
    expect(problem('author=/authors/x')).toBe(
      'The "author" parameter must be an integer, "x" given.'
    )
    expect(problem('author=/authors/3', books, { base: '/api' })).toContain('/api/authors/')
  })

  it('reads a relation to a composite key by IRI or key, field by field', () => {
    const lineKey = (foreignKeys: boolean) => ({
      filters: [
        {
          kind: 'search' as const,
          field: 'line',
          strategy: 'exact' as const,
          type: 'Int',
          relation: {
            foreignKey: 'lineOrderId',
            collectionPath: '/order-lines',
            id: { type: 'Int' },
            key: [
              {
                name: 'orderId',
                type: 'Int',
                ...(foreignKeys ? { foreignKey: 'lineOrderId' } : {}),
              },
              { name: 'sku', type: 'String', ...(foreignKeys ? { foreignKey: 'lineSku' } : {}) },
            ],
          },
        },
      ],
      order: [],
      parameters: defaultFilterParameterNames,
      likeEscape: 'backslash' as const,
    })
    const iri = encodeURIComponent('/order-lines/orderId=3;sku=a%3Bb')
    expect(read(`line=${iri}`, lineKey(true)).filters).toEqual([
      {
        kind: 'search',
        field: 'line',
        strategy: 'exact',
        values: [{ orderId: 3, sku: 'a;b' }],
        composite: { foreignKeys: { orderId: 'lineOrderId', sku: 'lineSku' } },
      },
    ])
    expect(
      read('line[]=orderId%3D1%3Bsku%3Dx&line[]=orderId%3D2%3Bsku%3Dy', lineKey(false)).filters
    ).toEqual([
      {
        kind: 'search',
        field: 'line',
        strategy: 'exact',
        values: [
          { orderId: 1, sku: 'x' },
          { orderId: 2, sku: 'y' },
        ],
        composite: {},
      },
    ])
    const shape = 'an IRI of /order-lines/orderId=…;sku=… or a key orderId=…;sku=…'
    for (const bad of ['/order-lines/orderId=3', 'sku=x;orderId=3', 'orderId=3;sku=x;z=1', '3'])
      expect(problem(`line=${encodeURIComponent(bad)}`, lineKey(true))).toBe(
        `The "line" parameter must be ${shape}, "${bad}" given.`
      )
    expect(problem(`line=${encodeURIComponent('/orders/3')}`, lineKey(true))).toContain(
      'an IRI of /order-lines/…'
    )
    expect(problem(`line=${encodeURIComponent('orderId=x;sku=a')}`, lineKey(true))).toBe(
      'The "line" parameter must be an integer, "x" given.'
    )
  })

  it('reads range operators, between included, as the field’s type', () => {
    expect(read('price[gt]=10&price[lte]=20.5').filters).toEqual([
      { kind: 'range', field: 'price', operator: 'gt', value: '10' },
      { kind: 'range', field: 'price', operator: 'lte', value: '20.5' },
    ])
    expect(read('price[between]=1..2').filters).toEqual([
      { kind: 'range', field: 'price', operator: 'between', value: ['1', '2'] },
    ])
    expect(problem('price[gt]=1O')).toBe(
      'The "price[gt]" parameter must be a decimal number, "1O" given.'
    )
    expect(problem('price[between]=1..2..3')).toBe(
      'The "price[between]" parameter must be two values as min..max, "1..2..3" given.'
    )
    expect(problem('price[near]=3')).toBe(
      'The "price[near]" parameter is not known: "price" is given as price[between]=…, price[gt]=…, price[gte]=…, price[lt]=…, price[lte]=….'
    )
    expect(problem('price=3')).toContain('The "price" parameter is given as price[between]=…')
  })

  it('reads numeric and range filters on one field by the shape of the parameter', () => {
    expect(read('pages=300').filters).toEqual([{ kind: 'numeric', field: 'pages', values: [300] }])
    expect(read('pages[]=300&pages[]=400').filters).toEqual([
      { kind: 'numeric', field: 'pages', values: [300, 400] },
    ])
    expect(read('pages[gte]=300').filters).toEqual([
      { kind: 'range', field: 'pages', operator: 'gte', value: 300 },
    ])
    expect(problem('pages=3000000000')).toBe(
      'The "pages" parameter must be a 32-bit integer, "3000000000" given.'
    )
    expect(problem('pages[0]=1&pages[gt]=2')).toContain('"pages[0]" parameter is not known')
  })

  it('checks values against what the provider’s database stores', () => {
    expect(problem('publishedAt[after]=0999-12-31', books, { database: 'mysql' })).toContain(
      'The "publishedAt[after]" parameter must be'
    )
    expect(
      read('publishedAt[after]=0999-12-31', books, { database: 'postgresql' }).filters
    ).toHaveLength(1)
  })

  it('refuses a NUL in a search value on every database', () => {
    for (const database of ['postgresql', 'sqlite', 'mysql'] as const) {
      expect(problem('title=a%00b', books, { database })).toBe(
        'The "title" parameter must be text without a NUL character, "a\u0000b" given.'
      )
    }
  })

  it('reads dates strictly, no offset meaning UTC', () => {
    expect(read('publishedAt[after]=2024-01-31').filters).toEqual([
      {
        kind: 'date',
        field: 'publishedAt',
        operator: 'after',
        value: new Date('2024-01-31T00:00:00Z'),
      },
    ])
    expect(read('publishedAt[strictly_before]=2024-01-31T12:00:00').filters[0]).toMatchObject({
      value: new Date('2024-01-31T12:00:00Z'),
    })
    expect(problem('publishedAt[after]=2024-02-30')).toBe(
      'The "publishedAt[after]" parameter must be an ISO 8601 date (2024-01-31) or date-time (2024-01-31T12:00:00Z), "2024-02-30" given.'
    )
    expect(problem('publishedAt=2024-01-01')).toContain('is given as publishedAt[before]=…')
  })

  it('reads booleans and exists with the paging switches’ spellings', () => {
    expect(read('available=TRUE').filters).toEqual([
      { kind: 'boolean', field: 'available', value: true },
    ])
    expect(read('exists[returnedAt]=0').filters).toEqual([
      { kind: 'exists', field: 'returnedAt', value: false },
    ])
    expect(problem('available=maybe')).toBe(
      'The "available" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "maybe" given.'
    )
    expect(problem('exists[title]=true')).toBe(
      'The "exists[title]" parameter is not known: "exists" is given as exists[returnedAt]=true|false.'
    )
    expect(problem('exists=true')).toContain('is given as exists[returnedAt]=true|false')
    expect(problem('available[]=true')).toContain('"available[0]" parameter is not known')
  })

  it('reads the order in the order given, the primary key last, any case', () => {
    expect(read('order[price]=DESC&order[title]=asc').order).toEqual([
      { field: 'price', direction: 'desc' },
      { field: 'title', direction: 'asc' },
      { field: 'id', direction: 'asc' },
    ])
    expect(read('order[id]=desc').order).toEqual([{ field: 'id', direction: 'desc' }])
    expect(problem('order[pages]=asc')).toBe(
      'The "order[pages]" parameter is not known: "order" is given as order[field]=asc|desc, field one of title, price, id.'
    )
    expect(problem('order[title]=up')).toBe(
      'The "order[title]" parameter must be asc or desc, "up" given.'
    )
    expect(problem('order[title]=')).toBe(
      'The "order[title]" parameter must be asc or desc, "" given.'
    )
    expect(problem('order=title')).toContain('is given as order[field]=asc|desc')
  })

  it('reads order[id] as the key order where no field is named id (the admin default)', () => {
    const genres: QuerySpec = {
      ...books,
      filters: [],
      order: [{ field: 'books', type: 'Int' }],
      id: { field: 'name', type: 'String' },
    }
    expect(read('order[id]=ASC', genres).order).toEqual([{ field: 'name', direction: 'asc' }])
    expect(read('order[books]=desc&order[id]=desc', genres).order).toEqual([
      { field: 'books', direction: 'desc' },
      { field: 'name', direction: 'desc' },
    ])
    expect(problem('order[id]=asc&order[name]=desc', genres)).toBe(
      'The "order[name]" parameter orders by name, which "order" orders by already.'
    )
    expect(problem('order[code]=asc', genres)).toBe(
      'The "order[code]" parameter is not known: "order" is given as order[field]=asc|desc, field one of books, name, id.'
    )
    const composite: QuerySpec = {
      ...genres,
      key: [
        { field: 'orderId', type: 'Int' },
        { field: 'productId', type: 'Int' },
      ],
    }
    expect(read('order[id]=desc', composite).order).toEqual([
      { field: 'orderId', direction: 'desc' },
      { field: 'productId', direction: 'desc' },
    ])
    // A field of that name keeps its own meaning; without a key, id is no field.
    const named = { ...genres, filters: [{ kind: 'boolean', field: 'id' }] } as QuerySpec
    expect(problem('order[id]=asc', named)).toContain('field one of books, name.')
    const { id: _, ...keyless } = genres
    expect(problem('order[id]=asc', keyless)).toContain('field one of books.')
  })

  it('renames order and exists as configured', () => {
    const renamed = { ...books, parameters: { order: 'sort', exists: 'has' } }
    expect(read('sort[title]=asc&has[returnedAt]=true&order[price]=asc', renamed)).toEqual({
      filters: [{ kind: 'exists', field: 'returnedAt', value: true }],
      order: [
        { field: 'title', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ],
    })
  })

  it('bounds list sizes, order sizes and value lengths', () => {
    const many = Array.from({ length: 101 }, () => 'genre[]=FICTION').join('&')
    expect(problem(many)).toBe('The "genre[]" parameter takes at most 100 values, 101 given.')
    const spec = {
      ...books,
      order: Array.from({ length: 11 }, (_, index) => ({ field: `f${index}`, type: 'Int' })),
    }
    const order = Array.from({ length: 11 }, (_, index) => `order[f${index}]=asc`).join('&')
    expect(problem(order, spec)).toBe('The "order" parameter takes at most 10 fields, 11 given.')
    expect(problem(`title=${'x'.repeat(1001)}`)).toBe(
      'The "title" parameter is too long: at most 1000 characters.'
    )
    expect(problem('title[a][b]=1')).toContain('"title[a]" parameter is not known')
  })

  it('leaves the cursor operators of cursor fields to the cursor', () => {
    const feed: QuerySpec = {
      ...books,
      filters: [{ kind: 'date', field: 'occurredAt' }],
      order: [],
    }
    expect(
      read('occurredAt[after]=2024-01-01&occurredAt[lt]=2024-06-01', feed, {
        cursorFields: new Set(['occurredAt']),
      }).filters
    ).toEqual([
      { kind: 'date', field: 'occurredAt', operator: 'after', value: new Date('2024-01-01Z') },
    ])
    expect(problem('occurredAt[lt]=2024-06-01', feed)).toContain('is not known')
  })
})
