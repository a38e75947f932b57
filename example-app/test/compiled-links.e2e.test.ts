/**
 * Links whose key only the related row holds, on the compiled engine (docs/performance.md), on
 * test/fixtures/relations: an article's body and its stamp hold the article's key (the foreign key
 * is on their side; the stamp is keyed by two fields), and a note names its title by the title's
 * ISBN, not its id. The compiled engine reads such a link's key in the page's own statement, a
 * join of the related table: pages, the next pages of a cursor, a desk's sub-collection, items,
 * `properties[]` showing the link or leaving it out, the related row embedded (on request, or as
 * the feed declares it), and scopes of the related rows and through the relation. Every answer
 * must be the `prisma` engine's byte for byte, read by the compiled engine itself: no `handoff` in
 * its `Server-Timing`, none logged when the app is made, and the related rows read in the page's
 * join, never apart as Prisma reads them.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import type { Context } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/relations/hydra/index.js'
import { type Prisma, PrismaClient } from '#fixtures/relations/prisma/client.js'
import { recordStatements, statementsOf } from './support/driver-statements.js'
import {
  createAdapter,
  freshDatabase,
  startServer,
  TEST_DATABASE,
  type TestDatabase,
} from './support/harness.js'

const SCHEMA = new URL('./fixtures/relations/schema.prisma', import.meta.url).pathname

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index)

/** Scopes by the `x-scope` header naming one: of articles through their body, of bodies. */
const ARTICLE_SCOPES: Record<string, Prisma.ArticleWhereInput> = {
  'open-body': { body: { is: { text: { contains: 'open' } } } },
}
const BODY_SCOPES: Record<string, Prisma.ArticleBodyWhereInput> = {
  'open-bodies': { text: { contains: 'open' } },
}
const scopeOf =
  <W>(scopes: Record<string, W>) =>
  (c: Context) =>
    scopes[c.req.header('x-scope') ?? '']
const access: HydraAccess = {
  Article: { scope: scopeOf(ARTICLE_SCOPES) },
  ArticleBody: { scope: scopeOf(BODY_SCOPES) },
}

/** Every road a link read through its relation is shown on, or left out of. */
const PATHS = [
  '/articles',
  '/articles?page=2',
  '/articles?page=3',
  '/articles?order[headline]=desc&page=2',
  '/articles?headline=3',
  '/articles/feed',
  '/articles/feed?properties[]=headline',
  '/articles/1',
  '/articles/4',
  '/articles/5',
  '/desks/1/articles',
  '/desks/2/articles?page=2',
  '/articles?properties[]=headline',
  '/articles?properties[]=body',
  '/articles?properties[]=stamp&properties[]=headline&page=2',
  '/articles?properties[body][]=text',
  '/articles?properties[]=body&properties[stamp][]=number&properties[desk][]=name',
  '/articles/2?properties[body][]=text&properties[stamp][]=series',
  '/articles/7?properties[]=stamp',
  '/article-bodies?properties[article][]=headline',
  '/article-stamps',
  '/notes',
  '/notes/3',
]

/** The paths of PATHS that show no link read through its relation, and embed nothing. */
const LINKLESS = new Set([
  '/articles?properties[]=headline',
  '/articles/feed?properties[]=headline',
  '/article-stamps',
])

let database: TestDatabase
let prisma: PrismaClient
const origins: Record<'prisma' | 'compiled', string> = { prisma: '', compiled: '' }
const closes: Array<() => Promise<void>> = []
/** What the compiled app logged when it was made. */
const records: { level: string; fields: Record<string, unknown> }[] = []

