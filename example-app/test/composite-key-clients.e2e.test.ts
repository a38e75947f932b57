/**
 * Composite keys as clients send them (test/fixtures/composite-keys, docs/hydra.md#identifiers):
 * openapi-fetch, the client docs/openapi.md recommends, percent-encodes a path parameter as a
 * whole (`/order-lines/orderId%3D1%3BproductId%3D1`), and the item, its sub-collections and the
 * OpenAPI document's description of `{id}` must serve it; and a rule hiding a field of the key,
 * which every `@id` shows, is refused on every route of the model.
 */
import createClient from 'openapi-fetch'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/composite-keys/hydra/index.js'
import { PrismaClient } from '#fixtures/composite-keys/prisma/client.js'
import { createAdapter, freshDatabase, get, startServer } from './support/harness.js'

const SCHEMA = new URL('./fixtures/composite-keys/schema.prisma', import.meta.url).pathname

type Body = Record<string, unknown>
type Problem = { status: number; detail: string }

/** The operations of the fixture's OpenAPI document this test calls, as openapi-typescript types them. */
interface Paths {
  '/order-lines/{id}': {
    get: {
      parameters: { path: { id: string } }
      responses: {
        200: { content: { 'application/ld+json': Body } }
        404: { content: { 'application/problem+json': Problem } }
      }
    }
  }
  '/order-lines/{id}/notes': {
    get: {
      parameters: { path: { id: string } }
      responses: { 200: { content: { 'application/ld+json': Body } } }
    }
  }
  '/shelves/{id}': {
    get: {
      parameters: { path: { id: string } }
      responses: { 200: { content: { 'application/ld+json': Body } } }
    }
  }
}

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
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

/** The last segment of an item IRI: the key as the IRI writes it. */
const keyOf = (iri: string) => iri.slice(iri.lastIndexOf('/', iri.indexOf('=')) + 1)

describe('openapi-fetch', () => {
  it('reads an item by its composite key, which it sends percent-encoded', async () => {
    const sent: string[] = []
    const client = createClient<Paths>({
      baseUrl: origin,
      fetch: (request: Request) => {
        sent.push(new URL(request.url).pathname)
        return fetch(request)
      },
    })
    const line = await client.GET('/order-lines/{id}', {
      params: { path: { id: 'orderId=1;productId=2' } },
    })
    expect(sent).toEqual(['/order-lines/orderId%3D1%3BproductId%3D2'])
    expect(line.response.status).toBe(200)
    // The answer names the item in the one form links use.
    expect(line.data).toMatchObject({
      '@id': '/order-lines/orderId=1;productId=2',
      quantity: 5,
      notes: '/order-lines/orderId=1;productId=2/notes',
    })
    const notes = await client.GET('/order-lines/{id}/notes', {
      params: { path: { id: 'orderId=1;productId=2' } },
    })
    expect(notes.response.status).toBe(200)
    expect(((notes.data?.['hydra:member'] ?? []) as Body[]).map((note) => note.text)).toEqual([
      'Fragile',
      'Gift',
    ])
    const absent = await client.GET('/order-lines/{id}', {
      params: { path: { id: 'orderId=2;productId=2' } },
    })
    expect(absent.error).toMatchObject({ status: 404 })
  })

  it('reads every item by the key its @id writes, values needing encoding included', async () => {
    const client = createClient<Paths>({ baseUrl: origin })
    const shelves = (await get(origin, '/shelves')).body['hydra:member'] as Body[]
    expect(shelves.map((shelf) => shelf['@id'])).toEqual([
      '/shelves/aisle=C%2Fd;slot=1',
      '/shelves/aisle=E%3Bf%3Dg;slot=2',
    ])
    for (const shelf of shelves) {
      const iri = shelf['@id'] as string
      const read = await client.GET('/shelves/{id}', { params: { path: { id: keyOf(iri) } } })
      expect([read.response.status, read.data?.['@id']], iri).toEqual([200, iri])
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
    const client = createClient<Paths>({ baseUrl: origin })
    const example = await client.GET('/order-lines/{id}', {
      params: { path: { id: line?.example ?? '' } },
    })
    expect(example.response.status).toBe(200)
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
