/**
 * Composite keys as clients send them (test/fixtures/composite-keys, docs/hydra.md#identifiers):
 * openapi-fetch, the client docs/openapi.md recommends, over the types openapi-typescript writes
 * of the served document (test/openapi-composite-client), percent-encodes a path parameter as a
 * whole (`/order-lines/orderId%3D1%3BproductId%3D1`), and the item, its sub-collections and the
 * OpenAPI document's description of `{id}` must serve it; and a rule hiding a field of the key,
 * which every `@id` shows, is refused on every route of the model.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/composite-keys/hydra/index.js'
import { PrismaClient } from '#fixtures/composite-keys/prisma/client.js'
import type { CompositeClient } from './openapi-composite-client/reads.js'
import { createAdapter, freshDatabase, get, startServer } from './support/harness.js'
import { openapiTypescriptClient } from './support/openapi-typescript-client.js'

const SCHEMA = new URL('./fixtures/composite-keys/schema.prisma', import.meta.url).pathname

type Body = Record<string, unknown>

interface PathParameter {
  name: string
  in: string
  description: string
  schema: { type: string; pattern?: string }
  example?: string
}
type OpenApi = { paths: Record<string, { get: { parameters: PathParameter[] } }> }

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let remove: () => Promise<void>
let compositeReads: CompositeClient
let removeClient: (() => Promise<void>) | undefined

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.order.createMany({ data: [1, 2].map((id) => ({ id, label: `Order ${id}` })) })
  await prisma.product.createMany({ data: [1, 2].map((id) => ({ id, name: `Product ${id}` })) })
  await prisma.orderLine.createMany({
    data: [
      { orderId: 1, productId: 1, quantity: 3 },
      { orderId: 1, productId: 2, quantity: 5 },
      { orderId: 2, productId: 1, quantity: 7 },
    ],
  })
  await prisma.lineNote.createMany({
    data: [
      { id: 1, text: 'Fragile', lineOrderId: 1, lineProductId: 2 },
      { id: 2, text: 'Gift', lineOrderId: 1, lineProductId: 2 },
    ],
  })
  // Values that need encoding of their own: a `/`, a `;` and an `=` inside a key field.
  await prisma.shelf.createMany({
    data: [
      { aisle: 'C/d', slot: 1, label: 'anchors' },
      { aisle: 'E;f=g', slot: 2, label: 'hooks' },
    ],
  })
  ;({ origin, close } = await startServer(createHydraApp({ prisma }).fetch))
  const client = await openapiTypescriptClient<{ compositeReads: CompositeClient }>(
    new URL('./openapi-composite-client/', import.meta.url),
    `${origin}/openapi.json`
  )
  ;({ compositeReads } = client.module)
  removeClient = client.remove
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
  await removeClient?.()
})

/** The last segment of an item IRI: the key as the IRI writes it. */
const keyOf = (iri: string) => iri.slice(iri.lastIndexOf('/', iri.indexOf('=')) + 1)

describe('openapi-fetch', () => {
  it('reads an item by its composite key, which it sends percent-encoded', async () => {
    const sent: string[] = []
    const reads = compositeReads(origin, sent)
    const line = await reads.line('orderId=1;productId=2')
    expect(sent).toEqual(['/order-lines/orderId%3D1%3BproductId%3D2'])
    // The answer names the item in the one form links use.
    expect(line).toMatchObject({
      status: 200,
      iri: '/order-lines/orderId=1;productId=2',
      quantity: 5,
      notes: '/order-lines/orderId=1;productId=2/notes',
    })
    const notes = await reads.notesOfLine('orderId=1;productId=2')
    expect([notes.status, notes.texts]).toEqual([200, ['Fragile', 'Gift']])
    const absent = await reads.line('orderId=2;productId=2')
    expect(absent).toMatchObject({ status: 404, iri: undefined })
    expect(absent.detail).toEqual(expect.any(String))
  })

  it('reads every item by the key its @id writes, values needing encoding included', async () => {
    const reads = compositeReads(origin)
    const shelves = (await get(origin, '/shelves')).body['hydra:member'] as Body[]
    expect(shelves.map((shelf) => shelf['@id'])).toEqual([
      '/shelves/aisle=C%2Fd;slot=1',
      '/shelves/aisle=E%3Bf%3Dg;slot=2',
    ])
    for (const shelf of shelves) {
      const iri = shelf['@id'] as string
      const read = await reads.shelf(keyOf(iri))
      expect([read.status, read.iri, read.label], iri).toEqual([200, iri, shelf.label])
    }
    // The same key, written as the IRI has it, answers alike.
    const direct = await get(origin, '/shelves/aisle=E%3Bf%3Dg;slot=2')
    expect([direct.status, direct.body.label]).toEqual([200, 'hooks'])
  })
})

