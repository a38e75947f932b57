/**
 * The Prisma 8 back end (runtime/src/data/prisma8/back-end.ts) end to end: the example's generated
 * API, served over real HTTP once on a Prisma 7 client (the compiled engine, as `engine:
 * 'compiled'` reads) and once on a Prisma 8 client of the same models and database, answers the
 * same requests with the same bytes: every paging mode, filters, orders, `properties`, embeds,
 * items, sub-collections, unpaged streams, cursor walks followed by their links, and the
 * documents. An operation the compiled engine cannot read is refused when the app is made.
 */
import { serve } from '@hono/node-server'
import { PrismaPg } from '@prisma/adapter-pg'
import postgres from '@prisma/orm-postgres/runtime'
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '../../example-app/src/generated-postgresql/hydra/index.js'
import { PrismaClient } from '../../example-app/src/generated-postgresql/prisma/client.js'
import { prisma8BackEnd } from '../../runtime/src/data/prisma8/back-end.js'
import type { Contract } from '../prisma/contract.d.ts'
import contractJson from '../prisma/contract.json' with { type: 'json' }
import { BACK_END_URL } from './support/database-urls.js'

/** The requests compared, each followed by its `next` links up to WALKED pages. */
const REQUESTS = [
  '/',
  '/docs.jsonld',
  '/contexts/Book',
  '/books',
  '/books?page=2',
  '/books?page=999',
  '/books?itemsPerPage=7&page=3',
  '/books/recent',
  '/books?title=the',
  '/books?title=%25',
  '/books?genre=FICTION&order[price]=desc',
  '/books?price[between]=10..30&order[publishedAt]=asc',
  '/books?publishedAt[after]=1990-01-01',
  '/books?author.name=a&order[author.name]=desc',
  '/books?id[]=/books/1&id[]=3',
  '/books?properties[]=title&properties[author][]=name',
  '/books/1',
  '/books/1?properties[]=isbn&properties[author][]=country',
  '/books/999999',
  '/authors',
  '/authors/1',
  '/authors/1/books',
  '/authors/999999/books',
  '/reviews',
  '/reviews?book.author.name=e&order[book.author.name]=asc',
  '/languages',
  '/loans',
  '/loans?exists[returnedAt]=false',
  '/loans?pagination=false',
  '/loans?partial=true&itemsPerPage=4',
  '/loans?properties[]=borrower&properties[book][]=title',
  '/activities',
  '/activities?kind=loan',
  '/activities?occurredAt[before]=2025-06-01T00:30:00Z',
  '/activities?itemsPerPage=3',
]
const WALKED = 4
/** The public origin of both apps' absolute IRIs (the documentation's vocabulary). */
const ORIGIN = 'https://library.example'

type Served = { origin: string; close: () => Promise<void> }

/** `fetch` served over HTTP on a port of its own. */
function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<Served> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        close: () => new Promise((done) => server.close(() => done())),
      })
    )
  })
}

const adapter = shareAdapter(new PrismaPg({ connectionString: BACK_END_URL }))
const prisma = new PrismaClient({ adapter })
const db = postgres<Contract>({ contractJson, url: BACK_END_URL })
let prisma7: Served
let prisma8: Served

beforeAll(async () => {
  prisma7 = await listen(
    createHydraApp({ prisma, adapter, engine: 'compiled', baseUrl: ORIGIN }).fetch
  )
  // The generated routes are typed for a Prisma 7 client; at run time they take a back end.
  const backEnd = prisma8BackEnd(db) as unknown as PrismaClient
  prisma8 = await listen(createHydraApp({ prisma: backEnd, baseUrl: ORIGIN }).fetch)
})

afterAll(async () => {
  await prisma7?.close()
  await prisma8?.close()
  await prisma.$disconnect()
  await db.close()
})

/** What an answer is compared by: its status, its type, its cache headers and its bytes. */
async function answer(origin: string, path: string) {
  const response = await fetch(`${origin}${path}`, { headers: { accept: 'application/ld+json' } })
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    cacheControl: response.headers.get('cache-control'),
    tags: response.headers.get('cache-tag'),
    body: await response.text(),
  }
}

/** The page after `body`'s, by its view's `next` (with or without the `hydra:` prefix). */
function nextOf(body: string): string | undefined {
  try {
    const document = JSON.parse(body) as Record<string, Record<string, unknown> | undefined>
    const view = document['hydra:view'] ?? document.view
    const next = view?.['hydra:next'] ?? view?.next
    return typeof next === 'string' ? next : undefined
  } catch {
    return undefined
  }
}

describe('the example on the Prisma 8 back end', () => {
  it.each(REQUESTS)('answers %s as on Prisma 7, and each page after it', async (request) => {
    let path: string | undefined = request
    for (let step = 0; path !== undefined && step < WALKED; step++) {
      const [expected, actual] = await Promise.all([
        answer(prisma7.origin, path),
        answer(prisma8.origin, path),
      ])
      expect(actual, path).toEqual(expected)
      path = nextOf(expected.body)
    }
  })

  it('walks the cursor feed to its end, each activity once', async () => {
    const seen: string[] = []
    let path: string | undefined = '/activities?itemsPerPage=40'
    while (path !== undefined) {
      const page = await answer(prisma8.origin, path)
      expect(page.status).toBe(200)
      const document = JSON.parse(page.body) as { 'hydra:member': { '@id': string }[] }
      seen.push(...document['hydra:member'].map((member) => member['@id']))
      path = nextOf(page.body)
    }
    const count = await prisma.activity.count()
    expect(seen.length).toBe(count)
    expect(new Set(seen).size).toBe(count)
  })
})
