import { describe, expect, it } from 'vitest'
import { defaultFilterParameterNames, type QuerySpec } from '../filters/spec.js'
import { searchTemplate } from './search.js'

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
    const search = searchTemplate('/api/books', spec, true)
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

  it('writes its keys without the prefix when the collection has none', () => {
    expect(Object.keys(searchTemplate('/books', { ...spec, order: [] }, false))).toEqual([
      '@type',
      'template',
      'variableRepresentation',
      'mapping',
    ])
  })
})

describe('the context of a type with hydra:search', () => {
  it('defines the template’s terms, except those its fields take', async () => {
    const { contextDocument } = await import('./context.js')
    const type = { name: 'Book', fields: [{ name: 'property' }] }
    const plain = contextDocument('/docs.jsonld#', type)['@context']
    expect(plain.IriTemplateMapping).toBeUndefined()
    const searched = contextDocument('/docs.jsonld#', { ...type, search: true })['@context']
    expect(searched.IriTemplateMapping).toBe('hydra:IriTemplateMapping')
    expect(searched.variable).toBe('hydra:variable')
    expect(searched.property).toBe('Book/property')
    expect(searched['hydra:property']).toEqual({ '@type': '@vocab' })
  })
})
