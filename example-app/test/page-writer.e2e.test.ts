/**
 * The page writer of collection operations (runtime/src/hono/routes/plain-page.ts) answers a
 * request that asks for a page by its number, its size or a cursor position alone; every other
 * request goes to the general route. Both must answer alike, byte for byte: each request here is
 * sent to two apps over the same generated operations and data access, one as generated routes
 * serve it (the writer), one with the collection's path given by the app (`path`: the general
 * route, which the writer never takes over), and their status, headers (but `Server-Timing`'s
 * durations) and bodies compared.
 * Full pages with exact, estimated and cached totals, a collection of one page, partial pages,
 * the API's own prefix-less terms, an operation's `Cache-Control`, validators and preconditions,
 * negotiation, pages past the last, page sizes chosen by the client (clamped, refused, spelled
 * otherwise, under renamed parameters), callers that access rules bear on (their rows scoped,
 * fields hidden), and sub-collections, on both engines.
 */

import { createDataAccess, serveCollection } from '@prisma-hydra/runtime/generated'
import { type Context, Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feedEntryModel, feedEntryOperations } from '#fixtures/cursor/hydra/feed-entry.js'
import { soManyModel, soManyOperations } from '#fixtures/cursor/hydra/so-many.js'
import { typedRowModel, typedRowOperations } from '#fixtures/cursor/hydra/typed-row.js'
import { wordModel, wordOperations } from '#fixtures/cursor/hydra/word.js'
import { PrismaClient as CursorClient } from '#fixtures/cursor/prisma/client.js'
import {
  bookModel as embedsBookModel,
  bookOperations as embedsBookOperations,
} from '#fixtures/embeds/hydra/book.js'
import { PrismaClient as EmbedsClient } from '#fixtures/embeds/prisma/client.js'
import { dummyModel, dummyOperations } from '#fixtures/renamed/hydra/dummy.js'
import { PrismaClient as RenamedClient } from '#fixtures/renamed/prisma/client.js'
import { readingModel, readingOperations } from '#fixtures/totals/hydra/reading.js'
import { PrismaClient as TotalsClient } from '#fixtures/totals/prisma/client.js'
import { authorModel, authorOperations } from '#generated/hydra/author.js'
import { bookModel, bookOperations } from '#generated/hydra/book.js'
import type { HydraAccess } from '#generated/hydra/index.js'
import { loanModel, loanOperations } from '#generated/hydra/loan.js'
import { reviewModel, reviewOperations } from '#generated/hydra/review.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { EMBEDS_SCHEMA } from './support/embeds-app.js'
import {
  createAdapter,
  emptyDatabase,
  freshDatabase,
  startServer,
  TEST_DATABASE,
  type TestDatabase,
} from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'

const TOTALS_SCHEMA = new URL('./fixtures/totals/schema.prisma', import.meta.url).pathname
const CURSOR_SCHEMA = new URL('./fixtures/cursor/schema.prisma', import.meta.url).pathname
const RENAMED_SCHEMA = new URL('./fixtures/renamed/schema.prisma', import.meta.url).pathname

type Engine = 'prisma' | 'compiled'
/** One collection operation served at `path` over the data access of its model. */
interface Served {
  path: string
  operation: Parameters<typeof serveCollection>[1]
  model: Parameters<typeof createDataAccess>[1]
  client: object
  /** Its last page at the seeded rows. */
  last: number
}

let database: TestDatabase
let totals: TestDatabase
let prisma: PrismaClient
let readings: TotalsClient
/** The totals fixture with one page of rows. */
let single: TestDatabase
let few: TotalsClient
let keyset: TestDatabase
let cursors: CursorClient
/** The embeds fixture: books whose loans some operations declare embedded, and others not. */
let library: TestDatabase
let embeds: EmbedsClient
/** The renamed fixture: its page parameter is `p`, its page size `size`. */
let named: TestDatabase
let dummies: RenamedClient
const closing: Array<() => Promise<void>> = []

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  totals = await freshDatabase(TOTALS_SCHEMA)
  readings = new TotalsClient({ adapter: createAdapter(totals.url) })
  await readings.reading.createMany({
    data: Array.from({ length: 35 }, (_, index) => ({ id: index + 1, value: index })),
  })
  single = await freshDatabase(TOTALS_SCHEMA)
  few = new TotalsClient({ adapter: createAdapter(single.url) })
  await few.reading.createMany({ data: [1, 2, 3].map((id) => ({ id, value: id })) })
  keyset = await freshDatabase(CURSOR_SCHEMA)
  cursors = new CursorClient({ adapter: createAdapter(keyset.url) })
  await seedCursors(cursors)
  library = await freshDatabase(EMBEDS_SCHEMA)
  embeds = new EmbedsClient({ adapter: createAdapter(library.url) })
  await seedLibrary(embeds)
  named = await freshDatabase(RENAMED_SCHEMA)
  dummies = new RenamedClient({ adapter: createAdapter(named.url) })
  await dummies.dummy.createMany({
    data: Array.from({ length: 10 }, (_, index) => ({ id: index + 1, name: `dummy ${index}` })),
  })
})

