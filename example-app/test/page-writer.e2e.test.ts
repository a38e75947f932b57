/**
 * The page writer of offset-paged operations (runtime/src/hono/routes/plain-page.ts) answers a
 * request that asks for a page by its number alone; every other request goes to the general
 * route. Both must answer alike, byte for byte: each request here is sent to two apps over the
 * same generated operations and data access, one as generated routes serve it (the writer), one
 * with the collection's path given by the app (`path`: the general route, which the writer never
 * takes over), and their status, headers (but `Server-Timing`'s durations) and bodies compared.
 * Full pages with exact, estimated and cached totals, a collection of one page, partial pages,
 * the API's own prefix-less terms, an operation's `Cache-Control`, validators and preconditions, negotiation, and pages past
 * the last, on both engines.
 */

import { createDataAccess, serveCollection } from '@prisma-hydra/runtime/generated'
import { type Context, Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readingModel, readingOperations } from '#fixtures/totals/hydra/reading.js'
import { PrismaClient as TotalsClient } from '#fixtures/totals/prisma/client.js'
import { authorModel, authorOperations } from '#generated/hydra/author.js'
import { bookModel, bookOperations } from '#generated/hydra/book.js'
import { reviewModel, reviewOperations } from '#generated/hydra/review.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import {
  createAdapter,
  emptyDatabase,
  freshDatabase,
  startServer,
  TEST_DATABASE,
  type TestDatabase,
} from './support/harness.js'

const TOTALS_SCHEMA = new URL('./fixtures/totals/schema.prisma', import.meta.url).pathname

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
})

afterAll(async () => {
  for (const close of closing.reverse()) await close()
  await prisma?.$disconnect()
  await readings?.$disconnect()
  await few?.$disconnect()
  await database?.remove()
  await totals?.remove()
  await single?.remove()
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
  ]
}

/** An app serving `served` as generated routes do, or (`general`) through the general route. */
function appOf(served: readonly Served[], engine: Engine, general: boolean) {
  const app = new Hono()
  for (const { path, operation, model, client } of served) {
    const rows = createDataAccess(client, model, { engine })
    app.get(path, (c: Context) =>
      serveCollection(c, operation, rows, general ? { engine, path: c.req.path } : { engine })
    )
  }
  return app
}

/**
 * What a client of `origin` can tell of a response: its status, headers (not the durations; the
 * origin, which differs between the two servers, written `ORIGIN`) and body.
 */
async function seen(origin: string, response: Response) {
  const headers = [...response.headers]
    .filter(([name]) => name !== 'server-timing' && name !== 'date' && name !== 'keep-alive')
    .map(([name, value]) => [name, value.replaceAll(origin, 'ORIGIN')])
  return { status: response.status, headers, body: await response.text() }
}

describe.each(['prisma', 'compiled'] as const)(
  `the page writer (${TEST_DATABASE}, %s engine)`,
  (engine) => {
    it('answers every page asked by its number as the general route does', async () => {
      const served = await operations()
      const writer = await startServer(appOf(served, engine, false).fetch)
      const general = await startServer(appOf(served, engine, true).fetch)
      closing.push(writer.close, general.close)
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
          const mine = await seen(
            writer.origin,
            await fetch(`${writer.origin}${target}`, { headers })
          )
          const theirs = await seen(
            general.origin,
            await fetch(`${general.origin}${target}`, { headers })
          )
          expect(mine, `${target} ${JSON.stringify(headers)}`).toEqual(theirs)
          compared++
          const tag = mine.headers.find(([name]) => name === 'etag')?.[1]
          if (!tag) continue
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
      }
      expect(compared).toBeGreaterThan(60)
    })
  }
)
