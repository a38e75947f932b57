/**
 * The fixtures of every key type (test/fixtures/ids) and of composite keys
 * (test/fixtures/composite-keys), seeded and served for the fuzz suite: their item routes and
 * sub-collections are fuzzed with keys of each type, malformed, out of range and mangled.
 */
import type { DocumentedType } from '@prisma-hydra/runtime'
import * as composite from '#fixtures/composite-keys/hydra/index.js'
import { PrismaClient as CompositeClient } from '#fixtures/composite-keys/prisma/client.js'
import * as ids from '#fixtures/ids/hydra/index.js'
import { PrismaClient as IdsClient } from '#fixtures/ids/prisma/client.js'
import type { FuzzRoute } from './fuzz.js'
import { createAdapter, freshDatabase, startServer, TEST_DATABASE } from './harness.js'

/** A served fixture: its types, item routes and related IRIs, and how to stop it. */
export interface KeyFixture {
  origin: string
  types: readonly DocumentedType[]
  /** Item routes and the sub-collections under them, with their parent's key fuzzed. */
  items: FuzzRoute[]
  /** Related items' IRIs, by collection path, for relation filters. */
  iris: Record<string, readonly string[]>
  close: () => Promise<void>
}

interface KeyedResource {
  collectionPath: string
  id: {
    kind: string
    values?: readonly string[] | undefined
    fields?: readonly { name: string; kind: string }[] | undefined
  }
}

const fixtures = {
  ids: {
    schema: new URL('../fixtures/ids/schema.prisma', import.meta.url).pathname,
    known: {
      '/plans': ['PRO', 'FREE', 'TEAM'],
      '/snapshots': ['2024-01-31T12%3A00%3A00.000Z'],
      '/prices': ['57.7', '0.5'],
      '/readings': ['1.5', '-3'],
      '/counters': ['9007199254740993'],
      '/users': ['alice', 'id=..', 'a%2Fb%20c'],
      '/sessions': ['tok-1'],
      '/user-names': ['alice', 'id=..'],
    } as Record<string, string[]>,
    iris: {
      '/snapshots': ['/snapshots/2024-01-31T12%3A00%3A00.000Z', '2024-01-31T12:00:00.000Z'],
      '/prices': ['/prices/57.7', '0.5'],
      '/plans': ['/plans/PRO', 'FREE'],
      '/accounts': ['/accounts/1', '2'],
    },
  },
  composite: {
    schema: new URL('../fixtures/composite-keys/schema.prisma', import.meta.url).pathname,
    known: {
      '/order-lines': ['orderId=1;productId=1', 'orderId=1;productId=3'],
      '/stocks': ['warehouse=north;sku=2'],
      '/shelves': ['aisle=A;slot=1'],
    } as Record<string, string[]>,
    iris: {
      '/orders': ['/orders/1', '2'],
      '/products': ['/products/1', '3'],
      '/order-lines': ['/order-lines/orderId=1;productId=1', 'orderId=1;productId=3'],
      '/shelves': ['/shelves/aisle=A;slot=1', 'aisle=A;slot=1'],
    },
  },
}

/**
 * The ids fixture's view `UserName` over `User`: Prisma does not create views (the schema only
 * declares it), so the tests do, as a user's migration would. The MySQL tooling, which cannot
 * tell a view from a model in the schema, made a table of that name first.
 */
