/**
 * Keys of PostgreSQL's own types end to end (test/fixtures/native-ids, docs/hydra.md#identifiers):
 * `@db.Uuid` ids and Bytes ids (base64url in IRIs) as items, link targets and sub-collection
 * parents; a malformed UUID or base64url key is a 404 problem, never the database's error (500);
 * several suppliers in one request (`id[]`) by lower-case uuids only, as their IRIs write them.
 * Every request is answered by the `prisma` engine and the `compiled` one, whose bytes must be the
 * same: its keys and positions are SQL parameters of PostgreSQL's own types. Runs in
 * the `postgresql` project only.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from './.generated-postgresql/native-ids/hydra/index.js'
import { PrismaClient } from './.generated-postgresql/native-ids/prisma/client.js'
import {
  createAdapter,
  expectSameOnBothEngines,
  freshDatabase,
  get as getOne,
  startServer,
} from './support/harness.js'

const SCHEMA = new URL('./fixtures/native-ids/schema.prisma', import.meta.url).pathname
const PROBLEM = 'application/problem+json; charset=utf-8'
const SUPPLIER = '0b7e7f3c-2f55-4c51-9d1e-6a4c8f2d9e01'
const SHIPMENT = '5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f'
const OTHER_SUPPLIER = '0a000000-0000-4000-8000-000000000002'
/** Shipments and their batches (a uuid field the resource shows), two of them in one batch. */
const BATCHES = [
  { id: SHIPMENT, label: 'First', batch: 'c0000000-0000-4000-8000-000000000001' },
  {
    id: '5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e30',
    label: 'Second',
    batch: 'e0000000-0000-4000-8000-000000000002',
  },
  {
    id: '5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e31',
    label: 'Third',
    batch: 'c0000000-0000-4000-8000-000000000001',
  },
]

let prisma: PrismaClient
let origin: string
let compiledOrigin: string
let close: () => Promise<void>
let closeCompiled: () => Promise<void>
let remove: () => Promise<void>

type Body = Record<string, unknown>
const members = (body: Body) => (body['hydra:member'] ?? []) as Body[]

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await prisma.supplier.createMany({
    data: [
      { id: SUPPLIER, name: 'Acme' },
      { id: OTHER_SUPPLIER, name: 'Bolt' },
    ],
  })
  await prisma.shipment.createMany({ data: BATCHES })
  await prisma.blob.createMany({
    data: [
      { hash: new Uint8Array([0, 1, 2, 255]), label: 'Blob A' },
      { hash: new Uint8Array([0xfb, 0xff]), label: 'Blob B' },
    ],
  })
  await prisma.product.createMany({
    data: [
      { id: 1, name: 'Anvil', supplierId: SUPPLIER, blobHash: new Uint8Array([0xfb, 0xff]) },
      { id: 2, name: 'Rocket', supplierId: SUPPLIER },
      { id: 3, name: 'Bolt', supplierId: OTHER_SUPPLIER },
    ],
  })
  // Batches of 1: every unpaged response is read past each row's key.
  ;({ origin, close } = await startServer(createHydraApp({ prisma, batchSize: 1 }).fetch))
  const compiled = createHydraApp({ prisma, batchSize: 1, engine: 'compiled', adapter })
  ;({ origin: compiledOrigin, close: closeCompiled } = await startServer(compiled.fetch))
})

afterAll(async () => {
  await close?.()
  await closeCompiled?.()
  await prisma?.$disconnect()
  await remove?.()
})

/** The answer of the `prisma` engine's app, once the `compiled` one's has been found the same. */
async function get(at: string, path: string): ReturnType<typeof getOne> {
  await expectSameOnBothEngines(at, compiledOrigin, path)
  return getOne(at, path)
}

