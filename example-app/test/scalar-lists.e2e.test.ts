/**
 * Scalar lists of every type and of an enum (test/fixtures/scalar-lists), which only PostgreSQL
 * stores: each item of a list is served as a single value of its type is (scalars.e2e.test.ts),
 * and the API documentation gives a list the range rdf:List. Runs in the `postgresql` project only
 * (vitest.config.ts), against the code generated for PostgreSQL alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createHydraApp,
  type ListSpecimenMember,
} from './.generated-postgresql/scalar-lists/hydra/index.js'
import { PrismaClient } from './.generated-postgresql/scalar-lists/prisma/client.js'
import {
  createAdapter,
  documentedProperties,
  freshDatabase,
  get,
  startServer,
} from './support/harness.js'

const SCHEMA = new URL('./fixtures/scalar-lists/schema.prisma', import.meta.url).pathname

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let remove: () => Promise<void>

const full: ListSpecimenMember = {
  '@id': '/list-specimens/1',
  '@type': 'ListSpecimen',
  id: 1,
  ints: [-2147483648, 0, 2147483647],
  bigInts: ['9007199254740993', '-1'],
  floats: [1.5, -0.25],
  decimals: ['1234567.125', '0.1'],
  strings: ['naïve', '"quoted"', ''],
  booleans: [true, false],
  dateTimes: ['2024-02-29T23:59:59.123Z', '1970-01-01T00:00:00.000Z'],
  jsons: [{ a: [1, null] }, 'text', 3],
  bytes: ['AAH+/w==', ''],
  moods: ['EAGER', 'CALM'],
}

const empty: ListSpecimenMember = {
  '@id': '/list-specimens/2',
  '@type': 'ListSpecimen',
  id: 2,
  ints: [],
  bigInts: [],
  floats: [],
  decimals: [],
  strings: [],
  booleans: [],
  dateTimes: [],
  jsons: [],
  bytes: [],
  moods: [],
}

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.listSpecimen.create({
    data: {
      id: 1,
      ints: [-2147483648, 0, 2147483647],
      bigInts: [9007199254740993n, -1n],
      floats: [1.5, -0.25],
      decimals: ['1234567.125', '0.1'],
      strings: ['naïve', '"quoted"', ''],
      booleans: [true, false],
      dateTimes: [new Date('2024-02-29T23:59:59.123Z'), new Date(0)],
      jsons: [{ a: [1, null] }, 'text', 3],
      bytes: [new Uint8Array([0, 1, 254, 255]), new Uint8Array()],
      moods: ['EAGER', 'CALM'],
    },
  })
  await prisma.listSpecimen.create({ data: { id: 2 } })
  ;({ origin, close } = await startServer(createHydraApp({ prisma }).fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

describe('scalar lists on PostgreSQL', () => {
  it('each item of a list is served as a value of its type', async () => {
    const response = await get(origin, '/list-specimens/1')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ '@context': '/contexts/ListSpecimen', ...full })
  })

  it('empty lists are empty arrays, in a collection too', async () => {
    const response = await get(origin, '/list-specimens')
    expect(response.body['hydra:member']).toEqual([full, empty])
  })

  it('the API documentation gives every list the range rdf:List', async () => {
    const properties = await documentedProperties(origin, 'ListSpecimen')
    const ranges = properties.filter((property) => property['hydra:title'] !== 'id')
    expect(ranges.map((property) => property['hydra:property'].range)).toEqual(
      Array(10).fill('rdf:List')
    )
  })
})
