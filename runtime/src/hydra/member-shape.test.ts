import { describe, expect, it } from 'vitest'
import type { PropertySelection } from '../filters/properties.js'
import { memberShape, type ShapedResource } from './member-shape.js'
import { defineResource } from './resource.js'

const description = {
  name: 'Book',
  collectionPath: '/books',
  fields: [
    { name: 'id', type: 'Int' },
    { name: 'title', type: 'String' },
    { name: 'publishedAt', type: 'DateTime' },
  ],
  links: [
    {
      name: 'author',
      kind: 'one' as const,
      from: 'authorId',
      target: {
        name: 'Author',
        collectionPath: '/authors',
        key: { name: 'id', kind: 'Int' as const },
      },
    },
  ],
}
const source = { key: { name: 'id', kind: 'Int' as const } }
const generic = defineResource(source, description)
/** The same resource with a generated writer that must not be called for a shaped member. */
const written = defineResource(source, description, () => {
  throw new Error('a shaped member is written whole')
})

const row = { id: 1, title: 'Night', publishedAt: new Date(Date.UTC(2025, 0, 2)), authorId: 3 }
const author = {
  property: {
    name: 'author',
    embed: {
      model: 'Author',
      delegate: 'author',
      key: ['id'],
      fields: [{ name: 'name', type: 'String' }],
    },
  },
  fields: ['name'],
}
const shape = (
  resource: ShapedResource<unknown>,
  requested: PropertySelection | undefined,
  hidden: readonly string[] = []
) =>
  memberShape({
    resource,
    requested,
    declared: undefined,
    hiding: { hidden: new Set(hidden), hiddenOf: () => new Set() },
    base: '/api',
    hydraPrefix: true,
  })

describe("a request's member shape", () => {
  it('writes every property with the resource writer when nothing is selected or hidden', () => {
    expect(shape(generic, undefined).write(row)).toStrictEqual({
      '@id': '/api/books/1',
      '@type': 'Book',
      id: 1,
      title: 'Night',
      publishedAt: '2025-01-02T00:00:00.000Z',
      author: '/api/authors/3',
    })
    expect(shape(generic, undefined).omitted).toBeUndefined()
  })

  it('writes a selected, hidden or embedding member in one pass, in the resource order', () => {
    const names = new Set(['author', 'title'])
    const selected = shape(written, { names, embeds: new Map() })
    expect(JSON.stringify(selected.write(row))).toBe(
      '{"@id":"/api/books/1","@type":"Book","title":"Night","author":"/api/authors/3"}'
    )
    expect(selected.omitted).toStrictEqual(new Set(['publishedAt']))
    expect(shape(written, undefined, ['title', 'author']).write(row)).toStrictEqual({
      '@id': '/api/books/1',
      '@type': 'Book',
      id: 1,
      publishedAt: '2025-01-02T00:00:00.000Z',
    })
    const embedding = shape(written, {
      names: new Set(['author']),
      embeds: new Map([['author', author]]),
    })
    expect(embedding.write({ ...row, author: { id: 3, name: 'Ada' } })).toStrictEqual({
      '@id': '/api/books/1',
      '@type': 'Book',
      author: { '@id': '/api/authors/3', '@type': 'Author', name: 'Ada' },
    })
  })

  it("picks the properties of a resource made by hand from its own writer's members", () => {
    const byHand = {
      ...generic,
      toMember: () => ({ '@id': '/x/1', '@type': 'X', a: 1, title: 't' }),
    }
    expect(
      shape(byHand, { names: new Set(['title']), embeds: new Map() }).write(row)
    ).toStrictEqual({
      '@id': '/x/1',
      '@type': 'X',
      title: 't',
    })
  })
})
