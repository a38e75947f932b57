/**
 * Enum values stored under other names (`@map`) on test/fixtures/cursor, whose `Kind` values the
 * database holds as `z_alpha`, `beta` and `a_gamma`, in tables and columns of their own names
 * (`@@map`, `@map`): every answer names the enum's values as Prisma's client returns them, in
 * members, embedded relations and links, and every filter, order and scope is written with them.
 * Each request is also sent to the same app on the `compiled` engine, whose answer must be the
 * same bytes, read by that engine itself.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/cursor/hydra/index.js'
import { PrismaClient } from '#fixtures/cursor/prisma/client.js'
import {
  createAdapter,
  expectSameOnBothEngines,
  freshDatabase,
  getWithoutSearch,
  startServer,
  TEST_DATABASE,
} from './support/harness.js'

const SCHEMA = new URL('./fixtures/cursor/schema.prisma', import.meta.url).pathname
const KINDS = ['ALPHA', 'BETA', 'GAMMA'] as const
type Kind = (typeof KINDS)[number]

let prisma: PrismaClient
const servers: Array<() => Promise<void>> = []
let remove: () => Promise<void>
/** Each app's origin on the `prisma` engine and on the `compiled` one. */
const origins: Record<'open' | 'scoped' | 'related', { own: string; twin: string }> = {
  open: { own: '', twin: '' },
  scoped: { own: '', twin: '' },
  related: { own: '', twin: '' },
}

const rows = Array.from({ length: 9 }, (_, index) => {
  const n = index + 1
  return {
    id: `row-${n}`,
    big: BigInt(n),
    code: `code-${n}`,
    amount: `${n}.5`,
    ratio: n / 4,
    kind: KINDS[n % 3] as Kind,
    at: new Date(Date.UTC(2024, 0, n)),
    shelfKind: n === 9 ? null : (KINDS[(n + 1) % 3] as Kind),
  }
})

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await prisma.shelf.createMany({
    data: KINDS.map((kind, index) => ({ kind, label: `shelf ${3 - index}` })),
  })
  await prisma.typedRow.createMany({ data: rows })
  const access: Record<'scoped' | 'related', HydraAccess> = {
    scoped: {
      TypedRow: { scope: () => ({ kind: { in: ['ALPHA', 'GAMMA'] as Kind[] } }) },
      Shelf: { scope: () => ({ kind: 'BETA' as Kind }) },
    },
    related: { TypedRow: { scope: () => ({ shelf: { is: { kind: 'GAMMA' as Kind } } }) } },
  }
  for (const name of ['open', 'scoped', 'related'] as const) {
    const rules: { access?: HydraAccess } = name === 'open' ? {} : { access: access[name] }
    const own = await startServer(createHydraApp({ prisma, ...rules }).fetch)
    const twin = await startServer(
      createHydraApp({ prisma, engine: 'compiled', adapter, ...rules }).fetch
    )
    servers.push(own.close, twin.close)
    origins[name] = { own: own.origin, twin: twin.origin }
  }
})

afterAll(async () => {
  for (const close of servers) await close()
  await prisma?.$disconnect()
  await remove?.()
})

/**
 * The answer of `app` on the `prisma` engine, once the `compiled` one's has been found the same
 * and read by that engine itself (no `handoff` to Prisma in its `Server-Timing`).
 */
async function get(path: string, app: keyof typeof origins = 'open') {
  const { own, twin } = origins[app]
  await expectSameOnBothEngines(own, twin, path)
  const timing = (await fetch(`${twin}${path}`)).headers.get('Server-Timing') ?? ''
  expect(timing, path).not.toContain('handoff')
  const response = await getWithoutSearch(own, path)
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200)
  return response.body
}

const members = (body: Record<string, unknown>) =>
  body['hydra:member'] as Array<Record<string, unknown>>
/** The members of every page from `path` on, following `hydra:next`. */
async function walk(
  path: string,
  app: keyof typeof origins = 'open'
): Promise<Array<Record<string, unknown>>> {
  const walked: Array<Record<string, unknown>> = []
  let next: string | undefined = path
  while (next) {
    const body = await get(next, app)
    walked.push(...members(body))
    next = (body['hydra:view'] as Record<string, string> | undefined)?.['hydra:next']
    expect(walked.length).toBeLessThan(20)
  }
  return walked
}
/** The ids of the rows `keep` holds, in the order of `big` (the collection's). */
const rowIds = (keep: (row: (typeof rows)[number]) => boolean) =>
  rows.filter(keep).map((row) => row.id)

