/**
 * A custom data provider's page and count in one snapshot (docs/custom-collections.md#one-snapshot),
 * with writes going on, on PostgreSQL and MariaDB: while loans of books outside the ranking are
 * written and deleted again, moving the end of `/books/popular` back and forth across its last
 * pages, every page the example's provider (src/collections.ts, `popularBooks`) answers agrees
 * with its own total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { SEED_COUNTS } from '../../prisma/seed.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { collectionParts } from './support/instances.js'

/** `/books/popular`'s fixed page size (its `@operation` in prisma/schema.prisma). */
const PER_PAGE = 5
/** The seed borrows books 1 to 30; the writers borrow books 31 to 40, one loan each, and return them. */
const WRITTEN_BOOKS = Array.from({ length: 10 }, (_, i) => 31 + i)
/** The last pages the ranking can end on (30 to 40 books), and how often each is read. */
const PAGES = [6, 7, 8]
const READS_PER_PAGE = 150

let database: TestDatabase
let writer: PrismaClient
let reader: PrismaClient
let origin: string
let close: (() => Promise<void>) | undefined

beforeAll(async () => {
  if (TEST_DATABASE === 'sqlite') return
  database = await emptyDatabase()
  writer = createPrismaClient(database.url)
  await prepareDatabase(writer, database.url)
  reader = createPrismaClient(database.url)
  ;({ origin, close } = await startServer(createApp(reader).fetch))
})

afterAll(async () => {
  await close?.()
  await reader?.$disconnect()
  await writer?.$disconnect()
  await database?.remove()
})

/**
 * Page `page` of `/books/popular`, checked against its own total: the members a page of that
 * total holds, and the last page that total makes. A page and a total read at two moments of a
 * ranking that grows and shrinks disagree.
 */
async function pageAgreesWithItsTotal(page: number): Promise<string | undefined> {
  const response = await fetch(`${origin}/books/popular?page=${page}`)
  const body = (await response.json()) as Record<string, unknown>
  if (response.status !== 200) return `page ${page}: ${response.status} ${JSON.stringify(body)}`
  const { members, total, last } = collectionParts(body)
  if (total === undefined) return `page ${page}: no total`
  const expected = Math.max(0, Math.min(PER_PAGE, total - (page - 1) * PER_PAGE))
  const lastPage = Math.max(1, Math.ceil(total / PER_PAGE))
  if (members.length === expected && last?.endsWith(`page=${lastPage}`)) return undefined
  return `page ${page}: ${members.length} members and last ${last} with a total of ${total}`
}

/**
 * Each of WRITTEN_BOOKS borrowed and returned again and again through `prisma` (ids of their own:
 * the seed's explicit ids leave PostgreSQL's sequence at 1); `stop()` resolves to how many rows
 * were written or deleted, `failed` rejects when a write fails.
 */
function writeLoans(prisma: PrismaClient): { stop(): Promise<number>; failed: Promise<never> } {
  let writing = true
  let written = 0
  const writers = Promise.all(
    WRITTEN_BOOKS.map(async (bookId) => {
      for (let n = 0; writing; n++) {
        const data = {
          id: bookId * 1_000_000 + n,
          borrower: 'meanwhile',
          loanedAt: new Date(),
          bookId,
        }
        await prisma.loan.create({ data })
        await prisma.loan.delete({ where: { id: data.id } })
        written += 2
      }
    })
  )
  return {
    failed: writers.then(() => new Promise<never>(() => {})),
    async stop() {
      writing = false
      await writers
      return written
    },
  }
}

// Not on SQLite: the app's one connection runs the provider's reads back to back without waiting
// on I/O, so no write of this process falls between them, and a writer in a process of its own
// makes the app wait out SQLite's busy timeout (5 s) whatever the provider reads.
describe.skipIf(TEST_DATABASE === 'sqlite')(
  `/books/popular with loans written meanwhile (${TEST_DATABASE})`,
  () => {
    it('every page agrees with its own total', async () => {
      expect(await writer.loan.groupBy({ by: ['bookId'] })).toHaveLength(30)
      // The books are borrowed and returned: the ranking gains and loses its last members.
      const writes = writeLoans(writer)
      const disagreements: string[] = []
      let written: number
      try {
        // One reader on each of the pages the ranking may end on, until done or a write fails.
        const reads = Promise.all(
          PAGES.map(async (page) => {
            for (let read = 0; read < READS_PER_PAGE; read++) {
              const disagreement = await pageAgreesWithItsTotal(page)
              if (disagreement) disagreements.push(disagreement)
            }
          })
        )
        await Promise.race([reads, writes.failed])
      } finally {
        written = await writes.stop()
      }
      process.stdout.write(
        `provider snapshot (${TEST_DATABASE}): ${PAGES.length * READS_PER_PAGE} pages read while ${written} loans were written or deleted; ${disagreements.length} disagreed with their totals\n`
      )
      expect(written).toBeGreaterThan(0)
      expect(disagreements).toEqual([])
      expect(await writer.loan.count()).toBe(SEED_COUNTS.loans)
    })
  }
)
