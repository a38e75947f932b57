/**
 * The server keeps no state between requests: two instances of the example app, each with its own
 * Prisma client (as two processes behind a load balancer), over one database. A client that
 * follows every `next` link through the other instance than the page came from sees exactly the
 * pages one instance serves, in every paging mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SEED_COUNTS } from '../../prisma/seed.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, get, startServer, type TestDatabase } from './support/harness.js'

let database: TestDatabase
const instances: string[] = []
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  database = await emptyDatabase()
  for (let i = 0; i < 2; i++) {
    const prisma = createPrismaClient(database.url)
    closers.push(() => prisma.$disconnect())
    await prepareDatabase(prisma, database.url)
    const server = await startServer(createApp(prisma).fetch)
    closers.push(server.close)
    instances.push(server.origin)
  }
})

afterAll(async () => {
  for (const close of closers.reverse()) await close()
  await database?.remove()
})

/** Follows `next` from `start`; `origin(i)` is the instance asked for the i-th page. */
async function walk(start: string, origin: (page: number) => string): Promise<number[][]> {
  const pages: number[][] = []
  let next: string | undefined = start
  while (next) {
    const response = await get(origin(pages.length), next)
    expect(response.status).toBe(200)
    // Reviews are served without the hydra: prefix.
    const { body } = response
    const members = (body['hydra:member'] ?? body.member) as Array<{ id: number }>
    pages.push(members.map((member) => member.id))
    const view = (body['hydra:view'] ?? body.view) as Record<string, string> | undefined
    next = view?.['hydra:next'] ?? view?.next
  }
  return pages
}

describe('two instances over one database', () => {
  it.each([
    ['full paging', '/books', SEED_COUNTS.books],
    ['partial paging', '/reviews', SEED_COUNTS.reviews],
    ['cursor paging', '/activities?itemsPerPage=50', SEED_COUNTS.activities],
  ])('%s: links from one instance lead on through the other', async (_, start, count) => {
    const [one, other] = instances as [string, string]
    const alone = await walk(start, () => one)
    const alternating = await walk(start, (page) => (page % 2 === 0 ? one : other))
    expect(alternating).toEqual(alone)
    expect(alone.length).toBeGreaterThan(2)
    const members = alone.flat()
    expect(members).toHaveLength(count)
    expect(new Set(members).size).toBe(count)
  })
})
