import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { memorySource, type Row, type Where } from '../../../test/memory-source.js'
import type { CursorKey } from '../../contract/order.js'
import { defineResource } from '../../hydra/resource.js'
import { defaultPagingConfig } from '../../paging/config.js'
import { paginateArray } from '../../paging/paginators.js'
import type { RowWindow } from '../../paging/types.js'
import { serveSource } from './collection-route.js'
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

describe('serveSource: a streamed collection empties each batch once written', () => {
  const rows = Array.from({ length: 23 }, (_, index) => ({ id: index + 1 }))
  const operation = (orderKey?: readonly CursorKey[]) => ({
    resource: defineResource(
      { key: { name: 'id', kind: 'Int' } },
      { name: 'Item', collectionPath: '/items', fields: [{ name: 'id', type: 'Int' }] }
    ),
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
      serveSource(c, operation(key), recording, { batchSize: 5 })
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

describe("serveSource: a resource's providers, by operation name", () => {
  const resource = defineResource(
    { key: { name: 'id', kind: 'Int' } },
    { name: 'Item', collectionPath: '/items', fields: [{ name: 'id', type: 'Int' }] }
  )
  const idKey: CursorKey[] = [{ field: 'id', direction: 'asc', type: 'Int' }]
  const source = memorySource([{ id: 1 }, { id: 2 }], idKey)
  const providers = {
    popular: (request: Parameters<typeof paginateArray>[1]) => paginateArray([{ id: 99 }], request),
  }
  const ids = async (name: string, paging = defaultPagingConfig) => {
    const operation = { name, resource, path: '/items', paging }
    const app = new Hono().get('/items', (c) => serveSource(c, operation, source, { providers }))
    const body = (await (await app.request('/items')).json()) as Record<string, unknown>
    return (body['hydra:member'] as Array<{ id: number }>).map((member) => member.id)
  }

  it('replaces the query of the operation it names, and no other', async () => {
    expect(await ids('popular')).toEqual([99])
    expect(await ids('collection')).toEqual([1, 2])
  })

  it('leaves a cursor-paged operation to its source', async () => {
    expect(await ids('popular', { ...defaultPagingConfig, cursor: idKey })).toEqual([1, 2])
  })
})
