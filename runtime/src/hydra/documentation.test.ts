import { describe, expect, it } from 'vitest'
import type { DeclaredEmbed } from '../contract/properties.js'
import { customPaging } from '../paging/config.js'
import { contextDocument } from './context.js'
import {
  type ApiDescription,
  entrypointContext,
  renderDocumentation,
  renderEntrypoint,
} from './documentation.js'
import type { DocumentedType } from './documented-types.js'

const api: ApiDescription = {
  title: 'Shop',
  types: [
    {
      name: 'Product',
      iri: 'https://schema.org/Product',
      fields: [
        { name: 'id', type: 'Int' },
        { name: 'name', type: 'String', iri: 'https://schema.org/name' },
        { name: 'price', type: 'Decimal', required: false },
        { name: 'tags', type: 'String', list: true },
      ],
      itemPath: '/products',
      collections: [
        { name: 'product', path: '/products', paging: customPaging() },
        {
          name: 'productFeed',
          path: '/products/feed',
          paging: {
            ...customPaging({ clientItemsPerPage: true, maximumItemsPerPage: 100 }),
            cursor: [
              { field: 'name', direction: 'desc', type: 'String' },
              { field: 'id', direction: 'desc', type: 'Int' },
            ],
          },
        },
      ],
    },
    {
      name: 'Tag',
      fields: [{ name: 'label', type: 'String' }],
      collections: [
        {
          name: 'tag',
          path: '/tags',
          paging: customPaging({
            clientEnabled: true,
            clientPartial: true,
            parameters: { page: 'p' },
          }),
        },
      ],
    },
  ],
}

const at = { origin: 'https://shop.example', base: '/api' }
type Node = Record<string, unknown>

describe('the entrypoint', () => {
  it("links each type's main collection under its key, once per type", () => {
    expect(renderEntrypoint(api, '/api')).toEqual({
      '@context': '/api/contexts/Entrypoint',
      '@id': '/api',
      '@type': 'Entrypoint',
      product: '/api/products',
      tag: '/api/tags',
    })
    expect(renderEntrypoint(api, '')['@id']).toBe('/')
  })

  it('has a context making each key a link of the documentation', () => {
    expect(entrypointContext(api, at)).toEqual({
      '@context': {
        '@vocab': 'https://shop.example/api/docs.jsonld#',
        hydra: 'http://www.w3.org/ns/hydra/core#',
        product: { '@id': 'Entrypoint/product', '@type': '@id' },
        tag: { '@id': 'Entrypoint/tag', '@type': '@id' },
      },
    })
  })
})

