/**
 * Composite primary keys end to end (test/fixtures/composite-keys, docs/hydra.md#identifiers):
 * items at API Platform's IRIs (`/order-lines/orderId=3;productId=7`) that round-trip; full,
 * partial, unpaged and cursor collections with the key as tie-breaker (every row exactly once);
 * client orders ending with the key; links and sub-collections to and from such models; filters
 * by relation IRI; the documentation; malformed, partial and misordered keys are 404 problems;
 * alcaeus (a Hydra client nobody here wrote) walking the lines and dereferencing their IRIs.
 */
import Environment from '@zazuko/env/Environment.js'
import rdf from '@zazuko/env-node'
import create from 'alcaeus'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/composite-keys/hydra/index.js'
import { PrismaClient } from '#fixtures/composite-keys/prisma/client.js'
import {
  createAdapter,
  documentedProperties,
  freshDatabase,
  get,
  startServer,
} from './support/harness.js'

const SCHEMA = new URL('./fixtures/composite-keys/schema.prisma', import.meta.url).pathname
const PROBLEM = 'application/problem+json; charset=utf-8'

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let remove: () => Promise<void>

type Body = Record<string, unknown>
const members = (body: Body) => (body['hydra:member'] ?? []) as Body[]
const view = (body: Body) => (body['hydra:view'] ?? {}) as Record<string, string>
const lineIri = (orderId: number, productId: number) =>
  `/order-lines/orderId=${orderId};productId=${productId}`

/** Lines of orders 1-4 with products 1-5 by a rule: quantities repeat, some pairs are absent. */
const LINES = [1, 2, 3, 4].flatMap((orderId) =>
  [1, 2, 3, 4, 5]
    .filter((productId) => (orderId + productId) % 3 !== 0)
    .map((productId) => ({ orderId, productId, quantity: (orderId * productId) % 4 }))
)
const STOCK = ['north', 'south', 'east'].flatMap((warehouse) =>
  [1, 2, 3].map((sku) => ({ warehouse, sku, quantity: (sku + warehouse.length) % 3 }))
)

