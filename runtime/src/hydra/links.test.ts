import { describe, expect, it } from 'vitest'
import type { LinkSpec } from '../contract/resource.js'
import { contextDocument } from './context.js'
import { renderDocumentation } from './documentation.js'
import { defineResource } from './resource.js'

const author = { name: 'Author', iri: 'https://schema.org/Person', collectionPath: '/authors' }
const links: LinkSpec[] = [
  { name: 'author', kind: 'one', target: author, from: 'authorId' },
  { name: 'editor', kind: 'one', target: author, from: ['editor', 'id'], required: false },
  { name: 'tags', kind: 'many', target: { name: 'Tag', collectionPath: '/tags' } },
]
const book = defineResource(
  { key: { name: 'id', kind: 'String' } },
  { name: 'Book', collectionPath: '/books', fields: [{ name: 'title', type: 'String' }], links }
)

describe('links in members', () => {
  it('to-one: the related IRI from the key or through the relation, null when empty', () => {
    const row = { id: 'a b', title: 'T', authorId: 3, editor: { id: 'x/y' } }
    expect(book.toMember(row, '/api')).toEqual({
      '@id': '/api/books/a%20b',
      '@type': 'Book',
      title: 'T',
      author: '/api/authors/3',
      editor: '/api/authors/x%2Fy',
      tags: '/api/books/a%20b/tags',
    })
    const empty = book.toMember({ id: '1', title: 'T', authorId: null, editor: null }, '')
    expect([empty.author, empty.editor, empty.tags]).toEqual([null, null, '/books/1/tags'])
  })
})

describe('links in contexts and documentation', () => {
  it('contexts type every link @id', () => {
    const { '@context': context } = contextDocument('https://shop.example/docs.jsonld#', book)
    expect(context.author).toEqual({ '@id': 'Book/author', '@type': '@id' })
    expect(context.tags).toEqual({ '@id': 'Book/tags', '@type': '@id' })
  })

  it('documents to-one links with the related class, to-many with a collection of it', () => {
    const docs = renderDocumentation(
      { title: 'Shop', types: [{ name: 'Book', fields: [], links, collections: [] }] },
      { origin: 'https://shop.example', base: '' }
    )
    const [type] = docs['hydra:supportedClass'] as Array<Record<string, unknown>>
    const properties = type?.['hydra:supportedProperty'] as Array<Record<string, unknown>>
    expect(
      properties.map((property) => [property['hydra:title'], property['hydra:required']])
    ).toEqual([
      ['author', true],
      ['editor', false],
      ['tags', true],
    ])
    expect(properties[0]?.['hydra:property']).toEqual({
      '@id': '#Book/author',
      '@type': 'hydra:Link',
      'rdfs:label': 'author',
      domain: '#Book',
      'rdfs:range': { '@id': '#Author' },
      'owl:maxCardinality': 1,
    })
    expect(properties[2]?.['hydra:property']).toMatchObject({
      '@type': 'hydra:Link',
      'rdfs:range': [
        { '@id': 'hydra:Collection' },
        {
          'owl:equivalentClass': {
            'owl:onProperty': { '@id': 'hydra:member' },
            'owl:allValuesFrom': { '@id': '#Tag' },
          },
        },
      ],
      'hydra:memberAssertion': {
        'hydra:property': { '@id': 'rdf:type' },
        'hydra:object': { '@id': '#Tag' },
      },
    })
  })
})
