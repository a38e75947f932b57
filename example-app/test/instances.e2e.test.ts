/**
 * The server keeps no state between requests: three instances of the example app, each with its
 * own Prisma client (as three processes behind a load balancer), over one database. A client that
 * follows every `next` link through another instance than the page came from sees exactly the
 * pages one instance serves, in every paging mode; and with writes going on, every instance's
 * pages agree with their totals, cursor walks through all of them neither repeat nor skip a row,
 * and once the writes stop they answer alike. (replicas.e2e.test.ts does the same with a read
 * replica.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { SEED_COUNTS } from '../../prisma/seed.js'
import { prepareDatabase } from '../src/database.js'
import { emptyDatabase, get, type TestDatabase } from './support/harness.js'
import { AGREED_TARGETS, agreeUnderWrites, startInstances } from './support/instances.js'

let database: TestDatabase
let instances: string[] = []
let writer: PrismaClient
let close: (() => Promise<void>) | undefined

beforeAll(async () => {
  database = await emptyDatabase()
  const started = await startInstances(3, database.url)
  close = started.close
  writer = (started.instances[0] as { prisma: PrismaClient }).prisma
  await prepareDatabase(writer, database.url)
  instances = started.instances.map(({ origin }) => origin)
})

afterAll(async () => {
  await close?.()
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

describe('three instances over one database', () => {
  it.each([
    ['full paging', '/books', SEED_COUNTS.books],
    ['partial paging', '/reviews', SEED_COUNTS.reviews],
    ['cursor paging', '/activities?itemsPerPage=50', SEED_COUNTS.activities],
  ])('%s: links from one instance lead on through the others', async (_, start, count) => {
    const [one] = instances as [string]
    const alone = await walk(start, () => one)
    const alternating = await walk(start, (page) => instances[page % instances.length] as string)
    expect(alternating).toEqual(alone)
    expect(alone.length).toBeGreaterThan(2)
    const members = alone.flat()
    expect(members).toHaveLength(count)
    expect(new Set(members).size).toBe(count)
  })
})

describe('three instances over one database, with writes going on', () => {
  it('pages agree with their totals, cursor walks hold, and the instances answer alike', async () => {
    const { written, requests } = await agreeUnderWrites(instances, writer, AGREED_TARGETS)
    process.stdout.write(
      `instances: 3 instances agreed over ${requests} requests while ${written} rows were written\n`
    )
  })
})
