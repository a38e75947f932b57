import { describe, expect, expectTypeOf, it } from 'vitest'
import { defineResource } from '../hydra/resource.js'
import { defaultPagingConfig } from '../paging/config.js'
import { defineOperations } from './operations.js'
import { defaultParameterNames } from './paging.js'

const resource = defineResource(
  { key: { name: 'id', kind: 'Int' } },
  { name: 'Item', collectionPath: '/items', fields: [{ name: 'id', type: 'Int' }] }
)
const { parameters: _, ...paging } = defaultPagingConfig

describe('defineOperations', () => {
  it('names each operation by its key, with the resource, parameter names and prefix', () => {
    const operations = defineOperations(
      resource,
      {
        collection: { paging },
        recent: {
          path: '/items/recent',
          paging: { ...paging, itemsPerPage: 5 },
          hydraPrefix: false,
        },
      },
      { hydraPrefix: true }
    )
    const byId = [{ field: 'id', direction: 'asc' }]
    expect(operations.recent).toEqual({
      name: 'recent',
      resource,
      path: '/items/recent',
      order: byId,
      orderKey: [{ field: 'id', direction: 'asc', type: 'Int' }],
      paging: { ...paging, itemsPerPage: 5, parameters: defaultParameterNames },
      hydraPrefix: false,
    })
    // The collection's path is the resource's.
    expect(operations.collection.path).toBe('/items')
    expect(operations.collection.name).toBe('collection')
    expect(operations.collection.hydraPrefix).toBe(true)
    // The literals stay: they type the responses' keys (`hydra:member` or `member`).
    expectTypeOf(operations.collection.hydraPrefix).toEqualTypeOf<true>()
    expectTypeOf(operations.recent.hydraPrefix).toEqualTypeOf<false>()
    expectTypeOf(operations.recent.name).toEqualTypeOf<'recent'>()
  })

  it('ends each order with the key, or follows the cursor', () => {
    const operations = defineOperations(
      resource,
      {
        byName: { paging, order: [{ field: 'name', direction: 'desc' }] },
        byIdDesc: { paging, order: [{ field: 'id', direction: 'desc' }] },
        feed: {
          paging: {
            ...paging,
            cursor: [
              { field: 'at', direction: 'desc', type: 'DateTime' },
              { field: 'id', direction: 'desc', type: 'Int' },
            ],
          },
        },
      },
      { hydraPrefix: true }
    )
    expect(operations.byName.order).toEqual([
      { field: 'name', direction: 'desc' },
      { field: 'id', direction: 'asc' },
    ])
    expect(operations.byIdDesc.order).toEqual([{ field: 'id', direction: 'desc' }])
    expect(operations.feed.order).toEqual([
      { field: 'at', direction: 'desc' },
      { field: 'id', direction: 'desc' },
    ])
  })

  it('gives every operation the renamed parameters', () => {
    const renamed = { page: 'p', enabled: 'paged', itemsPerPage: 'size', partial: 'part' }
    const operations = defineOperations(
      resource,
      { collection: { path: '/items', paging } },
      { hydraPrefix: false, parameters: renamed }
    )
    expect(operations.collection.paging.parameters).toEqual(renamed)
    expectTypeOf(operations.collection.hydraPrefix).toEqualTypeOf<false>()
  })

  it('derives the keyset key of an offset order from the key and the described fields', () => {
    const books = defineResource(
      { key: { name: 'id', kind: 'String', uuid: true } },
      {
        name: 'Book',
        collectionPath: '/books',
        fields: [
          { name: 'id', type: 'String' },
          { name: 'publishedAt', type: 'DateTime' },
          { name: 'note', type: 'String', required: false },
          { name: 'shelf', type: 'Shelf', values: ['A', 'B'] },
          { name: 'tags', type: 'String', list: true },
          { name: 'batch', type: 'String', uuid: true },
        ],
        unshown: [
          { name: 'authorId', type: 'Int' },
          { name: 'editorId', type: 'Int', required: false },
        ],
      }
    )
    const ordered = (field: string) => ({
      path: '/books',
      paging,
      order: [
        { field, direction: 'desc' as const },
        { field: 'id', direction: 'asc' as const },
      ],
    })
    const operations = defineOperations(
      books,
      {
        newest: ordered('publishedAt'),
        byNote: ordered('note'),
        byShelf: ordered('shelf'),
        byTags: ordered('tags'),
        byBatch: ordered('batch'),
        byAuthor: ordered('authorId'),
        byEditor: ordered('editorId'),
        byUnknown: ordered('code'),
        feed: {
          ...ordered('publishedAt'),
          paging: {
            ...paging,
            cursor: [{ field: 'publishedAt', direction: 'desc', type: 'DateTime' }],
          },
        },
      },
      { hydraPrefix: true }
    )
    const id = { field: 'id', direction: 'asc', type: 'String', uuid: true }
    expect(operations.newest.orderKey).toEqual([
      { field: 'publishedAt', direction: 'desc', type: 'DateTime' },
      id,
    ])
    // A shown UUID field and a field the resource describes without showing it key batches too.
    expect(operations.byBatch.orderKey).toEqual([
      { field: 'batch', direction: 'desc', type: 'String', uuid: true },
      id,
    ])
    expect(operations.byAuthor.orderKey).toEqual([
      { field: 'authorId', direction: 'desc', type: 'Int' },
      id,
    ])
    // Optional, enum and list fields cannot key a batch, shown or not; nor can a field the
    // resource does not describe; cursor operations read by their cursor.
    expect(operations.byNote.orderKey).toBeUndefined()
    expect(operations.byShelf.orderKey).toBeUndefined()
    expect(operations.byTags.orderKey).toBeUndefined()
    expect(operations.byEditor.orderKey).toBeUndefined()
    expect(operations.byUnknown.orderKey).toBeUndefined()
    expect(operations.feed.orderKey).toBeUndefined()
    expect('orderKey' in operations.byNote).toBe(false)
  })
})
