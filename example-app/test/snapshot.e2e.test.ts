/**
 * A page and its count come from one snapshot of the database (docs/databases.md: the isolation
 * level the generator writes for the provider), even while rows are being added: `/books/recent`
 * (newest first, full paging) is read again and again while a writer adds books with ever later
 * dates, each numbered with the count of books it makes. In one snapshot holding N books the
 * newest is number N, so the first member must be book N whenever hydra:totalItems says N; a
 * count read after a write that the page missed (or the reverse) breaks that. On both engines:
 * the `compiled` one opens its transaction on the client's own driver adapter.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createHydraApp } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient, sharedAdapterOf } from '../src/prisma.js'
import { emptyDatabase, get, startServer, type TestDatabase } from './support/harness.js'

let prisma: PrismaClient
const origins = { prisma: '', compiled: '' }
const closers: Array<() => Promise<void>> = []
let database: TestDatabase

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  for (const engine of ['prisma', 'compiled'] as const) {
    const { origin, close } = await startServer(createApp(prisma, { engine }).fetch)
    origins[engine] = origin
    closers.push(close)
  }
})

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The first member's isbn and the count of one `/books/recent` page. */
async function newestAndCount(origin: string): Promise<{ isbn: string; total: number }> {
  const { status, body } = await get(origin, '/books/recent')
  expect(status).toBe(200)
  const [first] = body['hydra:member'] as Array<{ isbn: string }>
  return { isbn: String(first?.isbn), total: body['hydra:totalItems'] as number }
}

it.each(['prisma', 'compiled'] as const)(
  '%s: counts and pages from one snapshot while books are being added',
  async (engine) => {
    const origin = origins[engine]
    const author = await prisma.author.findFirstOrThrow({ orderBy: { id: 'asc' } })
    // Explicit ids: the seed gives its own, which PostgreSQL's id sequence does not see.
    const { _max } = await prisma.book.aggregate({ _max: { id: true } })
    const seeded = await newestAndCount(origin)
    // Each engine's books are newer than the other run's: the runs share the database.
    const after = Date.UTC(engine === 'prisma' ? 2100 : 2200, 0, 1)
    let stop = false
    let written = 0
    const writer = (async () => {
      // Bounded, and yielding between writes: on SQLite (one connection) a writer that never lets
      // go would starve the reads' transactions.
      while (!stop && written < 2000) {
        await new Promise((resolve) => setTimeout(resolve, 1))
        written += 1
        await prisma.book.create({
          data: {
            id: (_max.id ?? 0) + written,
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
        const { isbn, total } = await newestAndCount(origin)
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
  }
)

/**
 * The compiled engine reads below the client (docs/performance.md): a client extension's query
 * hook applies to the `prisma` engine's reads and not to its, on the client's own adapter.
 */
it('the compiled engine bypasses client extensions', async () => {
  const hidden = prisma.$extends({
    query: { book: { findMany: async ({ args, query }) => (await query(args)).slice(0, 1) } },
  }) as unknown as PrismaClient
  const adapter = sharedAdapterOf(prisma)
  expect(adapter).toBeDefined()
  const served: Record<string, number> = {}
  for (const engine of ['prisma', 'compiled'] as const) {
    const app = createHydraApp({ prisma: hidden, engine, adapter })
    const { origin, close } = await startServer(app.fetch)
    try {
      const { status, body } = await get(origin, '/books?itemsPerPage=5')
      expect(status).toBe(200)
      served[engine] = (body['hydra:member'] as unknown[]).length
    } finally {
      await close()
    }
  }
  expect(served).toEqual({ prisma: 1, compiled: 5 })
})
