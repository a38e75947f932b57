import { describe, expect, it } from 'vitest'
import type { QuerySpec } from '../contract/query.js'
import { defaultFilterParameterNames } from '../filters/spec.js'
import { defaultPagingConfig } from '../paging/config.js'
import { contextDocument } from './context.js'
import { collectionMappings, collectionSearch, searchMappings, searchTemplate } from './search.js'

const spec: QuerySpec = {
  filters: [
    { kind: 'search', field: 'title', strategy: 'partial', type: 'String' },
    { kind: 'search', field: 'genre', strategy: 'exact', type: 'Enum', enumValues: ['A'] },
    { kind: 'range', field: 'price', type: 'Decimal' },
    { kind: 'date', field: 'publishedAt' },
    { kind: 'boolean', field: 'available' },
    { kind: 'numeric', field: 'pages', type: 'Int' },
    { kind: 'exists', field: 'returnedAt' },
  ],
  order: [{ field: 'title', type: 'String' }],
  id: { field: 'id', type: 'Int' },
  parameters: { ...defaultFilterParameterNames, exists: 'has' },
  likeEscape: 'none',
}

describe('searchTemplate', () => {
  it('writes one IriTemplateMapping per variable, in API Platform’s order and shape', () => {
    const search = searchTemplate('/api/books', searchMappings(spec), true)
    const variables = [
      'title',
      'genre',
      'genre[]',
      'price[between]',
      'price[gt]',
      'price[gte]',
      'price[lt]',
      'price[lte]',
      'publishedAt[before]',
      'publishedAt[strictly_before]',
      'publishedAt[after]',
      'publishedAt[strictly_after]',
      'available',
      'pages',
      'pages[]',
      'has[returnedAt]',
      'order[title]',
      'order[id]',
    ]
    expect(search['@type']).toBe('hydra:IriTemplate')
    expect(search['hydra:template']).toBe(`/api/books{?${variables.join(',')}}`)
    expect(search['hydra:variableRepresentation']).toBe('BasicRepresentation')
    const mapping = search['hydra:mapping'] as Array<Record<string, unknown>>
    expect(mapping.map((entry) => entry.variable)).toEqual(variables)
    expect(mapping[3]).toEqual({
      '@type': 'IriTemplateMapping',
      variable: 'price[between]',
      property: 'price',
      required: false,
    })
    expect(mapping.at(-1)).toMatchObject({ variable: 'order[id]', property: 'id' })
  })

  it('lists order[id], mapped to the key, where the key is not a field named id', () => {
    const genres = { ...spec, filters: [], order: [{ field: 'books', type: 'Int' }] }
    const mapping = searchMappings({ ...genres, id: { field: 'name', type: 'String' } })
    expect(mapping.map(({ variable, property }) => [variable, property])).toEqual([
      ['order[books]', 'books'],
      ['order[name]', 'name'],
      ['order[id]', 'name'],
    ])
  })

  it('lists an order for every field of a composite key, as the query reads them', () => {
    const lines = { ...spec, filters: [], order: [{ field: 'quantity', type: 'Int' }] }
    const key = [
      { field: 'orderId', type: 'Int' },
      { field: 'productId', type: 'Int' },
    ]
    const mapping = searchMappings({ ...lines, id: key[0], key })
    expect(mapping.map(({ variable, property }) => [variable, property])).toEqual([
      ['order[quantity]', 'quantity'],
      ['order[orderId]', 'orderId'],
      ['order[productId]', 'productId'],
      ['order[id]', 'orderId'],
    ])
  })

  it('writes its keys without the prefix when the collection has none', () => {
    expect(
      Object.keys(searchTemplate('/books', searchMappings({ ...spec, order: [] }), false))
    ).toEqual(['@id', '@type', 'template', 'variableRepresentation', 'mapping'])
  })
})

describe('collectionMappings', () => {
  const type = { name: 'Book', fields: [{ name: 'id', type: 'Int' }] }

  it('lists the paging parameters first, then the filters and orders', () => {
    const variables = collectionMappings(type, defaultPagingConfig, spec).map((m) => m.variable)
    expect(variables.slice(0, 3)).toEqual(['page', 'title', 'genre'])
    expect(variables.at(-1)).toBe('order[id]')
  })

  it('lists a variable paging and a filter both describe once, as paging', () => {
    const cursor = {
      ...defaultPagingConfig,
      cursor: [{ field: 'id', direction: 'asc' as const, type: 'Int' }],
    }
    const ranged: QuerySpec = {
      ...spec,
      filters: [{ kind: 'range', field: 'id', type: 'Int' }],
      order: [],
    }
    const mappings = collectionMappings(type, cursor, ranged)
    const variables = mappings.map((m) => m.variable)
    expect(variables.filter((variable) => variable === 'id[gt]')).toHaveLength(1)
    expect(variables).toContain('id[between]')
    expect(new Set(variables).size).toBe(variables.length)
  })
})

describe('the context of a type', () => {
  it('defines the template’s terms inside the search block only, so fields keep their names', () => {
    const context = contextDocument('/docs.jsonld#', {
      name: 'Book',
      fields: [{ name: 'property' }],
    })['@context']
    expect(context.property).toBe('Book/property')
    const search = context['hydra:search'] as { '@context': Record<string, unknown> }
    expect(search['@context'].IriTemplateMapping).toBe('hydra:IriTemplateMapping')
    expect(search['@context'].property).toEqual({ '@id': 'hydra:property', '@type': '@vocab' })
  })
})

describe('collectionSearch', () => {
  it('gives no template to a collection that reads no parameter', () => {
    const type = { name: 'Language', fields: [] }
    const paging = { ...defaultPagingConfig, enabled: false }
    expect(collectionSearch(type, paging, true)('/languages')).toBeUndefined()
    expect(collectionSearch(type, defaultPagingConfig, true)('/languages')).toMatchObject({
      'hydra:template': '/languages{?page}',
    })
  })
})
