/**
 * A page and its count come from one snapshot of the database (docs/databases.md: the isolation
 * level the generator writes for the provider), even while rows are being added: `/books/recent`
 * (newest first, full paging) is read again and again while a writer adds books with ever later
 * dates, each numbered with the count of books it makes. In one snapshot holding N books the
 * newest is number N, so the first member must be book N whenever hydra:totalItems says N; a
 * count read after a write that the page missed (or the reverse) breaks that.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, get, startServer, type TestDatabase } from './support/harness.js'

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let database: TestDatabase

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  ;({ origin, close } = await startServer(createApp(prisma).fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The first member's isbn and the count of one `/books/recent` page. */
async function newestAndCount(): Promise<{ isbn: string; total: number }> {
  const { status, body } = await get(origin, '/books/recent')
  expect(status).toBe(200)
  const [first] = body['hydra:member'] as Array<{ isbn: string }>
  return { isbn: String(first?.isbn), total: body['hydra:totalItems'] as number }
}

it('counts and pages from one snapshot while books are being added', async () => {
  const author = await prisma.author.findFirstOrThrow({ orderBy: { id: 'asc' } })
  const seeded = await newestAndCount()
  const after = Date.UTC(2100, 0, 1)
  let stop = false
  let written = 0
  const writer = (async () => {
    while (!stop) {
      written += 1
      await prisma.book.create({
        data: {
          title: `Added while reading ${written}`,
          isbn: `added-${seeded.total + written}`,
          genre: 'FICTION',
          pages: 100,
          price: '9.99',
          publishedAt: new Date(after + written * 1000),
          authorId: author.id,
        },
      })
    }
  })()
  const totals = new Set<number>()
  try {
    for (let read = 0; read < 80; read++) {
      const { isbn, total } = await newestAndCount()
      totals.add(total)
      expect(isbn, `hydra:totalItems ${total}`).toBe(
        total === seeded.total ? seeded.isbn : `added-${total}`
      )
    }
  } finally {
    stop = true
    await writer
  }
  // The reads did happen between writes.
  expect(totals.size).toBeGreaterThan(5)
})
