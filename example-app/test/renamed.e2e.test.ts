/**
 * Renamed query parameters (spec 8.3, rule 7), end to end: test/fixtures/renamed/platform.json
 * renames page → p, pagination → paged, itemsPerPage → size and partial → no-count. Only the new
 * names are read; the old ones are ordinary parameters, kept in links like any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/renamed/hydra/index.js'
import { PrismaClient } from '#fixtures/renamed/prisma/client.js'
import { createAdapter, freshDatabase, get, ids, startServer } from './support/harness.js'

const SCHEMA = new URL('./fixtures/renamed/schema.prisma', import.meta.url).pathname

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let remove: () => Promise<void>

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.dummy.createMany({
    data: Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `Dummy #${i + 1}` })),
  })
  await prisma.tag.createMany({
    data: Array.from({ length: 40 }, (_, i) => ({ id: i + 1, name: `Tag ${i + 1}` })),
  })
  ;({ origin, close } = await startServer(createHydraApp({ prisma }).fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

describe('renamed parameters', () => {
  it('the page parameter is p, in requests and in links', async () => {
    const response = await get(origin, '/dummies?p=2')
    expect(ids(response.body)).toEqual([4, 5, 6])
    expect(response.body['hydra:view']).toEqual({
      '@id': '/dummies?p=2',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/dummies?p=1',
      'hydra:last': '/dummies?p=10',
      'hydra:previous': '/dummies?p=1',
      'hydra:next': '/dummies?p=3',
    })
  })

  it('the old page name is not read, and is kept like any other parameter', async () => {
    const response = await get(origin, '/dummies?page=2')
    expect(ids(response.body)).toEqual([1, 2, 3])
    expect((response.body['hydra:view'] as Record<string, string>)['hydra:next']).toBe(
      '/dummies?page=2&p=2'
    )
  })

  it('size sets the page size; itemsPerPage does not', async () => {
    expect(ids((await get(origin, '/dummies?size=5')).body)).toEqual([1, 2, 3, 4, 5])
    expect(ids((await get(origin, '/dummies?itemsPerPage=5')).body)).toEqual([1, 2, 3])
    const view = (await get(origin, '/dummies?size=5&p=2')).body['hydra:view'] as Record<
      string,
      string
    >
    expect(view['hydra:last']).toBe('/dummies?size=5&p=6')
  })

  it('paged=false switches paging off; pagination=false does not', async () => {
    const off = await get(origin, '/dummies?paged=false')
    expect(ids(off.body)).toHaveLength(30)
    expect(off.body['hydra:view']).toEqual({
      '@id': '/dummies?paged=false',
      '@type': 'hydra:PartialCollectionView',
    })
    expect(ids((await get(origin, '/dummies?pagination=false')).body)).toEqual([1, 2, 3])
  })

  it('no-count=1 selects partial paging; partial=1 does not', async () => {
    const partial = await get(origin, '/dummies?no-count=1&p=2')
    expect(partial.body['hydra:totalItems']).toBeUndefined()
    expect(partial.body['hydra:view']).toEqual({
      '@id': '/dummies?no-count=1&p=2',
      '@type': 'hydra:PartialCollectionView',
      'hydra:previous': '/dummies?no-count=1&p=1',
      'hydra:next': '/dummies?no-count=1&p=3',
    })
    expect((await get(origin, '/dummies?partial=1')).body['hydra:totalItems']).toBe(30)
  })

  it.each([
    ['p=abc', 'The "p" parameter must be a decimal integer, "abc" given.'],
    ['p=0', 'Page should not be less than 1'],
    ['size=-1', 'Limit should not be less than 0'],
    [
      'paged=nope',
      'The "paged" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "nope" given.',
    ],
    [
      'no-count=2',
      'The "no-count" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "2" given.',
    ],
  ])('errors name the renamed parameter: ?%s', async (query, detail) => {
    const response = await get(origin, `/dummies?${query}`)
    expect(response.status).toBe(400)
    expect(response.body.detail).toBe(detail)
  })

  it('the old names never cause errors', async () => {
    const response = await get(
      origin,
      '/dummies?page=abc&itemsPerPage=-1&pagination=foo&partial=maybe'
    )
    expect(response.status).toBe(200)
  })
})

describe('paging disabled globally (spec 8.4 rule 2)', () => {
  it('serves a resource without its own setting unpaged', async () => {
    const response = await get(origin, '/tags')
    expect(ids(response.body)).toHaveLength(40)
    expect(response.body['hydra:totalItems']).toBe(40)
    expect(response.body['hydra:view']).toBeUndefined()
  })

  it('lets a resource switch paging back on', async () => {
    expect(ids((await get(origin, '/dummies')).body)).toEqual([1, 2, 3])
  })
})