describe('the API documentation', () => {
  const docs = renderDocumentation(api, at)
  const classes = docs['hydra:supportedClass'] as Node[]
  const byId = (id: string) => classes.find((entry) => entry['@id'] === id) as Node

  it('is an ApiDocumentation with its title and entrypoint', () => {
    expect(docs).toMatchObject({
      '@id': '/api/docs.jsonld',
      '@type': 'hydra:ApiDocumentation',
      'hydra:title': 'Shop',
      'hydra:entrypoint': { '@id': '/api' },
    })
    expect(docs['hydra:description']).toBeUndefined()
    expect(classes.map((entry) => entry['@id'])).toEqual(['#Product', '#Tag', '#Entrypoint'])
  })

  it("names each class in the API's vocabulary, a declared type IRI its superclass", () => {
    expect(byId('#Product')['rdfs:subClassOf']).toEqual({ '@id': 'https://schema.org/Product' })
    expect(byId('#Tag')['rdfs:subClassOf']).toBeUndefined()
  })

  it('documents each field with its IRI, range and whether it is required', () => {
    const properties = byId('#Product')['hydra:supportedProperty'] as Node[]
    expect(
      properties.map((property) => {
        const inner = property['hydra:property'] as Node
        return [inner['@id'], inner.range, property['hydra:required'], property['hydra:writeable']]
      })
    ).toEqual([
      ['#Product/id', 'xsd:integer', true, false],
      ['https://schema.org/name', 'xsd:string', true, false],
      ['#Product/price', 'xsd:decimal', false, false],
      ['#Product/tags', 'rdf:List', true, false],
    ])
  })

  it('documents the item operation only where items are served', () => {
    expect(byId('#Product')['hydra:supportedOperation']).toEqual([
      {
        '@type': ['hydra:Operation', 'schema:FindAction'],
        'hydra:method': 'GET',
        'hydra:title': 'getProduct',
        'rdfs:label': 'Retrieves one Product resource.',
        returns: '#Product',
      },
    ])
    expect(byId('#Tag')['hydra:supportedOperation']).toEqual([])
  })

  const search = (key: string, index = 0) => {
    const links = byId('#Entrypoint')['hydra:supportedProperty'] as Node[]
    const link = links.find(
      (entry) => (entry['hydra:property'] as Node)['@id'] === `#Entrypoint/${key}`
    ) as Node
    const property = link['hydra:property'] as Node
    const operation = (property['hydra:supportedOperation'] as Node[])[index] as Node
    return { property, operation, search: operation['hydra:search'] as Node }
  }

  it("documents a type's other collections as operations of its entry, each at its path", () => {
    const links = byId('#Entrypoint')['hydra:supportedProperty'] as Node[]
    expect(links.map((link) => (link['hydra:property'] as Node)['@id'])).toEqual([
      '#Entrypoint/product',
      '#Entrypoint/tag',
    ])
    const feed = search('product', 1)
    expect(feed.operation['hydra:title']).toBe('getProductFeedCollection')
    expect(feed.operation['hydra:method']).toBe('GET')
    expect(feed.search['hydra:template']).toBe(
      '/api/products/feed{?name[lt],name[gt],name[lte],name[gte],id[lt],id[gt],id[lte],id[gte],page,itemsPerPage}'
    )
  })

  it('declares a property with its own IRI by its field name, without a domain, and enums with their values', () => {
    const properties = byId('#Product')['hydra:supportedProperty'] as Node[]
    expect(properties[1]?.['hydra:property']).toEqual({
      '@id': 'https://schema.org/name',
      '@type': 'rdf:Property',
      'rdfs:label': 'name',
      range: 'xsd:string',
    })
    expect(properties[1]?.['hydra:title']).toBe('name')
    const withEnum = renderDocumentation(
      {
        title: 'Shop',
        types: [
          {
            name: 'Shirt',
            fields: [{ name: 'size', type: 'Size', values: ['S', 'M'] }],
            collections: [],
          },
        ],
      },
      at
    )
    const shirt = (withEnum['hydra:supportedClass'] as Node[])[0] as Node
    const size = (shirt['hydra:supportedProperty'] as Node[])[0]?.['hydra:property'] as Node
    expect(size.range).toEqual([
      'xsd:string',
      {
        '@id': '#enum/Size',
        '@type': 'rdfs:Datatype',
        'rdfs:label': 'Size',
        'owl:onDatatype': { '@id': 'xsd:string' },
        'owl:oneOf': { '@list': [{ '@value': 'S' }, { '@value': 'M' }] },
      },
    ])
  })

  it('types each collection as a collection of its members, in both forms', () => {
    for (const [key, type] of [
      ['product', '#Product'],
      ['tag', '#Tag'],
    ]) {
      const { property } = search(key as string)
      expect(property['rdfs:range']).toEqual([
        { '@id': 'hydra:Collection' },
        {
          'owl:equivalentClass': {
            'owl:onProperty': { '@id': 'hydra:member' },
            'owl:allValuesFrom': { '@id': type },
          },
        },
      ])
      expect(property['hydra:memberAssertion']).toEqual({
        'hydra:property': { '@id': 'rdf:type' },
        'hydra:object': { '@id': type },
      })
    }
  })

  it('describes the paging parameters a client may send, under their configured names', () => {
    const variables = (key: string, index = 0) =>
      (search(key, index).search['hydra:mapping'] as Node[]).map((mapping) => [
        mapping['hydra:variable'],
        (mapping['hydra:property'] as Node)['@id'],
      ])
    expect(search('product').search['hydra:template']).toBe('/api/products{?page}')
    expect(variables('product')).toEqual([['page', 'hydra:pageIndex']])
    expect(search('tag').search['hydra:template']).toBe('/api/tags{?p,pagination,partial}')
    expect(variables('tag')).toEqual([
      ['p', 'hydra:pageIndex'],
      ['pagination', '#pagination'],
      ['partial', '#partial'],
    ])
    expect(variables('product', 1)).toEqual([
      ['name[lt]', 'https://schema.org/name'],
      ['name[gt]', 'https://schema.org/name'],
      ['name[lte]', 'https://schema.org/name'],
      ['name[gte]', 'https://schema.org/name'],
      ['id[lt]', '#Product/id'],
      ['id[gt]', '#Product/id'],
      ['id[lte]', '#Product/id'],
      ['id[gte]', '#Product/id'],
      ['page', 'hydra:pageIndex'],
      ['itemsPerPage', 'hydra:limit'],
    ])
    const limit = (search('product', 1).search['hydra:mapping'] as Node[]).at(-1) as Node
    expect(limit['hydra:description']).toBe('Items per page (default 30, at most 100).')
  })
})