/** Rows of every cursor key type, with ties on the first key field. */
async function seedCursors(client: CursorClient) {
  const numbers = Array.from({ length: 11 }, (_, index) => index + 1)
  await client.soMany.createMany({ data: numbers.map((id) => ({ id, content: `row ${id}` })) })
  await client.feedEntry.createMany({
    data: numbers.map((id) => ({
      id,
      createdAt: new Date(Date.UTC(2024, 0, 1 + Math.floor(id / 3))),
      score: (id * 7) % 5,
    })),
  })
  await client.typedRow.createMany({
    data: numbers.map((n) => ({
      id: `0000000${n % 10}-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
      big: 9007199254740993n + BigInt(n * 1000) * (n % 2 === 0 ? 1n : -1n),
      code: `code-${String.fromCharCode(110 - n)}`,
      amount: `${(n * 7) % 10}.${n}5`,
      ratio: n % 3 === 0 ? n / 7 : -n / 3,
      kind: (['ALPHA', 'BETA', 'GAMMA'] as const)[n % 3] as 'ALPHA' | 'BETA' | 'GAMMA',
      at: new Date(Date.UTC(2024, 0, 1, 12, 0, 0, n * 7)),
    })),
  })
  const words = ['a', 'A', 'á', 'b', 'B', 'c', 'ç', 'd', 'e', 'E', 'f']
  await client.word.createMany({ data: words.map((word, index) => ({ id: index + 1, word })) })
}

afterAll(async () => {
  for (const close of closing.reverse()) await close()
  await prisma?.$disconnect()
  await readings?.$disconnect()
  await few?.$disconnect()
  await cursors?.$disconnect()
  await embeds?.$disconnect()
  await dummies?.$disconnect()
  await database?.remove()
  await totals?.remove()
  await single?.remove()
  await keyset?.remove()
  await library?.remove()
  await named?.remove()
})

/** The seeded example's operations and the totals fixture's, with their last pages. */
async function operations(): Promise<Served[]> {
  const [books, authors, reviews] = await Promise.all([
    prisma.book.count(),
    prisma.author.count(),
    prisma.review.count(),
  ])
  const last = (count: number, size: number) => Math.max(1, Math.ceil(count / size))
  const example = { client: prisma }
  const reading = { client: readings, model: readingModel, last: 4 }
  // A collection of one page has no view, and its page 1 is known by its path (canonical).
  const one = { client: few, model: readingModel, last: 1 }
  return [
    {
      ...example,
      path: '/books',
      operation: bookOperations.collection,
      model: bookModel,
      last: last(books, 10),
    },
    {
      ...example,
      path: '/books/recent',
      operation: bookOperations.recent,
      model: bookModel,
      last: last(books, 5),
    },
    {
      ...example,
      path: '/authors',
      operation: authorOperations.collection,
      model: authorModel,
      last: last(authors, 10),
    },
    {
      ...example,
      path: '/reviews',
      operation: reviewOperations.collection,
      model: reviewModel,
      last: last(reviews, 20),
    },
    { ...reading, path: '/readings', operation: readingOperations.collection },
    { ...reading, path: '/readings/estimated', operation: readingOperations.estimated },
    { ...reading, path: '/readings/cached', operation: readingOperations.cached },
    { ...one, path: '/few', operation: readingOperations.collection },
    { ...one, path: '/few/estimated', operation: readingOperations.estimated },
    { ...one, path: '/few/cached', operation: readingOperations.cached },
    // Books embed their loans on their collection (read by the page's own query), not on the
    // catalog.
    ...(['collection', 'catalog'] as const).map((name) => ({
      client: embeds,
      model: embedsBookModel,
      last: 1,
      path: `/library/${name}`,
      operation: embedsBookOperations[name],
    })),
  ]
}

/** Operations whose clients choose the page size, up to `maximum`, over `rows` rows. */
async function sizedOperations(): Promise<Array<Served & { maximum: number; rows: number }>> {
  const [books, loans, named] = await Promise.all([
    prisma.book.count(),
    prisma.loan.count(),
    dummies.dummy.count(),
  ])
  const served: Array<Omit<Served, 'last'> & { rows: number }> = [
    // Full paging, at most 50 a page.
    { path: '/books', operation: bookOperations.collection, model: bookModel, rows: books },
    // Clients may also switch paging off and ask for partial pages; at most 30 a page.
    { path: '/loans', operation: loanOperations.collection, model: loanModel, rows: loans },
  ].map((served) => ({ ...served, client: prisma }))
  // Renamed parameters, `size` and `p`: `itemsPerPage` and `page` are parameters like any other.
  served.push({
    path: '/dummies',
    operation: dummyOperations.collection,
    model: dummyModel,
    rows: named,
    client: dummies,
  })
  return served.map((operation) => {
    const { clientItemsPerPage, maximumItemsPerPage } = operation.operation.paging
    expect(clientItemsPerPage && maximumItemsPerPage, operation.path).toBeGreaterThan(0)
    return { ...operation, last: 1, maximum: maximumItemsPerPage as number }
  })
}

/** An app serving `served` as generated routes do, or (`general`) through the general route. */
function appOf(served: readonly Served[], engine: Engine, general: boolean, access?: HydraAccess) {
  const app = new Hono()
  for (const { path, operation, model, client } of served) {
    const rows = createDataAccess(client, model, { engine })
    const options = { engine, access }
    app.get(path, (c: Context) =>
      serveCollection(c, operation, rows, general ? { ...options, path: c.req.path } : options)
    )
  }
  return app
}

/**
 * The reader a request's credentials name (`Authorization: Reader <name>`), or undefined: a
 * librarian, whom no rule bears on.
 */
const readerOf = (c: Context) => /^Reader (.+)$/.exec(c.req.header('Authorization') ?? '')?.[1]

/**
 * Rules that bear on the callers who name themselves a reader: their own loans (`nobody`: none,
 * in Prisma's "no row" form), without the loans' return dates, the books' prices and ISBNs (so
 * that the books' price filter and order leave their `hydra:search`).
 */
const readerRules = {
  Loan: {
    scope: (c) => {
      const reader = readerOf(c)
      if (reader === undefined) return undefined
      return reader === 'nobody' ? { OR: [] } : { borrower: reader }
    },
    hidden: (c) => (readerOf(c) === undefined ? [] : ['returnedAt']),
  },
  Book: { hidden: (c) => (readerOf(c) === undefined ? [] : ['price', 'isbn']) },
} satisfies HydraAccess

/**
 * What a client of `origin` can tell of a response: its status, headers (not the durations; the
 * origin, which differs between the two servers, written `ORIGIN`) and body.
 */
async function seen(origin: string, response: Response) {
  const headers = [...response.headers]
    .filter(([name]) => name !== 'server-timing' && name !== 'date' && name !== 'keep-alive')
    .map(([name, value]): [string, string] => [name, value.replaceAll(origin, 'ORIGIN')])
  return { status: response.status, headers, body: await response.text() }
}

/** The cursor fixture's operations: positions on keys of every type, ties, both directions. */
function cursorOperations(): Served[] {
  const fixture = { client: cursors, last: 1 }
  return [
    { ...fixture, path: '/so-manies', operation: soManyOperations.collection, model: soManyModel },
    {
      ...fixture,
      path: '/feed-entries',
      operation: feedEntryOperations.collection,
      model: feedEntryModel,
    },
    {
      ...fixture,
      path: '/feed-entries/oldest-first',
      operation: feedEntryOperations.oldestFirst,
      model: feedEntryModel,
    },
    ...(['collection', 'byCode', 'byAmount', 'byRatio', 'byId', 'byAt'] as const).map((name) => ({
      ...fixture,
      path: `/typed-rows/${name}`,
      operation: typedRowOperations[name],
      model: typedRowModel,
    })),
    { ...fixture, path: '/words', operation: wordOperations.collection, model: wordModel },
    { ...fixture, path: '/words/backwards', operation: wordOperations.backwards, model: wordModel },
  ]
}

/** Both apps of `served` on `engine`, each on its own server. */
async function twins(served: readonly Served[], engine: Engine, access?: HydraAccess) {
  const writer = await startServer(appOf(served, engine, false, access).fetch)
  const general = await startServer(appOf(served, engine, true, access).fetch)
  closing.push(writer.close, general.close)
  /** Sends `target` to both and expects the same answer; the writer's, as a client sees it. */
  return async (target: string, headers: Record<string, string> = {}) => {
    const mine = await seen(writer.origin, await fetch(`${writer.origin}${target}`, { headers }))
    const theirs = await seen(
      general.origin,
      await fetch(`${general.origin}${target}`, { headers })
    )
    expect(mine, `${target} ${JSON.stringify(headers)}`).toEqual(theirs)
    const tag = mine.headers.find(([name]) => name === 'etag')?.[1]
    if (tag) {
      for (const conditional of [
        { 'If-None-Match': tag },
        { 'If-None-Match': '"another"' },
        { 'If-Match': '"another"' },
      ]) {
        const again = await seen(
          writer.origin,
          await fetch(`${writer.origin}${target}`, { headers: conditional })
        )
        const theirsAgain = await seen(
          general.origin,
          await fetch(`${general.origin}${target}`, { headers: conditional })
        )
        expect(again, `${target} ${JSON.stringify(conditional)}`).toEqual(theirsAgain)
      }
    }
    return mine
  }
}

/** The view's link named `rel` (`next`, `previous`) of a page's body, with or without the prefix. */
function linkOf(body: string, rel: string): string | undefined {
  const view = JSON.parse(body) as Record<string, Record<string, string> | undefined>
  const found = view['hydra:view'] ?? view.view
  return found?.[`hydra:${rel}`] ?? found?.[rel]
}

describe.each(['prisma', 'compiled'] as const)(
  `the page writer (${TEST_DATABASE}, %s engine)`,
  (engine) => {
    it('answers every page asked by its number as the general route does', async () => {
      const served = await operations()
      const compare = await twins(served, engine)
      let compared = 0
      for (const { path, last } of served) {
        const pages = [...new Set([1, 2, last, last + 1, 999_999])]
        const requests: Array<[string, Record<string, string>]> = [
          [path, {}],
          ...pages.map((page): [string, Record<string, string>] => [`${path}?page=${page}`, {}]),
          [`${path}?page=2`, { Accept: 'application/json' }],
          [`${path}?page=2`, { Accept: 'text/html' }],
          [`${path}?page=0`, {}],
          [`${path}?page=02`, {}],
          [`${path}?page=2&page=3`, {}],
        ]
        for (const [target, headers] of requests) {
          await compare(target, headers)
          compared++
        }
      }
      expect(compared).toBeGreaterThan(60)
    })

    it('answers every page asked by its size as the general route does', async () => {
      const served = await sizedOperations()
      const compare = await twins(served, engine)
      let compared = 0
      for (const { path, operation, maximum, rows } of served) {
        const { page, itemsPerPage: size } = operation.paging.parameters
        const beyond = rows + 1
        const requests = [
          `${path}?${size}=10`,
          `${path}?${size}=10&${page}=2`,
          `${path}?${page}=2&${size}=10`,
          `${path}?${size}=3&${page}=${beyond}`,
          `${path}?${page}=${beyond}&${size}=3`,
          `${path}?${size}=1&${page}=${rows}`,
          `${path}?${page}=${rows}&${size}=1`,
          // One page: a view with its `@id` alone, the page dropped from it.
          `${path}?${size}=${rows}`,
          `${path}?${size}=${rows}&${page}=1`,
          `${path}?${page}=1&${size}=${rows}`,
          `${path}?${size}=0`,
          `${path}?${size}=0&${page}=1`,
          `${path}?${page}=1&${size}=0`,
          `${path}?${size}=0&${page}=2`,
          `${path}?${size}=${maximum}`,
          `${path}?${size}=${maximum}&${page}=2`,
          `${path}?${size}=${maximum + 1}`,
          `${path}?${page}=2&${size}=${maximum + 1}`,
          `${path}?${size}=99999999999999999999`,
          `${path}?${size}=010`,
          `${path}?${page}=2&${size}=010`,
          `${path}?${size}=abc`,
          `${path}?${size}=1e1`,
          `${path}?${size}=-1`,
          `${path}?${size}=`,
          `${path}?${size}`,
          `${path}?${size}=10&${size}=20`,
          `${path}?${size}=10&${page}=2&${page}=3`,
          `${path}?${size}=10&${page}=2&`,
          `${path}?${size}=10&${page}=0`,
          `${path}?${size}=10&order[id]=desc`,
          `${path}?itemsPerPage=10&page=2`,
        ]
        for (const target of requests) {
          await compare(target)
          compared++
        }
      }
      expect(compared).toBeGreaterThan(90)
    })

    it('answers callers that access rules bear on as the general route does', async () => {
      const example = { client: prisma }
      const served: Served[] = [
        {
          ...example,
          path: '/loans',
          operation: loanOperations.collection,
          model: loanModel,
          last: 1,
        },
        {
          ...example,
          path: '/books',
          operation: bookOperations.collection,
          model: bookModel,
          last: 1,
        },
      ]
      const compare = await twins(served, engine, readerRules)
      const borrowers = await prisma.loan.groupBy({
        by: ['borrower'],
        orderBy: { borrower: 'asc' },
      })
      const reader = borrowers[0]?.borrower as string
      const own = await prisma.loan.count({ where: { borrower: reader } })
      expect(own).toBeGreaterThan(0)
      let personal = 0
      for (const caller of [undefined, reader, 'nobody']) {
        const headers: Record<string, string> =
          caller === undefined ? {} : { Authorization: `Reader ${caller}` }
        for (const { path, operation } of served) {
          const { page, itemsPerPage: size } = operation.paging.parameters
          for (const target of [
            path,
            `${path}?${page}=1`,
            `${path}?${page}=2`,
            `${path}?${page}=999999`,
            `${path}?${size}=1&${page}=${own}`,
            `${path}?${size}=2`,
          ]) {
            const answer = await compare(target, headers)
            const vary = answer.headers.find(([name]) => name === 'vary')?.[1] ?? ''
            if (caller !== undefined && answer.status === 200) {
              expect(vary, target).toContain('Authorization')
              expect(answer.body, target).not.toMatch(/"(returnedAt|price|isbn)"/)
              personal++
            }
          }
        }
      }
      expect(personal).toBeGreaterThan(20)
    })

    it('answers sub-collections as the general route does', async () => {
      // The writer answers a sub-collection's page asked as it writes its links; the same request
      // with an empty parameter after it (`?page=2&`, `?&`) is the general route's, which then
      // also links the canonical IRI.
      const server = await startServer(createApp(prisma, { engine }).fetch)
      closing.push(server.close)
      const ask = async (target: string) =>
        seen(server.origin, await fetch(`${server.origin}${target}`))
      const withoutCanonical = (answer: Awaited<ReturnType<typeof ask>>, target: string) => ({
        ...answer,
        headers: answer.headers.map(([name, value]): [string, string] => [
          name,
          name === 'link' ? value.replace(`, <${target}>; rel="canonical"`, '') : value,
        ]),
      })
      const [author, book] = await Promise.all([
        prisma.author.findFirst({ where: { books: { some: {} } }, orderBy: { id: 'asc' } }),
        prisma.book.findFirst({
          where: { reviews: { some: {} }, loans: { some: {} } },
          orderBy: { id: 'asc' },
        }),
      ])
      let compared = 0
      for (const [parent, id, links] of [
        ['authors', author?.id, ['books']],
        ['books', book?.id, ['reviews', 'loans']],
      ] as const) {
        expect(id, parent).toBeDefined()
        for (const link of links)
          for (const query of ['', '?page=1', '?page=2', '?itemsPerPage=1&page=2', '?page=0']) {
            const target = `/${parent}/${id}/${link}${query}`
            const mine = await ask(target)
            const theirs = await ask(query === '' ? `${target}?&` : `${target}&`)
            expect(mine, target).toEqual(withoutCanonical(theirs, target))
            compared++
          }
      }
      expect(compared).toBe(15)
    })

    it('answers every cursor page as the general route does, walked both ways', async () => {
      const served = cursorOperations()
      const compare = await twins(served, engine)
      let walked = 0
      for (const { path, operation } of served) {
        const keys = operation.paging.cursor ?? []
        const first = keys[0]?.field as string
        // Forward from the first page to the last, then back from the last.
        const pages: string[] = []
        for (let target: string | undefined = path; target && pages.length < 12; ) {
          const page = await compare(target)
          expect(page.status, target).toBe(200)
          pages.push(target)
          target = linkOf(page.body, 'next')
        }
        let back = linkOf((await compare(pages.at(-1) as string)).body, 'previous')
        for (let steps = 0; back && steps < 12; steps++) {
          back = linkOf((await compare(back)).body, 'previous')
          walked++
        }
        walked += pages.length
        // Positions the writer reads, or leaves to the general route, and the 400s of bad ones.
        for (const target of [
          `${path}?${first}%5Blt%5D=not-a-value`,
          `${path}?${first}[gt]=1&${first}[lt]=2`,
          `${path}?id[lte]=1&${first}[lt]=1`,
          `${path}?page=1`,
          `${path}?itemsPerPage=1`,
          `${path}?order[id]=asc`,
          `${path}?${first}=1`,
          `${path}?`,
        ])
          await compare(target)
      }
      expect(walked).toBeGreaterThan(30)
    })
  }
)
