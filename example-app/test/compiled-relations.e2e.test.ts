/**
 * The compiled engine's conditions and orders through relations (docs/performance.md) on
 * test/fixtures/relations: filters, scopes and sub-collections through a to-one relation (which
 * may be missing), a one-to-many one, a self-relation, an implicit many-to-many one and a relation
 * on a key that is not the target's id, each quantifier of Prisma's, NULLs compared under NOT.
 * Every page must be the `prisma` engine's byte for byte, and the compiled engine must answer it
 * itself: no `handoff` in its `Server-Timing`.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import type { Context } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/relations/hydra/index.js'
import { type Prisma, PrismaClient } from '#fixtures/relations/prisma/client.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'

const SCHEMA = new URL('./fixtures/relations/schema.prisma', import.meta.url).pathname

/** Scopes of titles through their relations, by the `x-scope` header naming one. */
const TITLE_SCOPES: Record<string, Prisma.TitleWhereInput> = {
  // Prisma's LEFT JOIN: a prequel whose publisher is NULL is neither 1 nor not 1.
  'prequel-not-1': { prequel: { isNot: { publisherId: 1 } } },
  'not-prequel-2': { NOT: { prequel: { publisherId: 2 } } },
  'no-prequel': { prequel: null },
  'prequel-of-prequel': { prequel: { prequel: { is: null } } },
  'tags-every': { tags: { every: { label: { startsWith: 'c' } } } },
  'tags-none': { tags: { none: { id: 'short' } } },
  'sequel-unpublished': { sequels: { some: { publisherId: null } } },
  'noted-or-published': {
    OR: [{ notes: { some: { text: { contains: '1' } } } }, { publisher: { name: 'Publisher 2' } }],
  },
  'every-sequel-tagged': { sequels: { every: { tags: { some: {} } } } },
}
/** Scopes of publishers through their titles and further. */
const PUBLISHER_SCOPES: Record<string, Prisma.PublisherWhereInput> = {
  // `every` over the titles failing the condition: a NULL under the NOT fails none.
  'titles-every': { titles: { every: { prequel: { isNot: { publisherId: 1 } } } } },
  'titles-none-tagged': { titles: { none: { tags: { some: { label: 'short' } } } } },
}

const scopeOf =
  <W>(scopes: Record<string, W>) =>
  (c: Context) =>
    scopes[c.req.header('x-scope') ?? '']

const access: HydraAccess = {
  Title: { scope: scopeOf(TITLE_SCOPES) },
  Publisher: { scope: scopeOf(PUBLISHER_SCOPES) },
}

const PATHS = [
  '/titles?itemsPerPage=20',
  '/titles?itemsPerPage=20&publisher.name=Publisher%201',
  '/titles?itemsPerPage=20&exists[publisher]=false',
  '/titles?itemsPerPage=20&exists[prequel]=true&order[publisher.name]=desc',
  '/titles?order[publisher.name]=asc&order[name]=desc&page=2',
  '/tags/classic/titles?itemsPerPage=20',
  '/titles/1/sequels',
  '/publishers/2/catalogue',
]

let database: TestDatabase
let prisma: PrismaClient
const origins: Record<'prisma' | 'compiled', string> = { prisma: '', compiled: '' }
const closes: Array<() => Promise<void>> = []

beforeAll(async () => {
  database = await freshDatabase(SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await prisma.publisher.createMany({ data: [1, 2].map((id) => ({ id, name: `Publisher ${id}` })) })
  await prisma.tag.createMany({
    data: ['classic', 'cosy', 'short'].map((id) => ({ id, label: id })),
  })
  for (let i = 1; i <= 12; i += 1)
    await prisma.title.create({
      data: {
        id: i,
        isbn: `isbn-${i}`,
        name: `Title ${i % 5}`,
        pages: 100 + i,
        // Every third title has no publisher: a missing related row, a NULL compared.
        publisherId: i % 3 === 0 ? null : 1 + (i % 2),
        prequelId: i > 4 ? i - 4 : null,
        tags: { connect: ['classic', 'cosy', 'short'].slice(i % 4).map((id) => ({ id })) },
      },
    })
  await prisma.note.createMany({
    data: [1, 2, 3, 4, 5, 6].map((id) => ({
      id,
      writtenAt: new Date(Date.UTC(2024, 0, id)),
      text: `note ${id}`,
      titleIsbn: `isbn-${id * 2 - 1}`,
    })),
  })
  for (const engine of ['prisma', 'compiled'] as const) {
    const app = createHydraApp({
      prisma,
      access,
      ...(engine === 'compiled' ? { engine, adapter } : {}),
    })
    const server = await startServer(app.fetch)
    origins[engine] = server.origin
    closes.push(server.close)
  }
}, 120_000)

afterAll(async () => {
  for (const close of closes) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** Both engines' answer to `path` under `scope`: the same, the compiled one without a handoff. */
async function expectCompiled(path: string, scope: string): Promise<unknown> {
  const [own, compiled] = await Promise.all(
    (['prisma', 'compiled'] as const).map((engine) =>
      fetch(`${origins[engine]}${path}`, { headers: { 'x-scope': scope } })
    )
  )
  const where = `${path} under ${scope || 'no scope'}`
  const [ownBody, compiledBody] = [await own?.text(), await compiled?.text()]
  // A parent its scope keeps from the caller is a 404 on both.
  expect(own?.status, where).toBe(scope === '' ? 200 : own?.status === 404 ? 404 : 200)
  expect(compiled?.status, where).toBe(own?.status)
  expect(compiledBody, where).toBe(ownBody)
  expect(compiled?.headers.get('Server-Timing') ?? '', where).not.toContain('handoff')
  return JSON.parse(ownBody ?? '{}')
}

describe('the compiled engine through relations', () => {
  it('answers filters, orders and sub-collections through relations as Prisma does', async () => {
    for (const path of PATHS) await expectCompiled(path, '')
  })

  it('answers scopes through relations with each quantifier, NULLs as Prisma reads them', async () => {
    let members = 0
    for (const scope of Object.keys(TITLE_SCOPES))
      for (const path of PATHS) {
        const body = (await expectCompiled(path, scope)) as Record<string, number>
        members += body['hydra:totalItems'] ?? 0
      }
    for (const scope of Object.keys(PUBLISHER_SCOPES))
      for (const path of ['/publishers', '/publishers/1/catalogue', '/publishers/2/catalogue'])
        await expectCompiled(path, scope)
    // The scopes select rows: the comparison is not of empty pages.
    expect(members).toBeGreaterThan(50)
  })

  it('keeps the NULL of a related row under NOT: neither 1 nor not 1', async () => {
    // Title 7's prequel is title 3, which has no publisher: Prisma leaves 7 out of both scopes.
    const ids = async (scope: string) => {
      const body = (await expectCompiled('/titles?itemsPerPage=20', scope)) as {
        'hydra:member': { '@id': string }[]
      }
      return body['hydra:member'].map((member) => member['@id'])
    }
    expect(await ids('prequel-not-1')).not.toContain('/titles/7')
    expect(await ids('not-prequel-2')).not.toContain('/titles/7')
    expect(await ids('no-prequel')).toContain('/titles/3')
  })
})