/** Keyed by a composite @@unique only; the aisle of one needs encoding. */
const SHELVES = [
  { aisle: 'B', slot: 2, label: 'bolts' },
  { aisle: 'A', slot: 10, label: 'nails' },
  { aisle: 'C/d', slot: 1, label: 'anchors' },
  { aisle: 'A', slot: 1, label: 'screws' },
]
const shelfIri = (aisle: string, slot: number) =>
  `/shelves/aisle=${encodeURIComponent(aisle)};slot=${slot}`

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.order.createMany({
    data: [1, 2, 3, 4, 5].map((id) => ({ id, label: `Order ${id}` })),
  })
  await prisma.product.createMany({
    data: [1, 2, 3, 4, 5].map((id) => ({ id, name: `Product ${id}` })),
  })
  await prisma.orderLine.createMany({ data: LINES })
  await prisma.lineNote.createMany({
    data: [
      { id: 1, text: 'Fragile', lineOrderId: 1, lineProductId: 1 },
      { id: 2, text: 'Gift', lineOrderId: 1, lineProductId: 1 },
      { id: 3, text: 'Late', lineOrderId: 4, lineProductId: 3 },
    ],
  })
  await prisma.stock.createMany({ data: STOCK })
  await prisma.shelf.createMany({ data: SHELVES })
  await prisma.bin.createMany({
    data: [
      { id: 1, shelfAisle: 'B', shelfSlot: 2 },
      { id: 2, shelfAisle: 'B', shelfSlot: 2 },
      { id: 3, shelfAisle: 'C/d', shelfSlot: 1 },
    ],
  })
  ;({ origin, close } = await startServer(createHydraApp({ prisma }).fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

/** Follows `link` from `path` to the end: every member, in order (at most 50 pages). */
async function walk(path: string, link: 'hydra:next' | 'hydra:previous' = 'hydra:next') {
  const all: Body[] = []
  let next: string | undefined = path
  for (let pages = 0; next && pages < 50; pages++) {
    const { status, body } = await get(origin, next)
    expect(status, next).toBe(200)
    all.push(...members(body))
    next = view(body)[link]
  }
  return all
}

/** The variables of the documentation's IRI template for the collection at `path`. */
async function documentedVariables(path: string): Promise<string[]> {
  const classes = (await get(origin, '/docs.jsonld')).body['hydra:supportedClass'] as Body[]
  const entrypoint = classes.find((type) => type['@id'] === '#Entrypoint') as Body
  const templates = (entrypoint['hydra:supportedProperty'] as Body[]).flatMap((supported) =>
    ((supported['hydra:property'] as Body)['hydra:supportedOperation'] as Body[]).flatMap(
      (operation) => (operation['hydra:search'] ? [operation['hydra:search'] as Body] : [])
    )
  )
  const template = templates.find((entry) => String(entry['hydra:template']).startsWith(`${path}{`))
  return ((template?.['hydra:mapping'] ?? []) as Body[]).map(
    (mapping) => mapping['hydra:variable'] as string
  )
}

const byKey = (a: { orderId: number; productId: number }, b: typeof a) =>
  a.orderId - b.orderId || a.productId - b.productId
const keysOf = (items: Body[]) => items.map((item) => item['@id'])

describe('items', () => {
  it('are served at orderId=…;productId=…, which round-trips', async () => {
    const { body } = await get(origin, lineIri(4, 3))
    expect(body).toEqual({
      '@context': '/contexts/OrderLine',
      '@id': lineIri(4, 3),
      '@type': 'OrderLine',
      orderId: 4,
      productId: 3,
      quantity: 0,
      purchase: '/orders/4',
      product: '/products/3',
      notes: `${lineIri(4, 3)}/notes`,
    })
    const stock = await get(origin, '/stocks/warehouse=north;sku=2')
    expect([stock.status, stock.body['@id'], stock.body.quantity]).toEqual([
      200,
      '/stocks/warehouse=north;sku=2',
      (2 + 5) % 3,
    ])
  })

  it.each([
    '/order-lines/orderId=1',
    '/order-lines/orderId=1;',
    '/order-lines/productId=1;orderId=1',
    '/order-lines/orderId=1;productId=x',
    '/order-lines/orderId=1;productId=1;extra=2',
    '/order-lines/orderId=01;productId=1',
    '/order-lines/orderId=1;productId=2',
    '/order-lines/orderId%3D1%3BproductId%3D2',
    '/order-lines/1',
    '/order-lines/orderId=99999999999;productId=1',
    '/order-lines/orderId=1;productId=2/notes',
    '/order-lines/orderId=1/notes',
    '/stocks/warehouse=north',
    '/stocks/warehouse=north;sku=2.0',
    '/stocks/sku=2;warehouse=north',
    '/stocks/warehouse=nowhere;sku=2',
  ])('%s is a 404 problem', async (path) => {
    const { status, contentType, body } = await get(origin, path)
    expect([status, contentType], JSON.stringify(body)).toEqual([404, PROBLEM])
  })
})

describe('collections with the key as tie-breaker', () => {
  const expected = [...LINES].sort(byKey).map((line) => lineIri(line.orderId, line.productId))

  it('full paging lists every line once, in key order, counted', async () => {
    const first = await get(origin, '/order-lines')
    expect(first.body['hydra:totalItems']).toBe(LINES.length)
    expect(keysOf(await walk('/order-lines'))).toEqual(expected)
  })

  it('partial and unpaged responses too', async () => {
    expect(keysOf(await walk('/order-lines?partial=true'))).toEqual(expected)
    expect(keysOf(members((await get(origin, '/order-lines?pagination=false')).body))).toEqual(
      expected
    )
    expect(
      keysOf(
        members((await get(origin, '/order-lines?pagination=false&order[quantity]=desc')).body)
      )
    ).toEqual(
      [...LINES]
        .sort((a, b) => b.quantity - a.quantity || byKey(a, b))
        .map((line) => lineIri(line.orderId, line.productId))
    )
  })

  it('a client order ends with every field of the key', async () => {
    const walked = await walk('/order-lines?order%5Bquantity%5D=desc&itemsPerPage=5')
    expect(keysOf(walked)).toEqual(
      [...LINES]
        .sort((a, b) => b.quantity - a.quantity || byKey(a, b))
        .map((line) => lineIri(line.orderId, line.productId))
    )
  })

  it.each([
    ['/order-lines', ['orderId', 'productId']],
    ['/shelves', ['aisle', 'slot']],
  ])(
    '%s orders by each key field, and says so where clients read parameters',
    async (path, key) => {
      const variables = key.map((field) => `order[${field}]`)
      const search = (await get(origin, path)).body['hydra:search'] as Body
      const listed = (search['hydra:mapping'] as Body[]).map((entry) => entry.variable)
      expect(listed).toEqual(expect.arrayContaining(variables))
      expect(await documentedVariables(path)).toEqual(expect.arrayContaining(variables))
      const openapi = (await get(origin, '/openapi.json')).body as {
        paths: Record<string, { get: { parameters: Array<{ name: string }> } }>
      }
      const parameters = openapi.paths[path]?.get.parameters.map((parameter) => parameter.name)
      expect(parameters).toEqual(expect.arrayContaining(variables))
      // Each one orders: descending by that field, then by the whole key.
      const ids = ((await walk(path)) as Array<Record<string, string | number>>).map((row) => ({
        iri: row['@id'] as string,
        values: key.map((field) => row[field] as string | number),
      }))
      for (const [index, field] of key.entries()) {
        const walked = await walk(`${path}?order%5B${field}%5D=desc`)
        const ordered = [...ids].sort((a, b) => {
          const at = (row: typeof a, i: number) => row.values[i] as string | number
          const compare = (i: number) => (at(a, i) < at(b, i) ? -1 : at(a, i) > at(b, i) ? 1 : 0)
          return -compare(index) || compare(0) || compare(1)
        })
        expect(keysOf(walked), field).toEqual(ordered.map((row) => row.iri))
      }
    }
  )

  it('cursor paging walks both ways over a repeating field, exactly once', async () => {
    const order = [...STOCK]
      .sort(
        (a, b) => b.quantity - a.quantity || b.warehouse.localeCompare(a.warehouse) || b.sku - a.sku
      )
      .map((row) => `/stocks/warehouse=${row.warehouse};sku=${row.sku}`)
    const forward = await walk('/stocks')
    expect(keysOf(forward)).toEqual(order)
    // Back from the last page: its previous pages, then itself, hold every row once.
    let lastPage = '/stocks'
    for (let next: string | undefined = lastPage; next; ) {
      lastPage = next
      next = view((await get(origin, next)).body)['hydra:next']
    }
    const backward = await walk(lastPage, 'hydra:previous')
    expect(backward).toHaveLength(order.length)
    expect(new Set(keysOf(backward))).toEqual(new Set(order))
  })
})

describe('relations', () => {
  it('sub-collections of a single-key parent list its lines', async () => {
    const order = await get(origin, '/orders/2')
    expect(order.body.lines).toBe('/orders/2/lines')
    const lines = await walk('/orders/2/lines')
    expect(keysOf(lines)).toEqual(
      LINES.filter((line) => line.orderId === 2)
        .sort(byKey)
        .map((line) => lineIri(line.orderId, line.productId))
    )
  })

  it('a link to a composite key resolves; a composite parent’s sub-collection lists its rows', async () => {
    const note = await get(origin, '/line-notes/3')
    expect(note.body.line).toBe(lineIri(4, 3))
    const line = await get(origin, note.body.line as string)
    expect([line.status, line.body['@id']]).toEqual([200, lineIri(4, 3)])
    const notes = await get(origin, `${lineIri(1, 1)}/notes`)
    expect([notes.status, notes.body['@id']]).toEqual([200, `${lineIri(1, 1)}/notes`])
    expect(members(notes.body).map((member) => member.text)).toEqual(['Fragile', 'Gift'])
    expect(members((await get(origin, `${lineIri(1, 3)}/notes`)).body)).toEqual([])
  })

  it('filters by relation IRI, and through a relation to a composite key by its fields', async () => {
    const lines = members(
      (await get(origin, `/order-lines?purchase=${encodeURIComponent('/orders/3')}&product=1`)).body
    )
    expect(keysOf(lines)).toEqual([lineIri(3, 1)])
    const notes = await get(origin, '/line-notes?line.orderId=1&line.productId=1')
    expect(members(notes.body).map((member) => member.text)).toEqual(['Fragile', 'Gift'])
  })

  it('filters by the IRI or the key of a composite-keyed item', async () => {
    const texts = async (query: string) => {
      const { status, body } = await get(origin, `/line-notes?${query}`)
      expect(status, JSON.stringify(body)).toBe(200)
      return members(body).map((member) => member.text)
    }
    const q = encodeURIComponent
    expect(await texts(`line=${q(lineIri(1, 1))}`)).toEqual(['Fragile', 'Gift'])
    expect(await texts(`line=${q('orderId=4;productId=3')}`)).toEqual(['Late'])
    expect(await texts(`line[]=${q(lineIri(1, 1))}&line[]=${q(lineIri(4, 3))}`)).toEqual([
      'Fragile',
      'Gift',
      'Late',
    ])
    expect(await texts(`line=${q(lineIri(1, 3))}`)).toEqual([])
    const search = (await get(origin, '/line-notes')).body['hydra:search'] as Body
    expect(search['hydra:template']).toBe(
      '/line-notes{?page,line,line[],line.orderId,line.orderId[],line.productId,line.productId[],properties[],properties[line][]}'
    )
    // A shelf keyed by a composite @@unique, whose aisle is encoded in its IRI.
    const bins = await get(origin, `/bins?shelf=${q(shelfIri('C/d', 1))}`)
    expect(members(bins.body).map((member) => member['@id'])).toEqual(['/bins/3'])
  })

  it('reads several lines in one request by their IRIs or keys (id[])', async () => {
    const q = encodeURIComponent
    const wanted = [LINES[5], LINES[0], LINES[9]].map((line) => line as (typeof LINES)[number])
    const query = wanted
      .map((line, index) =>
        index === 1
          ? `id[]=${q(`orderId=${line.orderId};productId=${line.productId}`)}`
          : `id[]=${q(lineIri(line.orderId, line.productId))}`
      )
      .join('&')
    const { status, body } = await get(origin, `/order-lines?${query}`)
    expect(status).toBe(200)
    // In the collection's order (the key), whatever the order asked.
    expect(members(body)).toStrictEqual(
      [...wanted].sort(byKey).map((line) => ({
        '@id': lineIri(line.orderId, line.productId),
        '@type': 'OrderLine',
        orderId: line.orderId,
        productId: line.productId,
        quantity: line.quantity,
        purchase: `/orders/${line.orderId}`,
        product: `/products/${line.productId}`,
        notes: `${lineIri(line.orderId, line.productId)}/notes`,
      }))
    )
    expect(body['hydra:totalItems']).toBe(3)
    // An absent pair names no line; a one-field id, another type's IRI or half a key is a 400.
    const absent = await get(origin, `/order-lines?id=${q(lineIri(1, 2))}`)
    expect(members(absent.body)).toEqual([])
    for (const value of ['1', '/orders/1', 'orderId=1', lineIri(1, 1).replace('1;', 'x;')]) {
      const refused = await get(origin, `/order-lines?id[]=${q(value)}`)
      expect([refused.status, refused.contentType], value).toEqual([400, PROBLEM])
    }
    expect(await documentedVariables('/order-lines')).toEqual(
      expect.arrayContaining(['id', 'id[]'])
    )
  })

  it.each([
    '/order-lines/orderId=1',
    'orderId=1;productId=x',
    'productId=1;orderId=1',
    '/orders/1',
    '1',
  ])('a relation filter by %s is a 400 problem', async (value) => {
    const { status, contentType } = await get(
      origin,
      `/line-notes?line=${encodeURIComponent(value)}`
    )
    expect([status, contentType]).toEqual([400, PROBLEM])
  })
})

describe('embedding a composite-keyed item (docs/member-shape.md)', () => {
  /** The line of each note, from the database. */
  const noteLines = () =>
    prisma.lineNote.findMany({ include: { line: true }, orderBy: { id: 'asc' } })

  it('embeds a line at its composite IRI, on pages and items', async () => {
    const { status, body } = await get(
      origin,
      '/line-notes?properties[]=text&properties[line][]=quantity'
    )
    expect(status).toBe(200)
    const expected = (await noteLines()).map((note) => ({
      '@id': `/line-notes/${note.id}`,
      '@type': 'LineNote',
      text: note.text,
      line: {
        '@id': lineIri(note.lineOrderId, note.lineProductId),
        '@type': 'OrderLine',
        quantity: note.line.quantity,
      },
    }))
    expect(members(body)).toStrictEqual(expected)
    const item = await get(
      origin,
      '/line-notes/3?properties[line][]=orderId&properties[line][]=productId'
    )
    expect(item.body.line).toStrictEqual({
      '@id': lineIri(4, 3),
      '@type': 'OrderLine',
      orderId: 4,
      productId: 3,
    })
  })

  it('embeds a shelf keyed by a composite @@unique, its encoded aisle in its IRI', async () => {
    const { body } = await get(origin, '/bins?properties[shelf][]=label')
    const shelves = new Map(SHELVES.map((shelf) => [shelfIri(shelf.aisle, shelf.slot), shelf]))
    const embedded = members(body).map((bin) => bin.shelf as Body)
    expect(embedded.map((shelf) => shelf['@id'])).toEqual([
      shelfIri('B', 2),
      shelfIri('B', 2),
      shelfIri('C/d', 1),
    ])
    for (const shelf of embedded) expect(shelf.label).toBe(shelves.get(String(shelf['@id']))?.label)
    const item = await get(origin, '/bins/3?properties[]=shelf&properties[shelf][]=aisle')
    expect(item.body.shelf).toStrictEqual({
      '@id': shelfIri('C/d', 1),
      '@type': 'Shelf',
      aisle: 'C/d',
    })
  })

  it("keeps a composite-keyed row outside the caller's scope an IRI, on both engines", async () => {
    // Lines of order 1 and shelves of aisle B only: their keys are checked in one query.
    const access = {
      OrderLine: { scope: () => ({ orderId: 1 }) },
      Shelf: { scope: () => ({ aisle: 'B' }) },
    }
    const servers = await Promise.all(
      (['prisma', 'compiled'] as const).map((engine) =>
        startServer(createHydraApp({ prisma, access, engine }).fetch)
      )
    )
    try {
      const answers: string[] = []
      for (const server of servers) {
        const notes = await get(server.origin, '/line-notes?properties[line][]=quantity')
        expect(members(notes.body).map((note) => typeof note.line)).toEqual([
          'object',
          'object',
          'string',
        ])
        expect(members(notes.body)[2]?.line).toBe(lineIri(4, 3))
        const bin = await get(server.origin, '/bins/3?properties[shelf][]=label')
        expect(bin.body.shelf).toBe(shelfIri('C/d', 1))
        const kept = await get(server.origin, '/bins/1?properties[shelf][]=label')
        expect((kept.body.shelf as Body).label).toBe('bolts')
        answers.push(JSON.stringify([notes.body, bin.body, kept.body]))
      }
      expect(answers[0]).toBe(answers[1])
    } finally {
      for (const server of servers) await server.close()
    }
  })
})

describe('what the compiled engine hands to Prisma', () => {
  it('is not a composite-keyed item: read by its key’s fields, the prisma engine’s bytes', async () => {
    const servers = await Promise.all(
      (['prisma', 'compiled'] as const).map((engine) =>
        startServer(createHydraApp({ prisma, engine }).fetch)
      )
    )
    try {
      const [own, compiled] = servers.map((server) => server.origin) as [string, string]
      for (const path of [lineIri(1, 1), lineIri(4, 4), '/stocks/warehouse=north;sku=2']) {
        const [expected, response] = await Promise.all([
          fetch(`${own}${path}`),
          fetch(`${compiled}${path}`),
        ])
        expect(response.status, path).toBe(200)
        expect(response.headers.get('Server-Timing'), path).not.toContain('handoff')
        expect(await response.text(), path).toBe(await expected.text())
      }
      // A key no row has: the same 404.
      const missing = lineIri(1, 2)
      const [expected, response] = await Promise.all([
        fetch(`${own}${missing}`),
        fetch(`${compiled}${missing}`),
      ])
      expect([response.status, await response.text()]).toEqual([404, await expected.text()])
    } finally {
      for (const server of servers) await server.close()
    }
  })

  it('is no read of a link to a composite key: its fields are read in the page’s join', async () => {
    // A bin shows its shelf's key and a note its line's, each read through the relation: the
    // compiled engine joins the related table on the foreign key's two columns.
    const records: { level: string; fields: Record<string, unknown> }[] = []
    const logger = (record: (typeof records)[number]) => {
      records.push(record)
    }
    const servers = await Promise.all([
      startServer(createHydraApp({ prisma }).fetch),
      startServer(createHydraApp({ prisma, engine: 'compiled', logger }).fetch),
    ])
    try {
      const handoffs = records.filter(({ fields }) => fields.event === 'engine.handoff')
      expect(handoffs.map(({ fields }) => fields.operation)).toEqual([])
      const [own, compiled] = servers.map((server) => server.origin) as [string, string]
      for (const path of [
        '/bins',
        '/bins?page=2',
        '/bins/3',
        `/bins?shelf=${encodeURIComponent(shelfIri('B', 2))}`,
        '/bins?properties[]=shelf',
        '/bins?properties[shelf][]=label',
        '/line-notes',
        '/line-notes/3',
        '/line-notes?properties[line][]=quantity',
        '/shelves/aisle=B;slot=2/bins',
      ]) {
        const [expected, response] = await Promise.all([
          fetch(`${own}${path}`),
          fetch(`${compiled}${path}`),
        ])
        expect(response.status, path).toBe(200)
        expect(response.headers.get('Server-Timing'), path).not.toContain('handoff')
        expect(await response.text(), path).toBe(await expected.text())
      }
    } finally {
      for (const server of servers) await server.close()
    }
  })

  it('is said in the answers of the requests it hands over (Server-Timing)', async () => {
    // A scope known only per request, with a test the compiled SQL does not write (`notIn`).
    const access = { OrderLine: { scope: () => ({ orderId: { notIn: [4] } }) } }
    const servers = await Promise.all(
      [{}, { access }].map((options) =>
        startServer(createHydraApp({ prisma, engine: 'compiled', ...options }).fetch)
      )
    )
    try {
      const timing = async (origin: string, path = '/order-lines') => {
        const response = await fetch(`${origin}${path}`)
        expect(response.status).toBe(200)
        await response.arrayBuffer()
        return response.headers.get('Server-Timing') ?? ''
      }
      const [plain, scoped] = servers.map((server) => server.origin) as [string, string]
      expect(await timing(plain)).not.toContain('handoff')
      expect(await timing(scoped)).toContain('handoff;desc="query"')
      // An item too: read by its composite key's fields, or handed over and said so.
      expect(await timing(plain, lineIri(1, 1))).not.toContain('handoff')
      expect(await timing(scoped, lineIri(1, 1))).toContain('handoff;desc="query"')
    } finally {
      for (const server of servers) await server.close()
    }
  })
})

describe('a model keyed by a composite @@unique only', () => {
  it('is served at its unique key, in key order, linked both ways', async () => {
    const { body } = await get(origin, shelfIri('C/d', 1))
    expect(body).toEqual({
      '@context': '/contexts/Shelf',
      '@id': shelfIri('C/d', 1),
      '@type': 'Shelf',
      aisle: 'C/d',
      slot: 1,
      label: 'anchors',
      bins: `${shelfIri('C/d', 1)}/bins`,
    })
    // Upper-case aisles: the same order under every database's collation.
    const byKey = [...SHELVES].sort((a, b) =>
      a.aisle === b.aisle ? a.slot - b.slot : a.aisle < b.aisle ? -1 : 1
    )
    expect(keysOf(await walk('/shelves'))).toEqual(byKey.map((s) => shelfIri(s.aisle, s.slot)))
    expect(keysOf(await walk('/shelves?order%5Blabel%5D=desc'))).toEqual(
      [...SHELVES]
        .sort((a, b) => (a.label < b.label ? 1 : -1))
        .map((shelf) => shelfIri(shelf.aisle, shelf.slot))
    )
    const bin = await get(origin, '/bins/3')
    expect(bin.body.shelf).toBe(shelfIri('C/d', 1))
    const bins = await get(origin, `${shelfIri('B', 2)}/bins`)
    expect(members(bins.body).map((member) => member['@id'])).toEqual(['/bins/1', '/bins/2'])
  })

  it.each([
    '/shelves/aisle=A',
    '/shelves/slot=1;aisle=A',
    '/shelves/aisle=A;slot=01',
    '/shelves/aisle=A;slot=x',
    '/shelves/aisle=A;slot=3',
    '/shelves/aisle=A;slot=1;x=1',
    '/shelves/A',
    '/shelves/aisle=A/bins',
    '/shelves/aisle=Z;slot=1/bins',
  ])('%s is a 404 problem', async (path) => {
    const { status, contentType, body } = await get(origin, path)
    expect([status, contentType], JSON.stringify(body)).toEqual([404, PROBLEM])
  })
})

describe('documentation', () => {
  it('documents the key fields and the links of a composite-keyed class', async () => {
    const properties = await documentedProperties(origin, 'OrderLine')
    expect(properties.map((property) => property['hydra:title']).sort()).toEqual(
      ['notes', 'orderId', 'product', 'productId', 'purchase', 'quantity'].sort()
    )
    const context = await get(origin, '/contexts/OrderLine')
    expect(context.status).toBe(200)
  })
})

describe('alcaeus', () => {
  const HYDRA = 'http://www.w3.org/ns/hydra/core#'
  const client = () => new Environment(create(), { parent: rdf }).hydra

  /** One page as alcaeus reads it: its members and its next page. */
  async function loadPage(
    hydra: ReturnType<typeof client>,
    url: string
  ): Promise<{ members: string[]; next: string | undefined }> {
    const { response, representation } = await hydra.loadResource(url)
    expect(response?.xhr.status, url).toBe(200)
    const pointer = representation?.root?.pointer
    if (!pointer) throw new Error(`alcaeus found no main resource in ${url}`)
    const view = pointer.out(rdf.namedNode(`${HYDRA}view`))
    return {
      members: pointer.out(rdf.namedNode(`${HYDRA}member`)).values,
      next: view.out(rdf.namedNode(`${HYDRA}next`)).value,
    }
  }

  it('walks the lines by next to the end and dereferences each line’s IRI', async () => {
    const hydra = client()
    const seen: string[] = []
    let url: string | undefined = `${origin}/order-lines`
    for (let pages = 0; url && pages < 20; pages++) {
      const page = await loadPage(hydra, url)
      seen.push(...page.members)
      url = page.next
    }
    const expected = LINES.map((line) => `${origin}${lineIri(line.orderId, line.productId)}`)
    expect(seen.sort()).toEqual(expected.sort())
    const item = await hydra.loadResource(`${origin}${lineIri(4, 3)}`)
    expect(item.representation?.root?.pointer.value).toBe(`${origin}${lineIri(4, 3)}`)
  })
})
