/**
 * The walker of `@prisma-hydra/runtime/client` over openapi-fetch (docs/clients.md): a client
 * typed by the types openapi-typescript writes of the served document
 * (test/openapi-walker-client/client.ts, type-checked by tsc against them) walks a cursor feed
 * both ways, a collection without the `hydra:` prefix, a sub-collection and books narrowed by
 * `properties[]` with their authors embedded (typed exactly as `hc`'s walker types them, fields
 * not selected refused), by the links the server wrote, against the rows read from the database.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { openapiTypescriptClient } from './support/openapi-typescript-client.js'

/** What test/openapi-walker-client/client.ts exports (compiled beside its generated types). */
type WalkWithOpenApi = (baseUrl: string) => Promise<
  Record<'activities' | 'activitiesBack' | 'reviews' | 'authorBooks', string[]> & {
    wholeBook: string[]
    selected: { '@id': string; title: string; author: Record<string, unknown> }[]
    unselected: unknown[]
  }
>

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let close: () => Promise<void>

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  ;({ origin, close } = await startServer(createApp(prisma).fetch))
}, 120_000)

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

describe('the walker over openapi-fetch', () => {
  it('walks a cursor feed both ways, partial pages and a sub-collection, typed', async () => {
    const client = await openapiTypescriptClient<{ walkWithOpenApi: WalkWithOpenApi }>(
      new URL('./openapi-walker-client/', import.meta.url),
      `${origin}/openapi.json`
    )
    const walked = await client.module.walkWithOpenApi(origin).finally(client.remove)
    const iris = (path: string, rows: { id: number }[]) => rows.map((row) => `${path}/${row.id}`)
    const activities = await prisma.activity.findMany({
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
    })
    expect(walked.activities).toEqual(iris('/activities', activities))
    expect(walked.activitiesBack).toEqual([...walked.activities].reverse())
    expect(walked.reviews).toEqual(
      iris('/reviews', await prisma.review.findMany({ orderBy: { id: 'asc' } }))
    )
    const books = await prisma.book.findMany({ where: { authorId: 3 }, orderBy: { id: 'asc' } })
    expect(books.length).toBeGreaterThan(2)
    expect(walked.authorBooks).toEqual(iris('/books', books))
    expect(walked.wholeBook).toEqual(
      ['@id', '@type', 'id', 'title', 'isbn', 'genre', 'pages', 'price', 'publishedAt'].concat([
        'author',
        'reviews',
        'loans',
      ])
    )
    const shelf = await prisma.book.findMany({ include: { author: true }, orderBy: { id: 'asc' } })
    expect(walked.selected).toEqual(
      shelf.map((row) => ({
        '@id': `/books/${row.id}`,
        '@type': 'Book',
        title: row.title,
        author: { '@id': `/authors/${row.authorId}`, '@type': 'Author', name: row.author.name },
      }))
    )
    expect(walked.unselected).toEqual(shelf.flatMap(() => [undefined, undefined]))
  }, 120_000)
})
