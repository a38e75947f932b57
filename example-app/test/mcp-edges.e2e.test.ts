/**
 * The MCP endpoint's edges (docs/mcp.md), on every database: `search` for a word typed in another
 * case than the data's; a request without `params` answered "invalid params" in both protocol
 * revisions; a public page's cache hint public with CORS on, private where the app's callers are
 * known by their `Origin`; `search` neither read from nor kept in `workersCache` (a Cache API
 * cache in memory); the SDK server's errors in the app's logger; `read_collection`'s filter
 * values described by schemas of one type each; `search` by the filters an app names
 * (`searchFields`), a name that is none refused when the app is made; an extra operation's page
 * read as a page by `fetch_iri` and `resources/read`. The example server with `hydraMcp()`, spoken to
 * over real HTTP by the SDK's client and by plain requests.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { HydraLogger } from '@prisma-hydra/runtime'
import { workersCache } from '@prisma-hydra/runtime/invalidation'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import type { MiddlewareHandler } from 'hono'
import { every } from 'hono/combine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, type TestDatabase } from './support/harness.js'
import { serveWithClient } from './support/mcp-servers.js'
import { toolText } from './support/mcp-walks.js'

type Json = Record<string, unknown>

let prisma: PrismaClient
let database: TestDatabase
/** The example with the endpoint, its log kept. */
let plain: Awaited<ReturnType<typeof serveWithClient>>
/** The same with CORS on for one origin. */
let withCors: Awaited<ReturnType<typeof serveWithClient>>
/** The generated app with CORS on, its callers known by their `Origin` too. */
let originCallers: Awaited<ReturnType<typeof serveWithClient>>
/** The example whose books and reviews `search` reads by their author's name. */
let byAuthor: Awaited<ReturnType<typeof serveWithClient>>
/** The example behind `workersCache`, its Cache API cache `shared`. */
let cached: Awaited<ReturnType<typeof serveWithClient>>
const shared = memoryCache()
const logged: Parameters<HydraLogger>[0][] = []

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  const logger: HydraLogger = (record) => {
    logged.push(record)
  }
  plain = await serveWithClient(
    createApp(prisma, { mcp: hydraMcp(), logger }).fetch,
    'prisma-hydra edges test'
  )
  withCors = await serveWithClient(
    createApp(prisma, { mcp: hydraMcp(), cors: ['http://admin.example'] }).fetch,
    'prisma-hydra edges test, CORS'
  )
  originCallers = await serveWithClient(
    createHydraApp({
      prisma,
      cors: ['http://admin.example'],
      authentication: { vary: ['Authorization', 'Origin'] },
      mcp: hydraMcp(),
    }).fetch,
    'prisma-hydra edges test, callers by origin'
  )
  byAuthor = await serveWithClient(
    createApp(prisma, { mcp: hydraMcp({ searchFields: AUTHOR_NAMES }) }).fetch,
    'prisma-hydra edges test, search fields'
  )
  cached = await serveWithClient(
    createApp(prisma, {
      mcp: hydraMcp(),
      sharedCache: every(workersCache({ cache: shared }), sharedByDefault),
    }).fetch,
    'prisma-hydra edges test, Workers cache'
  )
}, 120_000)

afterAll(async () => {
  await plain?.close()
  await withCors?.close()
  await originCallers?.close()
  await cached?.close()
  await byAuthor?.close()
  await prisma?.$disconnect()
  await database?.remove()
})

/**
 * A Cache API cache in memory, as `workersCache` reads one (`caches.default` is Workers' alone):
 * answers kept by their URL, and the URLs it was asked for.
 */
function memoryCache() {
  const stored = new Map<string, Response>()
  const asked: string[] = []
  return {
    stored,
    asked,
    match: async (request: Request) => {
      asked.push(request.url)
      return stored.get(request.url)?.clone()
    },
    put: async (request: Request, response: Response) => {
      stored.set(request.url, response)
    },
  }
}

/**
 * An app's default for the answers its routes give no `Cache-Control`: shared for a minute, so
 * that the example's `/books?title=…` is kept as `/books/recent` is.
 */
const sharedByDefault: MiddlewareHandler = async (c, next) => {
  await next()
  if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'public, s-maxage=60')
}

