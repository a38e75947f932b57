import { describe, expect, expectTypeOf, it } from 'vitest'
import { defineResource } from '../hydra/resource.js'
import { defaultPagingConfig, defaultParameterNames } from '../paging/config.js'
import { defineOperations } from './define-operations.js'

const resource = defineResource<{ '@id': string; id: number }, 'Int'>({
  name: 'Item',
  collectionPath: '/items',
  id: { name: 'id', kind: 'Int' },
  fields: [{ name: 'id', type: 'Int' }],
})
const { parameters: _, ...paging } = defaultPagingConfig

describe('defineOperations', () => {
  it('names each operation by its key, with the resource, parameter names and prefix', () => {
    const operations = defineOperations(
      resource,
      {
        collection: { path: '/items', paging },
        recent: {
          path: '/items/recent',
          paging: { ...paging, itemsPerPage: 5 },
          hydraPrefix: false,
        },
      },
      { hydraPrefix: true }
    )
    expect(operations.recent).toEqual({
      name: 'recent',
      resource,
      path: '/items/recent',
      paging: { ...paging, itemsPerPage: 5, parameters: defaultParameterNames },
      hydraPrefix: false,
    })
    expect(operations.collection.name).toBe('collection')
    expect(operations.collection.hydraPrefix).toBe(true)
    // The literals stay: they type the responses' keys (`hydra:member` or `member`).
    expectTypeOf(operations.collection.hydraPrefix).toEqualTypeOf<true>()
    expectTypeOf(operations.recent.hydraPrefix).toEqualTypeOf<false>()
    expectTypeOf(operations.recent.name).toEqualTypeOf<'recent'>()
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
})