describe('totals that are not exact', () => {
  it('declares totalItemsAccuracy only when a collection counts loosely', () => {
    const loose: ApiDescription = {
      ...api,
      types: api.types.map((type, index) =>
        index === 1
          ? {
              ...type,
              collections: type.collections.map((c) => ({ ...c, totals: 'cached' as const })),
            }
          : type
      ),
    }
    const classes = renderDocumentation(loose, at)['hydra:supportedClass'] as Node[]
    const declared = classes.find((entry) => entry['@id'] === 'hydra:Collection') as Node
    expect(declared['hydra:supportedProperty']).toMatchObject([
      {
        'hydra:property': {
          '@id': '#totalItemsAccuracy',
          '@type': 'rdf:Property',
          domain: 'hydra:Collection',
          range: 'xsd:string',
        },
        'hydra:required': false,
      },
    ])
    const exact = renderDocumentation(api, at)['hydra:supportedClass'] as Node[]
    expect(exact.some((entry) => entry['@id'] === 'hydra:Collection')).toBe(false)
  })
})

describe('contexts', () => {
  it("define the Hydra terms both ways and the fields; the type is the vocabulary's class", () => {
    const { '@context': context } = contextDocument('https://shop.example/docs.jsonld#', {
      name: 'Product',
      fields: [{ name: 'id' }, { name: 'name', iri: 'https://schema.org/name' }],
    })
    expect(context).toMatchObject({
      '@vocab': 'https://shop.example/docs.jsonld#',
      member: 'hydra:member',
      next: { '@id': 'hydra:next', '@type': '@id' },
      'hydra:next': { '@type': '@id' },
      id: 'Product/id',
      name: 'https://schema.org/name',
    })
    // `Product` expands through @vocab to the documentation's class, `#Product`.
    expect(context.Product).toBeUndefined()
  })

  it("leave out the Hydra terms the type's own fields take", () => {
    const { '@context': context } = contextDocument('https://shop.example/docs.jsonld#', {
      name: 'Step',
      fields: [{ name: 'next' }, { name: 'view' }],
    })
    expect(context.next).toBe('Step/next')
    expect(context.view).toBe('Step/view')
    expect(context['hydra:next']).toEqual({ '@type': '@id' })
    expect(context.member).toBe('hydra:member')
  })

  it('type the literals JSON cannot type as the documentation declares them', () => {
    const { '@context': context } = contextDocument('https://shop.example/docs.jsonld#', {
      name: 'Product',
      fields: [
        { name: 'id', type: 'Int' },
        { name: 'at', type: 'DateTime' },
        { name: 'price', type: 'Decimal', iri: 'https://schema.org/price' },
        { name: 'big', type: 'BigInt' },
        { name: 'data', type: 'Json' },
        { name: 'size', type: 'Size', values: ['S', 'M'] },
      ],
    })
    const XSD = 'http://www.w3.org/2001/XMLSchema#'
    expect(context.id).toBe('Product/id')
    expect(context.at).toEqual({ '@id': 'Product/at', '@type': `${XSD}dateTime` })
    expect(context.price).toEqual({ '@id': 'https://schema.org/price', '@type': `${XSD}decimal` })
    expect(context.big).toEqual({ '@id': 'Product/big', '@type': `${XSD}integer` })
    expect(context.data).toEqual({ '@id': 'Product/data', '@type': '@json' })
    expect(context.size).toBe('Product/size')
  })

  it('refuse a field named hydra, which would replace the prefix', () => {
    expect(() =>
      contextDocument('https://shop.example/docs.jsonld#', {
        name: 'Odd',
        fields: [{ name: 'hydra' }],
      })
    ).toThrow('The context of Odd cannot define a field "hydra"')
  })
})