/** The ids `search` answers for `query`. */
async function searched(client: Client, query: string): Promise<string[]> {
  const result = await client.callTool({ name: 'search', arguments: { query } })
  expect(result.isError, toolText(result)).toBeFalsy()
  const { results } = result.structuredContent as { results: { id: string }[] }
  return results.map((found) => found.id)
}

describe('search', () => {
  it('finds a word whatever the case it is typed in, on every database', async () => {
    for (const [word, spellings] of [
      ['Harbour', ['harbour', 'HARBOUR', 'hArBoUr']],
      ['Night', ['night', 'NIGHT']],
      ['Atlas', ['atlas', 'ATLAS']],
    ] as const) {
      const expected = await searched(plain.client, word)
      expect(expected.length, word).toBeGreaterThan(0)
      for (const spelling of spellings)
        expect(await searched(plain.client, spelling), spelling).toEqual(expected)
    }
  })
})

/** `search` of books and reviews by their author's name, which they filter by. */
const AUTHOR_NAMES = { book: ['author.name'], review: ['book.author.name'] }

/** The `@id`s of the members of the first page of `path` over HTTP. */
async function firstPage(origin: string, path: string): Promise<string[]> {
  const response = await fetch(`${origin}${path}`, { headers: { Accept: 'application/ld+json' } })
  const page = (await response.json()) as Json
  return ((page['hydra:member'] ?? page.member) as Json[]).map((member) => String(member['@id']))
}