export async function createUserNameView(prisma: IdsClient): Promise<void> {
  const mysql = TEST_DATABASE === 'mysql'
  const quote = (name: string) => (mysql ? `\`${name}\`` : `"${name}"`)
  if (mysql) await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS ${quote('UserName')}`)
  await prisma.$executeRawUnsafe(
    `CREATE VIEW ${quote('UserName')} AS SELECT ${quote('id')}, ${quote('name')} FROM ${quote('User')}`
  )
}

async function seedIds(prisma: IdsClient): Promise<void> {
  await createUserNameView(prisma)
  await prisma.plan.createMany({ data: [{ id: 'PRO', seats: 5 }] })
  await prisma.subscription.createMany({ data: [{ id: 1, planId: 'PRO' }] })
  await prisma.user.createMany({ data: ['alice', '..', 'a/b c'].map((id) => ({ id, name: id })) })
  await prisma.session.createMany({ data: [{ sessionToken: 'tok-1', userId: '..' }] })
  const takenAt = new Date('2024-01-31T12:00:00.000Z')
  await prisma.snapshot.createMany({ data: [{ takenAt, label: 'Snapshot' }] })
  await prisma.price.createMany({ data: [{ amount: '57.7', label: 'Price' }] })
  await prisma.reading.createMany({ data: [{ value: 1.5, label: 'Reading' }] })
  await prisma.counter.createMany({ data: [{ id: 9007199254740993n, label: 'Counter' }] })
  await prisma.entry.createMany({
    data: [{ id: 1, snapshotAt: takenAt, priceAmount: '57.7', readingValue: 1.5, planId: 'PRO' }],
  })
  await prisma.account.createMany({ data: [{ id: 1, handle: 'ann' }] })
  await prisma.post.createMany({ data: [{ id: 1, title: 'First', authorHandle: 'ann' }] })
}

async function seedComposite(prisma: CompositeClient): Promise<void> {
  await prisma.order.createMany({ data: [1, 2].map((id) => ({ id, label: `Order ${id}` })) })
  await prisma.product.createMany({ data: [1, 3].map((id) => ({ id, name: `Product ${id}` })) })
  await prisma.orderLine.createMany({
    data: [
      { orderId: 1, productId: 1, quantity: 2 },
      { orderId: 1, productId: 3, quantity: 1 },
      { orderId: 2, productId: 1, quantity: 2 },
    ],
  })
  await prisma.lineNote.createMany({
    data: [{ id: 1, text: 'Fragile', lineOrderId: 1, lineProductId: 1 }],
  })
  await prisma.stock.createMany({ data: [{ warehouse: 'north', sku: 2, quantity: 4 }] })
  await prisma.shelf.createMany({ data: [{ aisle: 'A', slot: 1, label: 'screws' }] })
  await prisma.bin.createMany({ data: [{ id: 1, shelfAisle: 'A', shelfSlot: 1 }] })
}

/** The item routes of a fixture's resources, and one route per sub-collection under them. */
function itemRoutes(
  module: object,
  types: readonly DocumentedType[],
  known: Record<string, string[]>,
  origin: string
): FuzzRoute[] {
  const resources = Object.values(module).filter(
    (value): value is KeyedResource =>
      typeof value === 'object' && value !== null && 'parseId' in value
  )
  return resources.flatMap((resource) => {
    const { kind, values, fields } = resource.id
    const type = types.find((candidate) => candidate.itemPath === resource.collectionPath)
    const item = {
      kind: 'item' as const,
      path: resource.collectionPath,
      idType: kind,
      known: known[resource.collectionPath] ?? [],
      values,
      keyFields: fields?.map((field) => ({ name: field.name, type: field.kind })),
      origin,
    }
    const subCollections = (type?.links ?? [])
      .filter((link) => link.kind === 'many')
      .map((link) => ({ ...item, suffix: link.name }))
    return [item, ...subCollections]
  })
}

/** Seeds and serves both fixtures, each on a fresh database of its own. */
export async function startKeyFixtures(): Promise<KeyFixture[]> {
  const started: KeyFixture[] = []
  const idsDatabase = await freshDatabase(fixtures.ids.schema)
  const idsPrisma = new IdsClient({ adapter: createAdapter(idsDatabase.url) })
  await seedIds(idsPrisma)
  const idsServer = await startServer(ids.createHydraApp({ prisma: idsPrisma }).fetch)
  started.push({
    origin: idsServer.origin,
    types: ids.hydraTypes,
    items: itemRoutes(ids, ids.hydraTypes, fixtures.ids.known, idsServer.origin),
    iris: fixtures.ids.iris,
    close: async () => {
      await idsServer.close()
      await idsPrisma.$disconnect()
      await idsDatabase.remove()
    },
  })
  const compositeDatabase = await freshDatabase(fixtures.composite.schema)
  const compositePrisma = new CompositeClient({ adapter: createAdapter(compositeDatabase.url) })
  await seedComposite(compositePrisma)
  const compositeServer = await startServer(
    composite.createHydraApp({ prisma: compositePrisma, batchSize: 2 }).fetch
  )
  started.push({
    origin: compositeServer.origin,
    types: composite.hydraTypes,
    items: itemRoutes(
      composite,
      composite.hydraTypes,
      fixtures.composite.known,
      compositeServer.origin
    ),
    iris: fixtures.composite.iris,
    close: async () => {
      await compositeServer.close()
      await compositePrisma.$disconnect()
      await compositeDatabase.remove()
    },
  })
  return started
}