describe('relations declared embedded', () => {
  const author = { name: 'Author', fields: [{ name: 'name', type: 'String' }], collections: [] }
  const spec = (fields: readonly string[]) => ({
    model: 'Author',
    delegate: 'author',
    key: ['id'],
    fields: fields.map((name) => ({ name, type: 'String' })),
  })
  const documented = (embedded: DeclaredEmbed[]) => {
    const type: DocumentedType = {
      name: 'Book',
      fields: [{ name: 'title', type: 'String' }],
      links: [{ name: 'author', kind: 'one', target: { name: 'Author' } }],
      itemPath: '/books',
      collections: [{ name: 'book', path: '/books', paging: customPaging() }],
      embedded,
    }
    const rendered = renderDocumentation({ title: 'Library', types: [type, author] }, at)
    const book = (rendered['hydra:supportedClass'] as Node[]).find(
      (entry) => entry['@id'] === '#Book'
    ) as Node
    const link = (book['hydra:supportedProperty'] as Node[]).at(-1) as Node
    const property: Node = { ...(link['hydra:property'] as Node) }
    property['hydra:description'] = link['hydra:description']
    return property
  }

  it('declares a relation every operation embeds an rdf:Property, naming its fields', () => {
    const property = documented([{ name: 'author', embed: spec(['name']) }])
    expect(property['@type']).toBe('rdf:Property')
    expect(property['hydra:description']).toBe(
      'Embedded: the related Author with its @id, @type and name (a field hidden from the caller left out); its IRI when the caller may not see it.'
    )
  })

  it('keeps a relation some operations show as an IRI a hydra:Link, naming which embed what', () => {
    const property = documented([
      { name: 'author', embed: spec(['name', 'country']), operations: ['item'] },
      { name: 'author', embed: spec(['name']), operations: ['collection', 'Shelf.books'] },
    ])
    expect(property['@type']).toBe('hydra:Link')
    expect(property['hydra:description']).toBe(
      'Embedded by operation (collection, an extra operation, item, a sub-collection as Parent.link): on item, the related Author with its @id, @type and name, country (a field hidden from the caller left out); its IRI when the caller may not see it; on collection, Shelf.books, the related Author with its @id, @type and name (a field hidden from the caller left out); its IRI when the caller may not see it. Every other operation shows its IRI.'
    )
  })

  it('declares it an rdf:Property when one declaration is every other operation’s', () => {
    const property = documented([
      { name: 'author', embed: spec(['name']) },
      { name: 'author', embed: spec(['name', 'country']), operations: ['item'] },
    ])
    expect(property['@type']).toBe('rdf:Property')
    expect(property['hydra:description']).toContain(
      'on item, the related Author with its @id, @type and name, country'
    )
    expect(property['hydra:description']).toContain(
      '; on every other operation, the related Author with its @id, @type and name ('
    )
    expect(property['hydra:description']).not.toContain('Every other operation shows its IRI')
  })
})