describe('search by the fields an app names', () => {
  it('reads the named filters, and list_collections says which each collection has', async () => {
    const author = (await (await fetch(`${plain.origin}/authors/3`)).json()) as Json
    const name = String(author.name)
    // Books and reviews have no filter of their own text by the author: unnamed, none is found.
    const unnamed = await searched(plain.client, name)
    expect(unnamed.filter((id) => /^\/(books|reviews)\//.test(id))).toEqual([])
    // Named, the books of the author then the reviews of their books, as HTTP filters them, in
    // another case too.
    const books = await firstPage(plain.origin, `/books?author.name=${encodeURIComponent(name)}`)
    const reviews = await firstPage(
      plain.origin,
      `/reviews?book.author.name=${encodeURIComponent(name)}`
    )
    expect(books.length).toBeGreaterThan(0)
    expect(reviews.length).toBeGreaterThan(0)
    const found = await searched(byAuthor.client, name)
    expect(found).toEqual([...books, ...reviews].slice(0, 20))
    expect(await searched(byAuthor.client, name.toUpperCase())).toEqual(found)
    const listedBy = async (served: typeof plain) => {
      const result = await served.client.callTool({ name: 'list_collections', arguments: {} })
      const { collections } = result.structuredContent as { collections: Json[] }
      return Object.fromEntries(collections.map((entry) => [entry.name, entry.search]))
    }
    expect(await listedBy(plain)).toMatchObject({ book: ['title'], review: undefined })
    expect(await listedBy(byAuthor)).toMatchObject(AUTHOR_NAMES)
  })

  it('refuses, when the app is made, a name that is no collection or no text filter of it', () => {
    const made = (searchFields: Record<string, string[]>) => () =>
      createApp(prisma, { mcp: hydraMcp({ searchFields }) })
    expect(made({ reviews: ['body'] })).toThrow(
      "hydraMcp's searchFields names reviews, which is no top-level collection of this API"
    )
    expect(made({ review: ['body'] })).toThrow(
      "hydraMcp's searchFields names body for review, which is no text filter of it: it has book.author.name."
    )
    // A filter naming a row by its IRI has no text to match.
    expect(made({ book: ['author'] })).toThrow("hydraMcp's searchFields names author for book")
    expect(made({ book: [] })).not.toThrow()
  })
})

describe("search behind the app's shared cache", () => {
  it('neither fills it, with the URL of an HTTP request matching by case', async () => {
    const expected = await searched(plain.client, 'harbour')
    expect(await searched(cached.client, 'harbour')).toEqual(expected)
    expect([...shared.stored.keys()].filter((url) => /harbour/i.test(url))).toEqual([])
    const http = await fetch(`${cached.origin}/books?title=harbour`, {
      headers: { Accept: 'application/ld+json' },
    })
    await http.body?.cancel()
    expect(http.headers.get('x-cache')).toBe('MISS')
  })

  it('nor reads it, where the HTTP answer of that URL is kept', async () => {
    const url = `${cached.origin}/books?title=harbour`
    const statuses: (string | null)[] = []
    for (let tries = 0; tries < 2; tries++) {
      const http = await fetch(url, { headers: { Accept: 'application/ld+json' } })
      await http.body?.cancel()
      statuses.push(http.headers.get('x-cache'))
    }
    expect(statuses[1]).toBe('HIT')
    const asked = shared.asked.filter((key) => key === url).length
    expect(await searched(cached.client, 'harbour')).toEqual(
      await searched(plain.client, 'harbour')
    )
    expect(shared.asked.filter((key) => key === url).length).toBe(asked)
  })
})

describe('fetch_iri', () => {
  it("reads a page of an extra operation under the collection's path as a page", async () => {
    for (const iri of ['/books/recent', '/books/recent?page=1', '/books/recent?page=2']) {
      const response = await fetch(`${plain.origin}${iri}`, {
        headers: { Accept: 'application/ld+json' },
      })
      const page = (await response.json()) as Json
      const result = await plain.client.callTool({ name: 'fetch_iri', arguments: { iri } })
      expect(result.isError, toolText(result)).toBeFalsy()
      const content = result.structuredContent as { members?: Json[]; nextCursor?: string }
      expect(content.members, iri).toEqual(page['hydra:member'] ?? page.member)
      const view = (page['hydra:view'] ?? page.view) as Json | undefined
      expect(content.nextCursor, iri).toEqual(view?.['hydra:next'] ?? view?.next)
    }
  })
})

/** The answer to `method` with `params` (none: left out), as a 2025 or a 2026-07-28 client sends it. */
async function rpc(method: string, modern: boolean, params?: Json): Promise<Json> {
  const revision = '2026-07-28'
  const meta = {
    'io.modelcontextprotocol/protocolVersion': revision,
    'io.modelcontextprotocol/clientInfo': { name: 'edges test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  }
  // The header naming what the request reads: a resource's URI, a tool's name.
  const named = params?.uri ?? params?.name
  const name = typeof named === 'string' ? { 'Mcp-Name': named } : {}
  const response = await fetch(`${plain.origin}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(modern ? { 'MCP-Protocol-Version': revision, 'Mcp-Method': method, ...name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method,
      ...(params ? { params: modern ? { ...params, _meta: meta } : params } : {}),
    }),
  })
  const text = await response.text()
  // The 2026-07-28 handler may answer as server-sent events: the message is the data line.
  const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text)
  return JSON.parse(data) as Json
}

describe('resources/read', () => {
  for (const modern of [false, true])
    it(`reads a page of an extra operation under the collection's path as a page, in the ${modern ? '2026-07-28' : '2025'} revision, as fetch_iri does`, async () => {
      for (const iri of ['/books/recent', '/books/recent?page=2']) {
        const http = await fetch(`${plain.origin}${iri}`, {
          headers: { Accept: 'application/ld+json' },
        })
        const text = await http.text()
        const answer = await rpc('resources/read', modern, { uri: `${plain.origin}${iri}` })
        const contents = (answer.result as { contents?: { text: string }[] } | undefined)?.contents
        expect(contents?.[0]?.text, JSON.stringify(answer)).toBe(text)
        // fetch_iri in the same revision: the page's members and next link.
        const page = JSON.parse(text) as Json
        const called = await rpc('tools/call', modern, { name: 'fetch_iri', arguments: { iri } })
        const content = (called.result as { structuredContent?: Json } | undefined)
          ?.structuredContent
        expect(content?.members, JSON.stringify(called)).toEqual(page['hydra:member'])
        const view = page['hydra:view'] as Json | undefined
        expect(content?.nextCursor, iri).toEqual(view?.['hydra:next'])
      }
      // As a page, not an item: never unpaged, as no collection's page is.
      const uri = `${plain.origin}/books/recent?pagination=false`
      const refused = await rpc('resources/read', modern, { uri })
      expect(refused.error, JSON.stringify(refused)).toEqual({
        code: -32602,
        message: `${uri} is not the URL of an item or a page of this API.`,
      })
    })
})

describe('read_collection', () => {
  it('reads a cursor-paged collection from a position, as docs/cursor-paging.md reads it', async () => {
    const response = await fetch(`${plain.origin}/activities`, {
      headers: { Accept: 'application/ld+json' },
    })
    const page = (await response.json()) as Json
    const members = (page['hydra:member'] ?? page.member) as Json[]
    const at = members[4] as Json
    const filters = { 'occurredAt[lt]': String(at.occurredAt), 'id[lt]': String(at.id) }
    const result = await plain.client.callTool({
      name: 'read_collection',
      arguments: { collection: '/activities', filters },
    })
    expect(result.isError, toolText(result)).toBeFalsy()
    const read = (result.structuredContent as { members: Json[] }).members
    expect(read.slice(0, members.length - 5)).toEqual(members.slice(5))
    const listed = await plain.client.callTool({ name: 'list_collections', arguments: {} })
    const { collections } = listed.structuredContent as { collections: Json[] }
    const activities = collections.find((collection) => collection.path === '/activities')
    expect(activities?.positions).toEqual(expect.arrayContaining(Object.keys(filters)))
  })
})

describe('a request without params', () => {
  for (const method of ['resources/read', 'tools/call'])
    for (const modern of [false, true])
      it(`${method} is invalid params in the ${modern ? '2026-07-28' : '2025'} revision`, async () => {
        const answer = await rpc(method, modern)
        expect(answer.id).toBe(7)
        expect((answer.error as Json | undefined)?.code, JSON.stringify(answer)).toBe(-32602)
      })
})

describe('cache hints', () => {
  it("stay public with CORS on: Vary's Origin names no caller", async () => {
    for (const iri of ['/books/recent?page=1', '/books/1']) {
      const hintOf = async (served: typeof plain) =>
        (await served.client.callTool({ name: 'fetch_iri', arguments: { iri } }))._meta?.[
          'prisma-hydra/cache'
        ]
      const response = await fetch(`${withCors.origin}${iri}`, {
        headers: { Accept: 'application/ld+json', Origin: 'http://admin.example' },
      })
      expect(response.headers.get('Vary') ?? '', iri).toMatch(/Origin/i)
      const hint = await hintOf(withCors)
      expect(hint, iri).toEqual(await hintOf(plain))
      expect(hint, iri).toMatchObject({ cacheScope: 'public' })
    }
  })

  it('are private where the app knows its callers by their Origin', async () => {
    for (const iri of ['/books/recent?page=1', '/books/1']) {
      const response = await fetch(`${originCallers.origin}${iri}`, {
        headers: { Accept: 'application/ld+json', Origin: 'http://admin.example' },
      })
      await response.body?.cancel()
      expect(response.headers.get('Vary') ?? '', iri).toMatch(/Origin/i)
      const result = await originCallers.client.callTool({ name: 'fetch_iri', arguments: { iri } })
      expect(result.isError, toolText(result)).toBeFalsy()
      expect(result._meta?.['prisma-hydra/cache'], iri).toMatchObject({ cacheScope: 'private' })
    }
  })
})

describe("the SDK server's errors", () => {
  it("go to the app's logger", async () => {
    // Only this request's lines: an earlier test's would answer for it.
    logged.length = 0
    const response = await fetch(`${plain.origin}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-11-25',
      },
      body: '{"jsonrpc": "2.0", ',
    })
    expect(response.status).toBe(400)
    await response.body?.cancel()
    const record = logged.find((line) => line.fields.event === 'mcp.error')
    expect(record, JSON.stringify(logged)).toMatchObject({ level: 'warn' })
    expect(record?.fields.error).toBeInstanceOf(Error)
  })
})

/** Every `type` of `schema` and the schemas inside it. */
function typesOf(schema: unknown): unknown[] {
  if (typeof schema !== 'object' || schema === null) return []
  const own = 'type' in schema ? [(schema as Json).type] : []
  return [...own, ...Object.values(schema).flatMap(typesOf)]
}

describe('the tools’ schemas', () => {
  it('give each schema one type, as single-type dialects read them', async () => {
    const { tools } = await plain.client.listTools()
    for (const tool of tools)
      for (const type of typesOf({ input: tool.inputSchema, output: tool.outputSchema }))
        expect(typeof type, `${tool.name}: ${JSON.stringify(type)}`).toBe('string')
    const read = tools.find((tool) => tool.name === 'read_collection')
    const filters = (read?.inputSchema.properties as Json | undefined)?.filters as Json
    expect(JSON.stringify(filters.additionalProperties)).toContain('"anyOf"')
  })
})