beforeAll(async () => {
  database = await freshDatabase(SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await prisma.desk.createMany({ data: [1, 2].map((id) => ({ id, name: `Desk ${id}` })) })
  await prisma.article.createMany({
    data: range(1, 9).map((id) => ({
      id,
      headline: `Headline ${(id * 4) % 9} of ${id}`,
      deskId: id % 3 === 0 ? null : 1 + (id % 2),
    })),
  })
  // Bodies keyed apart from their articles (a body's IRI is never its article's id); every
  // fourth article has none.
  await prisma.articleBody.createMany({
    data: range(1, 9)
      .filter((id) => id % 4 !== 0)
      .map((id) => ({
        id: 100 + id * 7,
        articleId: id,
        text: id % 3 === 1 ? `open text ${id}` : `closed text ${id}`,
      })),
  })
  // Stamps of odd articles, keyed by a series (holding a character an IRI encodes) and a number.
  await prisma.articleStamp.createMany({
    data: range(1, 9)
      .filter((id) => id % 2 === 1)
      .map((id) => ({ series: id < 5 ? 'A/b' : 'C d', number: 10 - id, articleId: id })),
  })
  await prisma.title.createMany({
    data: range(1, 3).map((id) => ({ id, isbn: `isbn-${id}`, name: `Title ${id}`, pages: id })),
  })
  await prisma.note.createMany({
    data: range(1, 5).map((id) => ({
      id,
      writtenAt: new Date(Date.UTC(2024, 0, id)),
      text: `Note ${id}`,
      titleIsbn: `isbn-${(id % 3) + 1}`,
    })),
  })
  const logger = (record: (typeof records)[number]) => {
    records.push(record)
  }
  for (const engine of ['prisma', 'compiled'] as const) {
    const app = createHydraApp({
      prisma,
      access,
      ...(engine === 'compiled' ? { engine, adapter, logger } : {}),
    })
    const server = await startServer(app.fetch)
    origins[engine] = server.origin
    closes.push(server.close)
  }
  recordStatements(TEST_DATABASE)
}, 120_000)

afterAll(async () => {
  for (const close of closes) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/**
 * Both engines' answer to `path` under `scope`: the same bytes, the compiled one without a
 * handoff, none of its statements reading the related rows apart, and one of them the page's
 * join (unless `path` is in LINKLESS).
 */
async function expectCompiled(path: string, scope = ''): Promise<Record<string, unknown>> {
  const headers = { 'x-scope': scope }
  const own = await fetch(`${origins.prisma}${path}`, { headers })
  const ownBody = await own.text()
  let compiled: Response | undefined
  let compiledBody = ''
  const sent = await statementsOf(async () => {
    compiled = await fetch(`${origins.compiled}${path}`, { headers })
    compiledBody = await compiled.text()
  })
  const where = `${path} under ${scope || 'no scope'}`
  expect(own.status, `${where}: ${ownBody}`).toBe(200)
  expect(compiled?.status, where).toBe(200)
  expect(compiledBody, where).toBe(ownBody)
  expect(compiled?.headers.get('Server-Timing') ?? '', where).not.toContain('handoff')
  // Prisma reads the related rows of a page apart, by the foreign key the related rows hold
  // (`WHERE "articleId" IN (…)`) or the one they are found by (`"isbn" IN (…)`).
  const apart = sent.filter(({ sql }) => /[`"](articleId|isbn)[`"] IN \(/.test(sql))
  expect(
    apart.map(({ sql }) => sql),
    where
  ).toEqual([])
  // MariaDB's compiled reads run as statements the engine keeps prepared (the runtime's
  // compiled/mariadb.ts), which the driver's recording does not see run again.
  if (!LINKLESS.has(path) && TEST_DATABASE !== 'mysql')
    expect(sent.filter(({ sql }) => sql.includes(' LEFT JOIN (SELECT ')).length, where).toBe(1)
  return JSON.parse(ownBody) as Record<string, unknown>
}

const members = (body: Record<string, unknown>) =>
  body['hydra:member'] as Array<Record<string, unknown>>

describe('a link whose key only the related row holds, on the compiled engine', () => {
  it('is read in the page’s statement on every road, the prisma engine’s bytes', async () => {
    for (const path of PATHS) await expectCompiled(path)
  })

  it('is the related row’s key, single or composite, or null where there is none', async () => {
    const page = await expectCompiled('/articles?properties[]=body&properties[]=stamp&page=2')
    expect(members(page).map((member) => [member['@id'], member.body, member.stamp])).toEqual([
      ['/articles/4', null, null],
      ['/articles/5', '/article-bodies/135', '/article-stamps/series=C%20d;number=5'],
      ['/articles/6', '/article-bodies/142', null],
    ])
    const item = await expectCompiled('/articles/3?properties[body][]=text&properties[]=stamp')
    expect(item.body).toEqual({
      '@id': '/article-bodies/121',
      '@type': 'ArticleBody',
      text: 'closed text 3',
    })
    expect(item.stamp).toBe('/article-stamps/series=A%2Fb;number=7')
    const notes = await expectCompiled('/notes')
    expect(members(notes).map((member) => member.about)).toContain('/titles/3')
  })

  it('walks the cursor feed to its end, each body embedded as the feed declares', async () => {
    /** Each member's body along the feed from `path`, under `scope`. */
    const bodies = async (path: string, scope = '') => {
      const walked: unknown[] = []
      let next: string | undefined = path
      while (next) {
        const body = await expectCompiled(next, scope)
        walked.push(...members(body).map((member) => member.body))
        next = (body['hydra:view'] as Record<string, string> | undefined)?.['hydra:next']
        expect(walked.length).toBeLessThan(20)
      }
      return walked
    }
    // Articles 9 to 1: 8 and 4 have no body.
    const ids = [163, null, 149, 142, 135, null, 121, 114, 107]
    const embedded = await bodies('/articles/feed')
    expect(embedded.map((body) => body && (body as Record<string, unknown>)['@id'])).toEqual(
      ids.map((id) => id && `/article-bodies/${id}`)
    )
    expect(embedded[0]).toEqual({
      '@id': '/article-bodies/163',
      '@type': 'ArticleBody',
      text: 'closed text 9',
    })
    // A body out of the caller's scope stays its IRI: open are those of articles 7 and 1.
    const scoped = await bodies('/articles/feed?properties[]=body', 'open-bodies')
    expect(scoped.map((body) => (body === null ? null : typeof body))).toEqual([
      'string',
      null,
      'object',
      'string',
      'string',
      null,
      'string',
      'string',
      'object',
    ])
  })

  it('holds under a scope through the relation, and embeds no body out of the caller’s scope', async () => {
    const scoped = await expectCompiled('/articles?properties[]=body', 'open-body')
    expect(members(scoped).map((member) => member['@id'])).toEqual(['/articles/1', '/articles/7'])
    const embedded = await expectCompiled('/articles?properties[body][]=text', 'open-bodies')
    expect(members(embedded).map((member) => typeof member.body)).toEqual([
      'object',
      'string',
      'string',
    ])
  })

  it('is not named among the operations handed to Prisma when the app is made', () => {
    const handedOver = records
      .filter(({ fields }) => fields.event === 'engine.handoff')
      .map(({ fields }) => String(fields.operation))
    expect(handedOver.filter((name) => /articles|notes|stamps|bodies/.test(name))).toEqual([])
  })
})
