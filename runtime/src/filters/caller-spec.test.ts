import { describe, expect, it } from 'vitest'
import type { QuerySpec } from '../contract/query.js'
import { callerSpec, relatedModels } from './caller-spec.js'

const through = { relation: 'author', field: 'email', model: 'Author' }
const spec: QuerySpec = {
  filters: [
    { kind: 'search', field: 'title', strategy: 'exact', type: 'String' },
    { kind: 'search', field: 'author.email', strategy: 'exact', type: 'String', through },
  ],
  order: [
    { field: 'title', type: 'String' },
    { field: 'author.email', type: 'String', through },
  ],
  id: { field: 'id', type: 'Int' },
  parameters: { order: 'order', exists: 'exists' },
  likeEscape: 'backslash',
}

describe('callerSpec', () => {
  it('leaves out the filters and orders through a field the related model hides', () => {
    const variant = callerSpec(spec, new Set(['author.email']), new Set())
    expect(variant.filters.map((filter) => filter.field)).toEqual(['title'])
    expect(variant.order.map((field) => field.field)).toEqual(['title'])
    // The spec itself for a caller who sees all.
    expect(callerSpec(spec, new Set(), new Set())).toBe(spec)
  })
})

describe('a field through more than one relation', () => {
  const deep = {
    relation: 'book',
    field: 'name',
    model: 'Book',
    next: [{ relation: 'author', model: 'Author', name: 'writer' }],
  }
  const deepSpec: QuerySpec = {
    filters: [
      { kind: 'search', field: 'rating', strategy: 'exact', type: 'Int' },
      {
        kind: 'search',
        field: 'book.author.name',
        strategy: 'exact',
        type: 'String',
        through: deep,
      },
    ],
    order: [{ field: 'book.author.name', type: 'String', through: deep }],
    id: { field: 'id', type: 'Int' },
    parameters: { order: 'order', exists: 'exists' },
    likeEscape: 'backslash',
  }
  const fields = (variant: QuerySpec) => [
    variant.filters.map((filter) => filter.field),
    variant.order.map((field) => field.field),
  ]

  it('names each related model by its relation path', () => {
    expect([...relatedModels(deepSpec)]).toEqual([
      ['book', 'Book'],
      ['book.author', 'Author'],
    ])
  })

  it('is hidden when a relation of the path or its field is', () => {
    const through = ['book.author.name']
    expect(fields(callerSpec(deepSpec, new Set(['book.author.name']), new Set()))).toEqual([
      ['rating'],
      ['id'],
    ])
    // The middle model hides its link, by its property name.
    expect(fields(callerSpec(deepSpec, new Set(['book.writer']), new Set()))).toEqual([
      ['rating'],
      ['id'],
    ])
    expect(fields(callerSpec(deepSpec, new Set(['book']), new Set()))).toEqual([['rating'], ['id']])
    // Another model's field of that name hides nothing here.
    expect(fields(callerSpec(deepSpec, new Set(['book.author']), new Set()))).toEqual([
      ['rating', ...through],
      through,
    ])
  })

  it('is not an order when the caller sees any model of the path in part', () => {
    // The key stays orderable: the order parameter is still read, and refuses the path.
    for (const partial of ['book', 'book.author'])
      expect(fields(callerSpec(deepSpec, new Set(), new Set([partial])))).toEqual([
        ['rating', 'book.author.name'],
        ['id'],
      ])
  })
})
