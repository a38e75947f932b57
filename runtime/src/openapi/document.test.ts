import { describe, expect, it } from 'vitest'
import type { ApiDescription, DocumentedType } from '../hydra/documentation.js'
import { defaultPagingConfig } from '../paging/config.js'
import { renderOpenApi } from './document.js'

const author: DocumentedType = {
  name: 'Author',
  fields: [
    { name: 'id', type: 'Int' },
    { name: 'name', type: 'String' },
    { name: 'born', type: 'DateTime', required: false },
  ],
  links: [{ name: 'books', kind: 'many', target: { name: 'Book' } }],
  itemPath: '/authors',
  idKind: 'Int',
  keyNames: ['id'],
  collections: [{ name: 'author', path: '/authors', paging: defaultPagingConfig }],
}

const book: DocumentedType = {
  name: 'Book',
  fields: [
    { name: 'id', type: 'BigInt' },
    { name: 'price', type: 'Decimal' },
    { name: 'genre', type: 'Genre', values: ['POETRY', 'HISTORY'] },
  ],
  links: [{ name: 'author', kind: 'one', required: false, target: { name: 'Author' } }],
  itemPath: '/books',
  idKind: 'BigInt',
  collections: [
    {
      name: 'book',
      path: '/books',
      hydraPrefix: false,
      paging: {
        ...defaultPagingConfig,
        cursor: [{ field: 'id', direction: 'desc', type: 'BigInt' }],
      },
    },
  ],
}

const api: ApiDescription = { title: 'Shelf', types: [author, book] }

type Document = {
  servers: unknown
  paths: Record<
    string,
    {
      get: {
        parameters: { name: string; schema: unknown }[]
        responses: Record<string, { headers?: Record<string, unknown> }>
      }
    }
  >
  components: { schemas: Record<string, Record<string, unknown>> }
}
/** The document as a client reads it: its JSON, parsed. */
const render = (base = ''): Document =>
  JSON.parse(JSON.stringify(renderOpenApi(api, { origin: 'http://x', base })))

describe('renderOpenApi', () => {
  it("declares the Link header of every collection's pages, not of items", () => {
    const { paths } = render()
    const linkOf = (path: string) => {
      return paths[path]?.get.responses['200']?.headers?.Link
    }
    for (const path of ['/authors', '/authors/{id}/books', '/books'])
      expect(linkOf(path), path).toMatchObject({ schema: { type: 'string' } })
    expect(linkOf('/authors/{id}')).toBeUndefined()
  })

  it('serves a sub-collection as the target collection under the parent key', () => {
    const document = render()
    expect(Object.keys(document.paths)).toEqual([
      '/authors',
      '/authors/{id}',
      '/authors/{id}/books',
      '/books',
      '/books/{id}',
    ])
    const sub = document.paths['/authors/{id}/books']?.get
    expect(sub?.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      schema: { type: 'integer' },
    })
    expect(sub?.parameters.slice(1)).toEqual(document.paths['/books']?.get.parameters)
    expect(sub).toMatchObject({
      responses: {
        200: {
          content: {
            'application/ld+json': {
              schema: { $ref: '#/components/schemas/Book.Collection.unprefixed' },
            },
          },
        },
      },
    })
  })

  it('writes only the collection styles that are served, and members as they are written', () => {
    const { schemas } = render().components
    expect(Object.keys(schemas)).toEqual([
      'Author',
      'Author.jsonld',
      'Author.Collection',
      'Book',
      'Book.jsonld',
      'Book.Collection.unprefixed',
      'HydraView',
      'HydraSearch',
      'HydraView.unprefixed',
      'HydraSearch.unprefixed',
      'Problem',
    ])
    expect(schemas.Book?.properties).toMatchObject({
      id: { type: 'string', pattern: '^-?[0-9]+$' },
      price: { type: 'string' },
      genre: { type: 'string', enum: ['POETRY', 'HISTORY'] },
      author: { type: ['string', 'null'], format: 'uri-reference' },
    })
    expect(schemas.Author?.properties).toMatchObject({
      born: { type: ['string', 'null'], format: 'date-time' },
      books: { type: 'string' },
    })
  })

  it('lists cursor positions typed as their field, and the page read by offset', () => {
    const parameters = render().paths['/books']?.get.parameters ?? []
    expect(parameters.map((parameter) => parameter.name)).toEqual([
      'id[lt]',
      'id[gt]',
      'id[lte]',
      'id[gte]',
      'page',
    ])
    expect(parameters[0]?.schema).toEqual({ type: ['integer', 'string'] })
  })

  it('puts the server and the problem examples under the mount path', () => {
    const document = render('/api') as Document & {
      components: { responses: Record<string, unknown> }
    }
    expect(document.servers).toEqual([{ url: '/api', description: expect.any(String) }])
    expect(document.components.responses['404']).toMatchObject({
      content: {
        'application/problem+json': {
          examples: { hydra: { value: { '@id': '/api/errors/404', '@type': 'hydra:Error' } } },
        },
      },
    })
  })

  it('requires of a type whose rules hide fields only what no rule can hide', () => {
    const hiding: ApiDescription = {
      ...api,
      access: { Author: { hidden: () => ['name'] }, Book: { scope: () => undefined } },
    }
    const { schemas } = (renderOpenApi(hiding, { origin: 'http://x', base: '' }) as Document)
      .components
    // Any field may be hidden from some caller: the `@id`, `@type` and key are always sent.
    expect(schemas.Author?.required).toEqual(['@id', '@type', 'id'])
    expect(schemas['Author.jsonld']?.required).toEqual(['@context', '@id', '@type', 'id'])
    expect(Object.keys(schemas.Author?.properties ?? {})).toEqual([
      '@id',
      '@type',
      'id',
      'name',
      'born',
      'books',
    ])
    expect(schemas.Author?.additionalProperties).toBe(false)
    // A type whose rules hide nothing requires every field, as without rules.
    expect(schemas.Book?.required).toEqual(['@id', '@type', 'id', 'price', 'genre', 'author'])
    expect(render().components.schemas.Author?.required).toEqual([
      '@id',
      '@type',
      'id',
      'name',
      'born',
      'books',
    ])
  })
})

describe('renderOpenApi: change feeds', () => {
  it("names each feed's own collection in its 410's example", () => {
    const feeds: ApiDescription = {
      title: 'Shelf',
      types: [
        { ...author, changesPath: '/authors/changes' },
        { ...book, changesPath: '/books/changes' },
      ],
    }
    const document = renderOpenApi(feeds, { origin: 'http://x', base: '/api' }) as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>
    }
    const detailOf = (path: string) => {
      const gone = document.paths[path]?.get.responses['410'] as {
        content: Record<string, { examples: Record<string, { value: { detail: string } }> }>
      }
      const { examples } = gone.content['application/problem+json'] ?? { examples: {} }
      return [examples.hydra?.value.detail, examples.unprefixed?.value.detail]
    }
    const detail = (collection: string) =>
      `since: the change log no longer holds the changes after this token; read /api${collection} again and take a new token.`
    expect(detailOf('/authors/changes')).toEqual([detail('/authors'), detail('/authors')])
    expect(detailOf('/books/changes')).toEqual([detail('/books'), detail('/books')])
  })
})