describe('uuid and Bytes keys', () => {
  it('items, links and sub-collections round-trip', async () => {
    const product = (await get(origin, '/products/1')).body
    expect(product).toMatchObject({ supplier: `/suppliers/${SUPPLIER}`, blob: '/blobs/-_8' })
    for (const iri of [product.supplier, product.blob, `/shipments/${SHIPMENT}`, '/blobs/AAEC_w']) {
      const item = await get(origin, iri as string)
      expect([item.status, item.body['@id']]).toEqual([200, iri])
    }
    const products = await get(origin, `/suppliers/${SUPPLIER}/products`)
    expect(members(products.body).map((member) => member.id)).toEqual([1, 2])
    const blobProducts = await get(origin, '/blobs/-_8/products')
    expect([blobProducts.status, members(blobProducts.body).map((m) => m.id)]).toEqual([200, [1]])
    const filtered = await get(
      origin,
      `/products?supplier=${encodeURIComponent(`/suppliers/${SUPPLIER}`)}`
    )
    expect(members(filtered.body)).toHaveLength(2)
  })

  it.each([
    '/suppliers/not-a-uuid',
    '/suppliers/not-a-uuid/products',
    `/suppliers/${SUPPLIER}x`,
    '/shipments/not-a-uuid',
    '/shipments/00000000-0000-0000-0000-000000000000',
    '/blobs/AAEC_w%3D%3D',
    '/blobs/AAEC%2Bw',
    '/blobs/%25%25',
    '/blobs/AAEC_x',
    '/blobs/%25/products',
  ])('%s is a 404 problem', async (path) => {
    const { status, contentType, body } = await get(origin, path)
    expect([status, contentType], JSON.stringify(body)).toEqual([404, PROBLEM])
  })
})

describe('several suppliers in one request (id[]), by their uuids as IRIs write them', () => {
  const list = (values: readonly string[]) =>
    values.map((value) => `id[]=${encodeURIComponent(value)}`).join('&')

  it('lists the suppliers named by lower-case uuid or IRI', async () => {
    const { status, body } = await get(
      origin,
      `/suppliers?${list([SUPPLIER, `/suppliers/${OTHER_SUPPLIER}`])}`
    )
    expect(status).toBe(200)
    expect(members(body).map((member) => member.name)).toEqual(['Bolt', 'Acme'])
  })

  it.each([
    SUPPLIER.toUpperCase(),
    `/suppliers/${SUPPLIER.toUpperCase()}`,
    `/suppliers/${OTHER_SUPPLIER.replace('a', 'A')}`,
  ])(
    'id[]=%s, which PostgreSQL would match and whose item IRI is a 404, is a 400',
    async (value) => {
      const iri = value.startsWith('/') ? value : `/suppliers/${value}`
      const item = await get(origin, iri)
      expect([item.status, item.contentType]).toEqual([404, PROBLEM])
      const { status, contentType, body } = await get(origin, `/suppliers?${list([value])}`)
      expect([status, contentType], JSON.stringify(body)).toEqual([400, PROBLEM])
      expect(body.detail).toContain('The "id[]" parameter must be an IRI of /suppliers/…')
      const products = await get(origin, `/products?supplier=${encodeURIComponent(value)}`)
      expect([products.status, products.contentType]).toEqual([400, PROBLEM])
    }
  )
})

describe('unpaged operations keyed by uuid fields', () => {
  it('a uuid foreign key the resource does not show: every product once, in order', async () => {
    const { status, body } = await get(origin, '/products/by-supplier')
    expect(status).toBe(200)
    // OTHER_SUPPLIER sorts first (0a… < 0b…), then the id breaks the ties.
    expect(members(body).map((member) => member.id)).toEqual([3, 1, 2])
  })

  it('a uuid field the resource shows: every shipment once, in order', async () => {
    const { status, body } = await get(origin, '/shipments/by-batch')
    expect(status).toBe(200)
    // The newest batch first, then the id (…1e2f < …1e31) breaks the tie of the other two.
    expect(members(body).map((member) => member.label)).toEqual(['Second', 'First', 'Third'])
  })
})
