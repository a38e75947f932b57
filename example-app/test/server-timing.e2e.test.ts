/**
 * `Server-Timing` on pages and items (docs/operations.md#server-timing), on both engines: `db`
 * and `serialize` on every page, item and sub-collection page, a filtered or ordered page's
 * `serialize` above zero; `count` when a `cached` total is counted on its own
 * (test/fixtures/totals), not when it is answered from the cache; none when the app switches it
 * off. And the example's compression (docs/operations.md#compression): a
 * large page goes gzip-compressed with a weak `ETag` that still revalidates; a small item does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp as createTotalsApp } from '#fixtures/totals/hydra/index.js'
import { PrismaClient as TotalsClient } from '#fixtures/totals/prisma/client.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
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
/** `db;dur=1.23, serialize;dur=0.45` as metric → duration. */
const metricsOf = (header: string | null) =>
  Object.fromEntries(
    (header ?? '').split(/,\s*/).flatMap((entry) => {
      const match = /^(\w+);dur=(\d+(?:\.\d+)?)$/.exec(entry)
      return match ? [[match[1] as string, Number(match[2])]] : []
    })
  )

let database: TestDatabase
let prisma: PrismaClient
const closing: Array<() => Promise<void>> = []

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
})

afterAll(async () => {
  for (const close of closing.reverse()) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

async function serve(options: Parameters<typeof createApp>[1]): Promise<string> {
  const { origin, close } = await startServer(createApp(prisma, options).fetch)
  closing.push(close)
  return origin
}

describe.each(['prisma', 'compiled'] as const)(
  `Server-Timing (${TEST_DATABASE}, %s engine)`,
  (engine) => {
    it('reports the database and the serialization of pages, items and sub-collections', async () => {
      const origin = await serve({ engine })
      for (const path of [
        '/books?page=2',
        '/reviews?page=3',
        '/activities',
        '/books/1',
        '/authors/1/books',
      ]) {
        const response = await fetch(`${origin}${path}`)
        expect(response.status, path).toBe(200)
        await response.arrayBuffer()
        const metrics = metricsOf(response.headers.get('Server-Timing'))
        expect(Object.keys(metrics).sort(), path).toEqual(['db', 'serialize'])
        expect(metrics.db, path).toBeGreaterThan(0)
      }
    })

    it('times the writing of a page its query filters or orders', async () => {
      const origin = await serve({ engine })
      // Pages the page writer does not answer (a filter, an order): the general route writes
      // them. 50 members each, far more than the hundredth of a millisecond the header shows.
      for (const path of [
        '/books?itemsPerPage=50&order[title]=asc',
        '/books?itemsPerPage=50&title=e',
        '/authors/1/books?order[price]=desc',
      ]) {
        const response = await fetch(`${origin}${path}`)
        expect(response.status, path).toBe(200)
        await response.arrayBuffer()
        const metrics = metricsOf(response.headers.get('Server-Timing'))
        expect(metrics.serialize, path).toBeGreaterThan(0)
      }
    })

    it('is left out when the app switches it off', async () => {
      const origin = await serve({ engine, serverTiming: false })
      for (const path of ['/books?page=2', '/books/1']) {
        const response = await fetch(`${origin}${path}`)
        await response.arrayBuffer()
        expect(response.headers.get('Server-Timing'), path).toBeNull()
      }
    })
  }
)

describe(`pages the compiled engine hands to Prisma (${TEST_DATABASE})`, () => {
  it('names none of the example’s pages, in the log or in their answers', async () => {
    const records: { level: string; fields: Record<string, unknown> }[] = []
    const origin = await serve({ engine: 'compiled', logger: (record) => records.push(record) })
    const handoffs = records.filter(({ fields }) => fields.event === 'engine.handoff')
    // Filters and orders through the author are the compiled engine's own SQL (EXISTS, a scalar
    // subquery), an embed of the author a join: no page of the example is Prisma's
    // (test/page-statements.e2e.test.ts names the first pages the compiled engine hands over).
    expect(handoffs).toEqual([])
    const timingOf = async (path: string) => {
      const response = await fetch(`${origin}${path}`)
      expect(response.status, path).toBe(200)
      await response.arrayBuffer()
      return response.headers.get('Server-Timing') ?? ''
    }
    for (const path of [
      '/books?page=2',
      '/books?title=e',
      '/activities',
      '/authors/1/books',
      '/books?author.name=an',
      '/books?order[author.name]=asc',
    ])
      expect(await timingOf(path), path).not.toContain('handoff')
  })

  it('reads a page embedding a to-one relation itself, with the bytes of the prisma engine', async () => {
    const origins = {
      prisma: await serve({ engine: 'prisma' }),
      compiled: await serve({ engine: 'compiled' }),
    }
    const answered = async (origin: string, path: string) => {
      const response = await fetch(`${origin}${path}`)
      expect(response.status, path).toBe(200)
      return { body: await response.text(), timing: response.headers.get('Server-Timing') ?? '' }
    }
    for (const path of [
      '/books?properties[author][]=name',
      '/books?page=3&properties[]=title&properties[author][]=name&properties[author][]=country',
      '/books?title=e&order[price]=desc&properties[author][]=country',
      '/books/recent?properties[author][]=name',
      '/authors/2/books?properties[author][]=name',
      '/loans?properties[book][]=title&itemsPerPage=7&page=2',
      '/loans?exists[returnedAt]=false&properties[]=borrower&properties[book][]=title',
    ]) {
      const [own, twin] = await Promise.all([
        answered(origins.prisma, path),
        answered(origins.compiled, path),
      ])
      expect(twin.timing, path).not.toContain('handoff')
      expect(twin.body, path).toBe(own.body)
    }
  })

  it('names none on the prisma engine', async () => {
    const records: { fields: Record<string, unknown> }[] = []
    const origin = await serve({ engine: 'prisma', logger: (record) => records.push(record) })
    expect(records.filter(({ fields }) => fields.event === 'engine.handoff')).toEqual([])
    const response = await fetch(`${origin}/books?author.name=an`)
    await response.arrayBuffer()
    expect(response.headers.get('Server-Timing')).not.toContain('handoff')
  })
})

describe(`Server-Timing of a cached total (${TEST_DATABASE})`, () => {
  it('reports the count when it is read, not when the cache answers', async () => {
    const totals = await freshDatabase(TOTALS_SCHEMA)
    const client = new TotalsClient({ adapter: createAdapter(totals.url) })
    closing.push(async () => {
      await client.$disconnect()
      await totals.remove()
    })
    await client.reading.createMany({
      data: Array.from({ length: 40 }, (_, index) => ({ id: index + 1, value: index })),
    })
    const { origin, close } = await startServer(createTotalsApp({ prisma: client }).fetch)
    closing.push(close)
    const first = await fetch(`${origin}/readings/cached?page=2`)
    expect(first.status).toBe(200)
    expect(Object.keys(metricsOf(first.headers.get('Server-Timing'))).sort()).toEqual([
      'count',
      'db',
      'serialize',
    ])
    const second = await fetch(`${origin}/readings/cached?page=3`)
    expect(Object.keys(metricsOf(second.headers.get('Server-Timing'))).sort()).toEqual([
      'db',
      'serialize',
    ])
  })
})

describe(`the example's compression (${TEST_DATABASE})`, () => {
  it('compresses a large page, keeps a small item as it is, and revalidates either', async () => {
    const origin = await serve({ compression: {} })
    const gzip = { 'Accept-Encoding': 'gzip' }
    // fetch decompresses the body and keeps the header.
    const page = await fetch(`${origin}/books?itemsPerPage=50`, { headers: gzip })
    expect(page.status).toBe(200)
    expect(page.headers.get('Content-Encoding')).toBe('gzip')
    expect(page.headers.get('Vary')).toMatch(/Accept-Encoding/)
    const tag = page.headers.get('ETag') as string
    expect(tag).toMatch(/^W\/"/)
    const body = await page.json()
    expect(body['hydra:member']).toHaveLength(50)
    // The weak tag revalidates (If-None-Match compares weakly): a 304 without a body.
    const again = await fetch(`${origin}/books?itemsPerPage=50`, {
      headers: { ...gzip, 'If-None-Match': tag },
    })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    // A precondition that needs the strong tag fails with the weak one (RFC 9110 13.1.1).
    const ifMatch = await fetch(`${origin}/books?itemsPerPage=50`, {
      headers: { ...gzip, 'If-Match': tag },
    })
    expect(ifMatch.status).toBe(412)
    await ifMatch.arrayBuffer()
    // Without Accept-Encoding the same page goes as it is, with its strong tag.
    const plain = await fetch(`${origin}/books?itemsPerPage=50`, {
      headers: { 'Accept-Encoding': 'identity' },
    })
    expect(plain.headers.get('Content-Encoding')).toBeNull()
    expect(plain.headers.get('ETag')).toBe(tag.slice(2))
    expect(Number(plain.headers.get('Content-Length'))).toBeGreaterThan(1024)
    await plain.arrayBuffer()
    // An item under the threshold goes as it is.
    const item = await fetch(`${origin}/languages/en`, { headers: gzip })
    expect(item.status).toBe(200)
    expect(item.headers.get('Content-Encoding')).toBeNull()
    expect(Number(item.headers.get('Content-Length'))).toBeLessThan(1024)
    await item.arrayBuffer()
  })
})

/** The headers a `304` and a `HEAD` carry as the `200` does (RFC 9110 9.3.2, 15.4.5). */
const VALIDATION = ['ETag', 'Vary', 'Cache-Control', 'Link'] as const
const headersOf = (response: Response, names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, response.headers.get(name)]))

describe(`the validators of compressed answers (${TEST_DATABASE})`, () => {
  // A large page, a page with Cache-Control, an item under the threshold.
  const paths = ['/books?itemsPerPage=50', '/books/recent', '/languages/en']
  const clients = {
    gzip: { 'Accept-Encoding': 'gzip, deflate' },
    identity: { 'Accept-Encoding': 'identity' },
  }

  it('gives a 304 and a HEAD the ETag and Vary of the 200, for gzip and identity', async () => {
    const origin = await serve({ compression: {} })
    for (const path of paths) {
      for (const [client, headers] of Object.entries(clients)) {
        const at = `${client} ${path}`
        const whole = await fetch(`${origin}${path}`, { headers })
        expect(whole.status, at).toBe(200)
        await whole.arrayBuffer()
        const sent = headersOf(whole, [...VALIDATION, 'Content-Encoding'])
        const head = await fetch(`${origin}${path}`, { method: 'HEAD', headers })
        expect(head.status, at).toBe(200)
        expect(headersOf(head, [...VALIDATION, 'Content-Encoding']), at).toEqual(sent)
        const tag = whole.headers.get('ETag') as string
        for (const method of ['GET', 'HEAD']) {
          const again = await fetch(`${origin}${path}`, {
            method,
            headers: { ...headers, 'If-None-Match': tag },
          })
          expect(again.status, `${method} ${at}`).toBe(304)
          expect(headersOf(again, VALIDATION), `${method} ${at}`).toEqual(
            headersOf(whole, VALIDATION)
          )
        }
      }
    }
  })

  it('revalidates with the tag of either coding (weak comparison)', async () => {
    const origin = await serve({ compression: {} })
    const path = '/books?itemsPerPage=50'
    const tags: Record<string, string> = {}
    for (const [client, headers] of Object.entries(clients)) {
      const whole = await fetch(`${origin}${path}`, { headers })
      await whole.arrayBuffer()
      tags[client] = whole.headers.get('ETag') as string
    }
    expect(tags.gzip).toBe(`W/${tags.identity}`)
    for (const [client, headers] of Object.entries(clients)) {
      for (const tag of Object.values(tags)) {
        const again = await fetch(`${origin}${path}`, {
          headers: { ...headers, 'If-None-Match': tag },
        })
        expect(again.status, `${client} with ${tag}`).toBe(304)
        expect(again.headers.get('ETag'), `${client} with ${tag}`).toBe(tags[client])
      }
    }
  })

  it('gives the 304 of a streamed collection the Vary of its 200', async () => {
    const origin = await serve({ compression: {} })
    for (const [client, headers] of Object.entries(clients)) {
      const whole = await fetch(`${origin}/releases?pagination=false`, { headers })
      expect(whole.status, client).toBe(200)
      await whole.arrayBuffer()
      expect(whole.headers.get('Vary'), client).toMatch(/Accept-Encoding/)
      const again = await fetch(`${origin}/releases?pagination=false`, {
        headers: { ...headers, 'If-None-Match': '*' },
      })
      expect(again.status, client).toBe(304)
      expect(headersOf(again, VALIDATION), client).toEqual(headersOf(whole, VALIDATION))
    }
  })
})