describe('the OpenAPI document', () => {
  it('says how a composite key is written, with a pattern and an example that are served', async () => {
    const document = (await get(origin, '/openapi.json')).body as unknown as OpenApi
    const [line] = document.paths['/order-lines/{id}']?.get.parameters ?? []
    expect(line).toMatchObject({
      name: 'id',
      in: 'path',
      schema: { type: 'string', pattern: '^orderId=[^;]*;productId=[^;]*$' },
      example: 'orderId=1;productId=1',
    })
    expect(line?.description).toContain('orderId={orderId};productId={productId}')
    const [parent] = document.paths['/order-lines/{id}/notes']?.get.parameters ?? []
    expect(parent?.schema.pattern).toBe(line?.schema.pattern)
    const shelf = document.paths['/shelves/{id}']?.get.parameters[0]
    expect(shelf?.schema.pattern).toBe('^aisle=[^;]*;slot=[^;]*$')
    // Every key the API writes matches the pattern; the example names an item that exists here.
    const pattern = new RegExp(line?.schema.pattern ?? '$^')
    const lines = (await get(origin, '/order-lines')).body['hydra:member'] as Body[]
    for (const member of lines) expect(keyOf(member['@id'] as string)).toMatch(pattern)
    const example = await compositeReads(origin).line(line?.example ?? '')
    expect(example.status).toBe(200)
  })
})

describe('a rule hiding a field of the key', () => {
  it('is refused on every route of the model, naming the model and the field', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    // The types refuse a key's field (`<Model>Hideable` leaves it out); an app whose rules are
    // not typed so (JavaScript, a rule computed at run time) meets the refusal at run time.
    const access: HydraAccess = {
      // @ts-expect-error: productId is part of OrderLine's key
      OrderLine: { hidden: () => ['productId'] },
      // @ts-expect-error: id is Order's key
      Order: { hidden: () => ['id'] },
    }
    const app = createHydraApp({ prisma, access })
    const server = await startServer(app.fetch)
    try {
      for (const path of [
        '/order-lines/orderId=1;productId=2',
        '/order-lines',
        '/orders/1/lines',
        '/orders/1',
        '/orders',
      ]) {
        const { status, body } = await get(server.origin, path)
        expect([status, body.detail], path).toEqual([
          500,
          'The server could not complete the request.',
        ])
      }
      const logged = errors.mock.calls.map((call) => call.map(String).join(' '))
      expect(logged).toContainEqual(
        expect.stringContaining(
          "TypeError: OrderLine: productId is part of its items' key, written in every @id, and cannot be hidden"
        )
      )
      expect(logged).toContainEqual(
        expect.stringContaining(
          "TypeError: Order: id is part of its items' key, written in every @id, and cannot be hidden"
        )
      )
      // A field outside the key is hidden as before.
      const quantity = createHydraApp({
        prisma,
        access: { OrderLine: { hidden: () => ['quantity'] } },
      })
      const item = await quantity.request('http://localhost/order-lines/orderId=1;productId=2')
      expect(item.status).toBe(200)
      expect(await item.json()).not.toHaveProperty('quantity')
    } finally {
      await server.close()
      errors.mockRestore()
    }
  })
})
