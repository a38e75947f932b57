/**
 * Every type of key end to end (test/fixtures/ids, docs/hydra.md#identifiers): items keyed by an
 * enum, a DateTime, a Decimal, a Float, a BigInt, any text (slashes, spaces, percent signs,
 * dot segments) and a single-field @unique (no @id), each at one canonical IRI that round-trips,
 * as a link target and as a sub-collection parent; every other spelling of a key, and every value
 * no row can have, a 404 problem (never a 500); sub-collection IRIs written from the encoded key;
 * a relation filter through a foreign key to a non-id @unique; several items in one request
 * (`id[]`) by those spellings only, every other one a 400 where the item route answers 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/ids/hydra/index.js'
import { PrismaClient } from '#fixtures/ids/prisma/client.js'
import { createAdapter, freshDatabase, get, startServer } from './support/harness.js'
import { createUserNameView } from './support/key-fixtures.js'

const SCHEMA = new URL('./fixtures/ids/schema.prisma', import.meta.url).pathname
const PROBLEM = 'application/problem+json; charset=utf-8'

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let remove: () => Promise<void>

type Body = Record<string, unknown>
const members = (body: Body) => (body['hydra:member'] ?? []) as Body[]

const ODD_USER = 'a/b c%d?é#x'
const SNAPSHOTS = [new Date('2024-01-31T12:00:00.000Z'), new Date('2024-02-01T00:00:00.123Z')]

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.plan.createMany({
    data: [
      { id: 'FREE', seats: 1 },
      { id: 'PRO', seats: 5 },
    ],
  })
  await prisma.subscription.createMany({
    data: [
      { id: 1, planId: 'PRO' },
      { id: 2, planId: 'PRO' },
      { id: 3, planId: 'FREE' },
    ],
  })
  await prisma.user.createMany({
    data: ['alice', ODD_USER, '..', '.', '%2E%2E', 'id=x'].map((id) => ({
      id,
      name: `User ${id}`,
    })),
  })
  await prisma.session.createMany({
    data: [
      { sessionToken: 'tok-1', userId: 'alice' },
      { sessionToken: 'tok 2/x', userId: ODD_USER },
      { sessionToken: 'tok-3', userId: '..' },
      { sessionToken: 'tok-4', userId: '..' },
    ],
  })
  await prisma.snapshot.createMany({
    data: SNAPSHOTS.map((takenAt, index) => ({ takenAt, label: `Snapshot ${index}` })),
  })
  await prisma.price.createMany({
    data: ['57.7', '1', '0.5', '-2.25'].map((amount) => ({ amount, label: `Price ${amount}` })),
  })
  await prisma.reading.createMany({
    data: [1.5, -3, 0.1].map((value) => ({ value, label: `Reading ${value}` })),
  })
  await prisma.counter.createMany({
    data: [
      { id: 9007199254740993n, label: 'Big' },
      { id: 1n, label: 'Small' },
    ],
  })
  await prisma.token.createMany({ data: [{ label: 'Token 1' }, { label: 'Token 2' }] })
  await prisma.entry.createMany({
    data: [
      {
        id: 1,
        snapshotAt: SNAPSHOTS[0] as Date,
        priceAmount: '57.7',
        readingValue: 1.5,
        counterId: 9007199254740993n,
        planId: 'PRO',
      },
      {
        id: 2,
        snapshotAt: SNAPSHOTS[1] as Date,
        priceAmount: '0.5',
        readingValue: -3,
        planId: 'FREE',
      },
      { id: 3 },
    ],
  })
  await prisma.account.createMany({
    data: [
      { id: 1, handle: 'ann' },
      { id: 2, handle: 'bob' },
    ],
  })
  await prisma.post.createMany({
    data: [
      { id: 1, title: 'First', authorHandle: 'ann' },
      { id: 2, title: 'Second', authorHandle: 'bob' },
      { id: 3, title: 'Third', authorHandle: 'ann' },
    ],
  })
  await createUserNameView(prisma)
  ;({ origin, close } = await startServer(createHydraApp({ prisma }).fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

const COLLECTIONS = [
  '/plans',
  '/users',
  '/sessions',
  '/user-names',
  '/snapshots',
  '/prices',
  '/readings',
  '/counters',
  '/tokens',
  '/entries',
  '/subscriptions',
  '/accounts',
  '/posts',
]

describe('item IRIs of every key type', () => {
  it.each(COLLECTIONS)(
    'every member of %s is served at its @id, and so are its links',
    async (path) => {
      const { status, body } = await get(origin, path)
      expect(status).toBe(200)
      expect(members(body).length).toBeGreaterThan(0)
      for (const member of members(body)) {
        const iri = member['@id'] as string
        // A client resolves the IRI against the page (dot segments removed) before asking for it.
        expect(new URL(iri, origin).pathname).toBe(iri)
        const item = await get(origin, iri)
        expect([item.status, item.body['@id']], iri).toEqual([200, iri])
        expect(item.body).toEqual({ '@context': `/contexts/${member['@type']}`, ...member })
        for (const [name, value] of Object.entries(member)) {
          if (name === '@id' || typeof value !== 'string' || !value.startsWith(`${iri}/`)) continue
          const sub = await get(origin, value)
          expect([sub.status, sub.body['@id']], value).toEqual([200, value])
        }
      }
    }
  )

  it.each([
    ['/plans/PRO', 'PRO'],
    ['/snapshots/2024-01-31T12%3A00%3A00.000Z', '2024-01-31T12:00:00.000Z'],
    ['/prices/57.7', '57.7'],
    ['/prices/-2.25', '-2.25'],
    ['/readings/1.5', 1.5],
    ['/readings/-3', -3],
    ['/counters/9007199254740993', '9007199254740993'],
    ['/users/alice', 'alice'],
    ['/users/a%2Fb%20c%25d%3F%C3%A9%23x', ODD_USER],
    ['/users/id=..', '..'],
    ['/users/id=.', '.'],
    ['/users/%252E%252E', '%2E%2E'],
    ['/users/id%3Dx', 'id=x'],
    ['/sessions/tok%202%2Fx', 'tok 2/x'],
    ['/user-names/a%2Fb%20c%25d%3F%C3%A9%23x', ODD_USER],
    ['/user-names/id=..', '..'],
  ])('%s is the item keyed %j', async (path, key) => {
    const { status, body } = await get(origin, path)
    expect([status, body['@id']]).toEqual([200, path])
    const field = Object.keys(body).find((name) => !name.startsWith('@') && body[name] === key)
    expect(field, JSON.stringify(body)).toBeDefined()
  })

  it('links write the target’s key as its own IRI does', async () => {
    const { body } = await get(origin, '/entries/1')
    expect(body).toMatchObject({
      snapshot: '/snapshots/2024-01-31T12%3A00%3A00.000Z',
      price: '/prices/57.7',
      reading: '/readings/1.5',
      counter: '/counters/9007199254740993',
      plan: '/plans/PRO',
    })
    const session = await get(origin, '/sessions/tok-3')
    expect(session.body.user).toBe('/users/id=..')
  })

  it('ids with cuid and uuid defaults are served as text', async () => {
    const tokens = members((await get(origin, '/tokens')).body)
    expect(tokens).toHaveLength(2)
    for (const token of tokens) {
      expect(token['@id']).toBe(`/tokens/${token.id}`)
      expect(token.other).toMatch(/^[0-9a-f-]{36}$/)
    }
  })
})

describe('a key no row can have', () => {
  it.each([
    '/plans/NOPE',
    '/plans/pro',
    '/plans/TEAM',
    '/plans/NOPE/subscriptions',
    '/plans/TEAM/entries',
    '/snapshots/2024-01-31',
    '/snapshots/2024-01-31T12%3A00%3A00Z',
    '/snapshots/2024-02-30T00%3A00%3A00.000Z',
    '/snapshots/garbage',
    '/snapshots/garbage/entries',
    '/prices/57.70',
    '/prices/057.7',
    '/prices/abc',
    '/prices/1e3',
    '/prices/abc/entries',
    '/readings/1.50',
    '/readings/NaN',
    '/readings/Infinity',
    '/readings/1e400',
    '/readings/x/entries',
    '/counters/99999999999999999999',
    '/counters/01',
    '/counters/1.0/entries',
    '/users/id=alice',
    '/users/id=../nothing',
    '/users/nobody/sessions',
    '/users/%E0%A4%A',
    '/sessions/nope',
    '/user-names/nobody',
    '/user-names/id=alice',
  ])('%s is a 404 problem', async (path) => {
    const { status, contentType, body } = await get(origin, path)
    expect([status, contentType], JSON.stringify(body)).toEqual([404, PROBLEM])
  })
})

describe('sub-collections of keys that need encoding', () => {
  it('are written from the encoded key, as the item’s link gave them', async () => {
    const user = (await get(origin, '/users/a%2Fb%20c%25d%3F%C3%A9%23x')).body
    const link = user.sessions as string
    expect(link).toBe('/users/a%2Fb%20c%25d%3F%C3%A9%23x/sessions')
    const { status, body } = await get(origin, link)
    expect([status, body['@id']]).toEqual([200, link])
    expect(members(body).map((member) => member.sessionToken)).toEqual(['tok 2/x'])
    const search = body['hydra:search'] as Body
    expect(String(search['hydra:template'])).toMatch(
      new RegExp(`^${link.replace(/[?%]/g, '\\$&')}\\{`)
    )
  })

  it('a dot-segment key names its item, never the path above it', async () => {
    const user = (await get(origin, '/users/id=..')).body
    expect(user.sessions).toBe('/users/id=../sessions')
    const url = new URL(user.sessions as string, `${origin}/users/`)
    expect(url.pathname).toBe('/users/id=../sessions')
    const { status, body } = await get(origin, url.pathname)
    expect([status, body['@id']]).toEqual([200, url.pathname])
    expect(
      members(body)
        .map((member) => member.sessionToken)
        .sort()
    ).toEqual(['tok-3', 'tok-4'])
  })
})

describe('several items in one request (id[]), named as their IRIs write them', () => {
  const ids = async (query: string) => {
    const { status, body } = await get(origin, query)
    expect(status, JSON.stringify(body)).toBe(200)
    return members(body)
      .map((member) => member['@id'])
      .sort()
  }
  const list = (field: string, values: readonly string[]) =>
    values.map((value) => `${field}[]=${encodeURIComponent(value)}`).join('&')

  it.each([
    ['/subscriptions', 'id', ['2', '/subscriptions/3'], ['/subscriptions/2', '/subscriptions/3']],
    [
      '/counters',
      'id',
      ['9007199254740993', '/counters/1'],
      ['/counters/1', '/counters/9007199254740993'],
    ],
    [
      '/snapshots',
      'takenAt',
      ['2024-01-31T12:00:00.000Z', '/snapshots/2024-02-01T00%3A00%3A00.123Z'],
      ['/snapshots/2024-01-31T12%3A00%3A00.000Z', '/snapshots/2024-02-01T00%3A00%3A00.123Z'],
    ],
    ['/prices', 'amount', ['57.7', '/prices/-2.25'], ['/prices/-2.25', '/prices/57.7']],
    ['/readings', 'value', ['-3', '/readings/1.5'], ['/readings/-3', '/readings/1.5']],
    [
      '/users',
      'id',
      ['/users/a%2Fb%20c%25d%3F%C3%A9%23x', '..', 'alice'],
      ['/users/a%2Fb%20c%25d%3F%C3%A9%23x', '/users/alice', '/users/id=..'],
    ],
  ])('%s?%s[]= lists the items named by id or IRI', async (path, field, values, expected) => {
    expect(await ids(`${path}?${list(field, values)}`)).toEqual(expected)
  })

  it.each([
    ['/subscriptions', 'id', '02'],
    ['/subscriptions', 'id', '/subscriptions/02'],
    ['/subscriptions', 'id', '-0'],
    ['/counters', 'id', '09007199254740993'],
    ['/counters', 'id', '/counters/01'],
    ['/snapshots', 'takenAt', '2024-01-31T12:00:00Z'],
    ['/snapshots', 'takenAt', '2024-01-31T12:00:00.000+00:00'],
    ['/snapshots', 'takenAt', '/snapshots/2024-02-01T01%3A00%3A00.123%2B01%3A00'],
    ['/prices', 'amount', '57.70'],
    ['/prices', 'amount', '/prices/057.7'],
    ['/readings', 'value', '-3.0'],
    ['/readings', 'value', '/readings/1.50'],
  ])(
    '%s?%s[]=%s, a spelling whose item IRI is a 404, is a 400 naming the parameter',
    async (path, field, value) => {
      const iri = value.startsWith('/') ? value : `${path}/${encodeURIComponent(value)}`
      const item = await get(origin, iri)
      expect([item.status, item.contentType], iri).toEqual([404, PROBLEM])
      for (const query of [list(field, [value]), list(field, ['/subscriptions/1', value])]) {
        const { status, contentType, body } = await get(origin, `${path}?${query}`)
        expect([status, contentType], JSON.stringify(body)).toEqual([400, PROBLEM])
        expect(body.detail).toContain(`The "${field}[]" parameter must be an IRI of ${path}/…`)
      }
    }
  )

  it('a relation filter takes the same spellings of the related key', async () => {
    const one = async (query: string) => {
      const { status, body } = await get(origin, `/entries?${query}`)
      return [status, members(body).map((member) => member.id)]
    }
    expect(await one('price=0.5')).toEqual([200, [2]])
    expect(await one(`snapshot=${encodeURIComponent('2024-01-31T12:00:00.000Z')}`)).toEqual([
      200,
      [1],
    ])
    for (const spelling of ['price=0.50', 'price=00.5', 'snapshot=2024-01-31T12%3A00%3A00Z'])
      expect((await one(spelling))[0], spelling).toBe(400)
  })
})

describe('relation filters by the target’s IRI', () => {
  it('through a foreign key to a non-id @unique, by IRI or id', async () => {
    for (const value of ['/accounts/1', '1']) {
      const { status, body } = await get(origin, `/posts?author=${encodeURIComponent(value)}`)
      expect(status).toBe(200)
      expect(members(body).map((member) => member.id)).toEqual([1, 3])
    }
    expect(members((await get(origin, '/posts?author=2')).body).map((m) => m.id)).toEqual([2])
    expect(members((await get(origin, '/posts?author=/accounts/9')).body)).toEqual([])
    expect((await get(origin, '/posts?author=ann')).status).toBe(400)
  })

  it('to DateTime, Decimal and enum keys', async () => {
    const one = async (query: string) =>
      members((await get(origin, `/entries?${query}`)).body).map((member) => member.id)
    expect(
      await one(`snapshot=${encodeURIComponent('/snapshots/2024-01-31T12%3A00%3A00.000Z')}`)
    ).toEqual([1])
    expect(await one('price=0.5')).toEqual([2])
    expect(await one(`plan=${encodeURIComponent('/plans/PRO')}`)).toEqual([1])
    const bad = await get(origin, '/entries?plan=NOPE')
    expect([bad.status, bad.contentType]).toEqual([400, PROBLEM])
  })
})
