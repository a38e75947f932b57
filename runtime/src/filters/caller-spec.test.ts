import { describe, expect, it } from 'vitest'
import type { QuerySpec } from '../contract/query.js'
import { callerSpec } from './caller-spec.js'

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
    // The same variant for the same caller kind; the spec itself for a caller who sees all.
    expect(callerSpec(spec, new Set(['author.email']), new Set())).toBe(variant)
    expect(callerSpec(spec, new Set(), new Set())).toBe(spec)
  })
})
