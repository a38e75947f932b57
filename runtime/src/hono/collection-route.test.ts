import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { memorySource, type Row, type Where } from '../../test/memory-source.js'
import { defineResource } from '../hydra/resource.js'
import { defaultPagingConfig } from '../paging/config.js'
import { paginateArray } from '../paging/paginators.js'
import type { CursorKey, RowWindow } from '../paging/types.js'
import { serveCollection } from './collection-route.js'
import { hydraCollection } from './custom-collection.js'

describe('hydraCollection: paging options are checked when the collection is defined', () => {
  const define = (paging: Parameters<typeof hydraCollection>[0]['paging']) => () =>
    hydraCollection({ context: '/contexts/Item', paging }, (request) => paginateArray([], request))

  it.each([
    [{ itemsPerPage: -1 }, 'itemsPerPage must be an integer of at least 0, -1 given'],
    [{ itemsPerPage: 2.5 }, 'itemsPerPage must be an integer of at least 0, 2.5 given'],
    [{ maximumItemsPerPage: 0 }, 'maximumItemsPerPage must be a positive integer or null, 0 given'],
    [{ parameters: { page: '' } }, 'parameter names must be non-empty strings'],
    [
      { parameters: { page: 'p', itemsPerPage: 'p' } },
      'parameter names must be distinct, p, pagination, p, partial given',
    ],
  ])('%o', (paging, message) => {
    expect(define(paging)).toThrow(`hydraCollection: invalid paging options: ${message}.`)
  })

  it('accepts the defaults, a null maximum and renamed parameters', () => {
    expect(define(undefined)).not.toThrow()
    expect(define({ maximumItemsPerPage: null, parameters: { page: 'p' } })).not.toThrow()
  })
})

describe('serveCollection: a streamed collection empties each batch once written', () => {
  const rows = Array.from({ length: 23 }, (_, index) => ({ id: index + 1 }))
  const operation = (orderKey?: readonly CursorKey[]) => ({
    resource: defineResource<{ '@id': string; id: number }, 'Int'>({
      name: 'Item',
      collectionPath: '/items',
      id: { name: 'id', kind: 'Int' },
      fields: [{ name: 'id', type: 'Int' }],
    }),
    path: '/items',
    paging: { ...defaultPagingConfig, enabled: false },
    ...(orderKey ? { orderKey } : {}),
  })
  const idKey: CursorKey[] = [{ field: 'id', direction: 'asc', type: 'Int' }]

  it.each([
    ['keyset', idKey],
    ['offset', undefined],
  ])('%s batches: every row once, each batch read emptied, the rows kept', async (_, key) => {
    const source = memorySource(rows, idKey)
    const batches: Row[][] = []
    const recording = {
      ...source,
      findMany: async (window: RowWindow<Where>) => {
        const batch = await source.findMany(window)
        batches.push(batch)
        return batch
      },
    }
    const app = new Hono().get('/items', (c) =>
      serveCollection(c, operation(key), recording, { batchSize: 5 })
    )
    const response = await app.request('/items')
    const body = (await response.json()) as Record<string, unknown>
    expect(body['hydra:totalItems']).toBe(23)
    expect((body['hydra:member'] as Array<{ id: number }>).map((member) => member.id)).toEqual(
      rows.map((row) => row.id)
    )
    expect(source.windows).toHaveLength(5)
    expect(batches.map((batch) => batch.length)).toEqual([0, 0, 0, 0, 0])
    expect(rows).toHaveLength(23)
  })
})