it('the database holds the mapped names', async () => {
  const quote = TEST_DATABASE === 'mysql' ? '`' : '"'
  const stored = await prisma.$queryRawUnsafe<Array<{ kind: unknown }>>(
    `SELECT ${quote}row kind${quote} AS kind FROM ${quote}typed rows${quote} WHERE id = 'row-1'`
  )
  expect(stored.map((row) => String(row.kind))).toEqual(['beta'])
})

describe('members and links', () => {
  it('name the enum values of a page, a row and its shelf link', async () => {
    expect(
      (await walk('/typed-rows')).map((member) => [member.id, member.kind, member.shelf])
    ).toEqual(rows.map((row) => [row.id, row.kind, row.shelfKind && `/shelves/${row.shelfKind}`]))
  })

  it('name them on the pages of a @@map table keyed by the enum, and on its item', async () => {
    expect((await walk('/shelves')).map((member) => [member['@id'], member.kind])).toEqual(
      (await prisma.shelf.findMany({ orderBy: { kind: 'asc' } })).map(({ kind }) => [
        `/shelves/${kind}`,
        kind,
      ])
    )
    const item = await get('/shelves/GAMMA')
    expect(item).toMatchObject({ '@id': '/shelves/GAMMA', kind: 'GAMMA', label: 'shelf 1' })
  })

  it('name them in the sub-collection of a shelf keyed by one', async () => {
    const walked = await walk('/shelves/BETA/rows')
    expect(walked.map((member) => [member.id, member.kind])).toEqual(
      rows.filter((row) => row.shelfKind === 'BETA').map((row) => [row.id, row.kind])
    )
  })

  it('name them in the first rows a shelf embeds', async () => {
    const embedded = (member: Record<string, unknown>) =>
      (member.rows as { 'hydra:member': Array<Record<string, unknown>> })['hydra:member']
    const shelves = [...(await walk('/shelves')), await get('/shelves/ALPHA')]
    for (const shelf of shelves) {
      const first = rows.filter((row) => row.shelfKind === shelf.kind).slice(0, 2)
      expect(embedded(shelf).map((row) => [row['@id'], row.kind])).toEqual(
        first.map((row) => [`/typed-rows/${row.id}`, row.kind])
      )
    }
  })

  it('name them in an embedded relation', async () => {
    const walked = await walk(
      '/typed-rows?properties[]=kind&properties[shelf][]=kind&properties[shelf][]=label'
    )
    expect(walked.map((member) => [member.kind, member.shelf])).toEqual(
      rows.map((row) => [
        row.kind,
        row.shelfKind && {
          '@id': `/shelves/${row.shelfKind}`,
          '@type': 'Shelf',
          kind: row.shelfKind,
          label: `shelf ${3 - KINDS.indexOf(row.shelfKind)}`,
        },
      ])
    )
  })
})

describe('filters', () => {
  it.each([
    ['kind=GAMMA', (row) => row.kind === 'GAMMA'],
    ['kind[]=ALPHA&kind[]=BETA', (row) => row.kind !== 'GAMMA'],
    ['shelf.kind=BETA', (row) => row.shelfKind === 'BETA'],
    ['shelf=/shelves/ALPHA', (row) => row.shelfKind === 'ALPHA'],
    ['shelf[]=/shelves/ALPHA&shelf[]=GAMMA', (row) => row.shelfKind !== 'BETA' && !!row.shelfKind],
  ] as Array<[string, (row: (typeof rows)[number]) => boolean]>)(
    '?%s matches the rows storing the mapped name',
    async (query, keep) => {
      const walked = await walk(`/typed-rows?${query}`)
      expect(walked.map((member) => member.id)).toEqual(rowIds(keep))
      expect(rowIds(keep).length).toBeGreaterThan(0)
    }
  )
})

describe('orders', () => {
  it.each(['asc', 'desc'] as const)(
    'order[kind]=%s is the stored values’ order, as Prisma sorts them',
    async (direction) => {
      const expected = await prisma.shelf.findMany({ orderBy: { kind: direction } })
      const walked = await walk(`/shelves?order[kind]=${direction}`)
      expect(walked.map((member) => member.kind)).toEqual(expected.map((shelf) => shelf.kind))
    }
  )
})

describe('scopes written with enum values', () => {
  it('hold on a column, on a key and through a relation', async () => {
    const scoped = await walk('/typed-rows', 'scoped')
    expect(scoped.map((member) => member.id)).toEqual(rowIds((row) => row.kind !== 'BETA'))
    const shelves = await get('/shelves', 'scoped')
    expect(members(shelves).map((member) => member.kind)).toEqual(['BETA'])
    await get('/shelves/BETA', 'scoped')
    const related = await walk('/typed-rows', 'related')
    expect(related.map((member) => member.id)).toEqual(rowIds((row) => row.shelfKind === 'GAMMA'))
  })
})
