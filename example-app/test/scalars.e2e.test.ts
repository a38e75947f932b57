/**
 * Every Prisma scalar type and an enum, required and optional (test/fixtures/scalars), served as
 * docs/getting-started.md says: DateTime as an ISO 8601 string, BigInt and Decimal as strings,
 * Bytes as base64, Json as its JSON value, an enum as its text, a missing optional value as null.
 * The expected members are typed with the generated member type, so the generated types are
 * checked against the served values too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp, type SpecimenMember } from '#fixtures/scalars/hydra/index.js'
import { PrismaClient } from '#fixtures/scalars/prisma/client.js'
import { json, requiredValues } from './fixtures/scalars/values.js'
import {
  createAdapter,
  documentedProperties,
  freshDatabase,
  get,
  startServer,
} from './support/harness.js'

const SCHEMA = new URL('./fixtures/scalars/schema.prisma', import.meta.url).pathname

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let remove: () => Promise<void>

const requiredServed = {
  int: -2147483648,
  bigInt: '9007199254740993',
  float: 1.5,
  decimal: '1234567.125',
  string: 'naïve "quoted" ✓',
  boolean: false,
  dateTime: '2024-02-29T23:59:59.123Z',
  json,
  bytes: 'AAH+/w==',
  mood: 'EAGER',
} as const

const full: SpecimenMember = {
  '@id': '/specimens/1',
  '@type': 'Specimen',
  id: 1,
  ...requiredServed,
  optionalInt: 7,
  optionalBigInt: '-9007199254740993',
  optionalFloat: -0.25,
  optionalDecimal: '0.1',
  optionalString: '',
  optionalBoolean: true,
  optionalDateTime: '1970-01-01T00:00:00.000Z',
  optionalJson: ['a', { b: null }],
  optionalBytes: '',
  optionalMood: 'CALM',
}

const empty: SpecimenMember = {
  '@id': '/specimens/2',
  '@type': 'Specimen',
  id: 2,
  ...requiredServed,
  optionalInt: null,
  optionalBigInt: null,
  optionalFloat: null,
  optionalDecimal: null,
  optionalString: null,
  optionalBoolean: null,
  optionalDateTime: null,
  optionalJson: null,
  optionalBytes: null,
  optionalMood: null,
}

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.specimen.create({
    data: {
      id: 1,
      ...requiredValues,
      optionalInt: 7,
      optionalBigInt: -9007199254740993n,
      optionalFloat: -0.25,
      optionalDecimal: '0.1',
      optionalString: '',
      optionalBoolean: true,
      optionalDateTime: new Date(0),
      optionalJson: ['a', { b: null }],
      optionalBytes: new Uint8Array(),
      optionalMood: 'CALM',
    },
  })
  // Optional fields left out are NULL in the database.
  await prisma.specimen.create({ data: { id: 2, ...requiredValues } })
  ;({ origin, close } = await startServer(createHydraApp({ prisma }).fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

describe('every scalar type', () => {
  it('an item shows each value as the docs say', async () => {
    const response = await get(origin, '/specimens/1')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ '@context': '/contexts/Specimen', ...full })
  })

  it('optional values that are not set are null', async () => {
    const response = await get(origin, '/specimens/2')
    expect(response.body).toEqual({ '@context': '/contexts/Specimen', ...empty })
  })

  it('a collection shows its members the same way', async () => {
    const response = await get(origin, '/specimens')
    expect(response.status).toBe(200)
    expect(response.body['hydra:member']).toEqual([full, empty])
    expect(response.body['hydra:totalItems']).toBe(2)
  })

  it('the API documentation gives each field the range of its type', async () => {
    const properties = await documentedProperties(origin, 'Specimen')
    const ranges = Object.fromEntries(
      properties.map((property) => [property['hydra:title'], property['hydra:property'].range])
    )
    const expected = {
      int: 'xsd:integer',
      bigInt: 'xsd:integer',
      float: 'xsd:double',
      decimal: 'xsd:decimal',
      string: 'xsd:string',
      boolean: 'xsd:boolean',
      dateTime: 'xsd:dateTime',
      json: 'rdf:JSON',
      bytes: 'xsd:base64Binary',
      // An enum: a datatype of exactly its values.
      mood: [
        'xsd:string',
        expect.objectContaining({ '@id': '#enum/Mood', '@type': 'rdfs:Datatype' }),
      ],
    }
    const optional = Object.fromEntries(
      Object.entries(expected).map(([name, range]) => [
        `optional${name.charAt(0).toUpperCase()}${name.slice(1)}`,
        range,
      ])
    )
    expect(ranges).toEqual({ id: 'xsd:integer', ...expected, ...optional })
    const required = properties.filter((property) => property['hydra:required'])
    expect(required.map((property) => property['hydra:title'])).toEqual([
      'id',
      ...Object.keys(expected),
    ])
  })
})
