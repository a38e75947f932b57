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
  it('names each operation by its key, with the resource and the default parameter names', () => {
    const operations = defineOperations(resource, {
      collection: { path: '/items', paging, hydraPrefix: true },
      recent: { path: '/items/recent', paging: { ...paging, itemsPerPage: 5 }, hydraPrefix: false },
    })
    expect(operations.recent).toEqual({
      name: 'recent',
      resource,
      path: '/items/recent',
      paging: { ...paging, itemsPerPage: 5, parameters: defaultParameterNames },
      hydraPrefix: false,
    })
    expect(operations.collection.name).toBe('collection')
    // The literal stays: it types the responses' keys (`hydra:member` or `member`).
    expectTypeOf(operations.collection.hydraPrefix).toEqualTypeOf<true>()
    expectTypeOf(operations.recent.name).toEqualTypeOf<'recent'>()
  })

  it('gives every operation the renamed parameters', () => {
    const renamed = { page: 'p', enabled: 'paged', itemsPerPage: 'size', partial: 'part' }
    const operations = defineOperations(
      resource,
      { collection: { path: '/items', paging } },
      renamed
    )
    expect(operations.collection.paging.parameters).toEqual(renamed)
  })
})
