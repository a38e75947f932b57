/**
 * The MCP endpoint's five tools end to end (docs/mcp.md, "The tools"): the example server with
 * `mcp: hydraMcp()` over real HTTP, spoken to by the MCP SDK's own client. Its `tools/list` holds
 * the same five small tools whatever the API's size; `list_collections` lists every collection the
 * OpenAPI document describes, with its filters in the document's words; `read_collection` walks
 * every collection to its end by `nextCursor`, for each of the example's callers, member for
 * member as the same caller's HTTP walk of `hydra:next` reads them, each result within the
 * budget of characters (the default, and a small one that cuts pages); `search` and `fetch`
 * answer as ChatGPT's connectors read them, with item IRIs; an argument a tool does not know, and
 * a cursor that is no page the API issued, are tool errors naming them. Items and pages are also
 * resources: `resources/read` answers each caller the HTTP body of the same request, byte for byte.
 */

import { readFile } from 'node:fs/promises'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { Hono, type MiddlewareHandler } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { libraryAccess } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { bearer, type Caller, callers, callerTokens } from './support/library-callers.js'
import { toolText, walkPages, walkResults } from './support/mcp-walks.js'

const SECRET = 'mcp tools test secret'

/** A budget small enough to cut the example's pages into several results. */
const SMALL_BUDGET = 6_000
/** The default budget docs/mcp.md states. */
const DEFAULT_BUDGET = 40_000

type Json = Record<string, unknown>

/** A server of the example with the endpoint on, and each caller's client of it. */
interface Served {
  origin: string
  budget: number
  clients: Map<Caller, Client>
  close: () => Promise<void>
}

let prisma: PrismaClient
let database: TestDatabase
const tokens = new Map<Caller, string>()
const servers: Served[] = []

const headersOf = (caller: Caller): Record<string, string> => bearer(tokens.get(caller))

/** The example served with `hydraMcp(options)`, each caller connected by the SDK's client. */
async function serve(options: Parameters<typeof hydraMcp>[0], budget: number): Promise<Served> {
  const app = createApp(prisma, {
    auth: { secret: SECRET, access: libraryAccess },
    mcp: hydraMcp(options),
  })
  const { origin, close } = await startServer(app.fetch)
  const clients = new Map<Caller, Client>()
  for (const caller of callers) {
    const client = new Client({ name: 'prisma-hydra tools test', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
        requestInit: { headers: headersOf(caller) },
      })
    )
    clients.set(caller, client)
  }
  const served = { origin, budget, clients, close }
  servers.push(served)
  return served
}

let main: Served
let small: Served

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  for (const [caller, token] of await callerTokens(SECRET)) tokens.set(caller, token)
  main = await serve({}, DEFAULT_BUDGET)
  small = await serve({ budget: SMALL_BUDGET }, SMALL_BUDGET)
}, 120_000)

afterAll(async () => {
  for (const served of servers) {
    for (const client of served.clients.values()) await client.close()
    await served.close()
  }
  await prisma?.$disconnect()
  await database?.remove()
})

/** GETs `path` over HTTP as `caller`. */
async function http(server: Served, caller: Caller, path: string) {
  const response = await fetch(`${server.origin}${path}`, {
    headers: { Accept: 'application/ld+json', ...headersOf(caller) },
  })
  return { status: response.status, body: (await response.json()) as Json }
}

/** Calls `tool` as `caller`, checking that its text is within the server's budget. */
async function call(server: Served, caller: Caller, tool: string, args: Json = {}) {
  const client = server.clients.get(caller)
  if (!client) throw new Error(`no client for ${caller}`)
  const result = await client.callTool({ name: tool, arguments: args })
  const text = toolText(result)
  expect(text.length, `${tool} ${JSON.stringify(args)}`).toBeLessThanOrEqual(server.budget)
  if (!result.isError) expect(JSON.parse(text)).toEqual(result.structuredContent)
  return result
}

/** Every member of a collection over HTTP, following `hydra:next`; or the refusal. */
const walkHttp = (server: Served, caller: Caller, path: string) =>
  walkPages((next) => http(server, caller, next), path, 200)

/** Every member of a collection by `read_collection`, following `nextCursor`. */
const walkTool = (server: Served, caller: Caller, collection: string) =>
  walkResults((args) => call(server, caller, 'read_collection', args), collection, 400)

/** Every collection `list_collections` lists, following its `nextCursor`. */
async function listCollections(server: Served, caller: Caller): Promise<Json[]> {
  const collections: Json[] = []
  let cursor: string | undefined
  do {
    const result = await call(server, caller, 'list_collections', cursor ? { cursor } : {})
    expect(result.isError, toolText(result)).toBeFalsy()
    const content = result.structuredContent as { collections: Json[]; nextCursor?: string }
    collections.push(...content.collections)
    cursor = content.nextCursor
  } while (cursor !== undefined)
  return collections
}

/** A collection's path with a parent's key: a sub-collection of the parent with id 3. */
const concrete = (path: string) => path.replace('{id}', '3')

describe('tools/list', () => {
  it('holds the same five tools, read-only, in under 20,000 bytes', async () => {
    const client = main.clients.get('anonymous') as Client
    const listed = await client.listTools()
    const bytes = Buffer.byteLength(JSON.stringify(listed))
    expect(bytes).toBeLessThan(20_000)
    expect(listed.tools.length).toBeLessThanOrEqual(10)
    expect(listed.tools.map((tool) => tool.name)).toEqual([
      'list_collections',
      'read_collection',
      'fetch_iri',
      'search',
      'fetch',
    ])
    for (const tool of listed.tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true)
      expect(tool.outputSchema, tool.name).toBeDefined()
    }
  })
})

describe('the budget', () => {
  it('is a whole number of at least 1,000 characters, else refused when the endpoint is made', () => {
    for (const budget of [999, 1_500.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => hydraMcp({ budget }), String(budget)).toThrow(RangeError)
    expect(() => hydraMcp({ budget: 1_000 })).not.toThrow()
  })
})

describe('list_collections', () => {
  it('lists every collection the OpenAPI document describes, its filters in its words', async () => {
    const listed = await listCollections(main, 'anonymous')
    const document = (await http(main, 'anonymous', '/openapi.json')).body
    const paths = document.paths as Record<string, { get: { parameters: Json[] } }>
    // The custom collections the documentation lists (/genres, /releases) are the app's own
    // routes, not the generated API's; every other path not of an item is a collection.
    const collections = Object.keys(paths).filter(
      (path) => !path.endsWith('}') && !/^\/(genres|releases)/.test(path)
    )
    expect(listed.map((entry) => entry.path)).toEqual(collections)
    for (const entry of listed) {
      const parameters = paths[String(entry.path)]?.get.parameters ?? []
      // The list names the filters; the collection in full, by its name, describes them.
      const result = await call(main, 'anonymous', 'list_collections', { collection: entry.name })
      const full = (result.structuredContent as { collection: Json }).collection
      expect(full).toMatchObject({ name: entry.name, path: entry.path, paging: entry.paging })
      expect((full.filters as Json[]).map((filter) => filter.name)).toEqual(entry.filters)
      for (const filter of full.filters as Json[]) {
        const documented = parameters.find(
          (parameter) => parameter.in === 'query' && parameter.name === filter.name
        )
        expect(filter.description, `${entry.path} ${filter.name}`).toBe(documented?.description)
        expect(filter.schema).toEqual(documented?.schema)
      }
    }
    const books = listed.find((entry) => entry.name === 'book')
    expect(books).toMatchObject({ path: '/books', paging: 'pages', search: ['title'] })
    const full = await call(main, 'anonymous', 'list_collections', { collection: '/books' })
    expect((full.structuredContent as { collection: Json }).collection).toMatchObject({
      item: '/books/{id}',
      counted: true,
    })
    expect(books?.order).toEqual(expect.arrayContaining(['title', 'author.name']))
    expect(listed.find((entry) => entry.path === '/activities')?.paging).toBe('cursor')
  })

  it('pages itself within a small budget, every collection once', async () => {
    const all = await listCollections(main, 'anonymous')
    // The example's list is one result of 2,603 characters: a budget of 1,000 pages it.
    const tiny = await serve({ budget: 1_000 }, 1_000)
    const first = await call(tiny, 'anonymous', 'list_collections')
    expect((first.structuredContent as Json).nextCursor).toBeDefined()
    expect(await listCollections(tiny, 'anonymous')).toEqual(all)
  })

  it("is one result within 5,000 characters, a tenth of a client's budget", async () => {
    const result = await call(main, 'librarian', 'list_collections')
    expect(toolText(result).length).toBeLessThanOrEqual(5_000)
    expect((result.structuredContent as Json).nextCursor).toBeUndefined()
  })
})

describe('read_collection', () => {
  for (const budget of ['default', 'small'] as const)
    for (const caller of callers)
      it(`walks every collection to its end as ${caller} reads it over HTTP (${budget} budget)`, async () => {
        const server = budget === 'default' ? main : small
        const listed = await listCollections(server, caller)
        expect(listed.length).toBeGreaterThan(5)
        let cut = false
        for (const { path } of listed) {
          const at = concrete(String(path))
          const [tool, overHttp] = await Promise.all([
            walkTool(server, caller, at),
            walkHttp(server, caller, at),
          ])
          const { calls, ...read } = { calls: 0, ...tool }
          expect(read, at).toEqual(overHttp)
          if (!('members' in tool) || !tool.members) continue
          const ids = tool.members.map((member) => member['@id'])
          expect(new Set(ids).size, at).toBe(ids.length)
          // More results than the API's pages of 50 (at most) has: a page was cut.
          cut ||= calls > Math.ceil(ids.length / 50)
        }
        // The small budget cut at least one page into several results.
        if (budget === 'small') expect(cut).toBe(true)
      }, 120_000)

  it('reads a collection by name, filtered, ordered and reduced, as HTTP does', async () => {
    const result = await call(main, 'librarian', 'read_collection', {
      collection: 'book',
      filters: { title: 'night', 'genre[]': ['HISTORY', 'POETRY'] },
      order: { title: 'desc' },
      properties: ['title', 'author.name'],
    })
    const query =
      '/books?title=night&genre%5B%5D=HISTORY&genre%5B%5D=POETRY&order%5Btitle%5D=desc' +
      '&properties%5B%5D=title&properties%5Bauthor%5D%5B%5D=name'
    expect(result.isError, toolText(result)).toBeFalsy()
    expect(result.structuredContent).toMatchObject({
      members: (await walkHttp(main, 'librarian', query)).members,
    })
    expect((result.structuredContent as Json).totalItems).toBe(
      (await http(main, 'librarian', query)).body['hydra:totalItems']
    )
  })

  it('cuts a page the budget cannot hold: its cursor is the same page from the next member', async () => {
    const result = await call(small, 'anonymous', 'read_collection', { collection: '/books' })
    const content = result.structuredContent as { members: Json[]; nextCursor: string }
    expect(content.nextCursor).toBe(`/books?itemsPerPage=50&page=1#from=${content.members.length}`)
    const rest = await call(small, 'anonymous', 'read_collection', { cursor: content.nextCursor })
    const page = (await http(small, 'anonymous', '/books?itemsPerPage=50')).body['hydra:member']
    expect((rest.structuredContent as { members: Json[] }).members[0]).toEqual(
      (page as Json[])[content.members.length]
    )
  })

  it('cuts no page of the default budget: its cursor is the next page link', async () => {
    const result = await call(main, 'anonymous', 'read_collection', { collection: '/books' })
    const content = result.structuredContent as { members: Json[]; nextCursor: string }
    expect(content.members.length).toBe(50)
    expect(content.nextCursor).toBe('/books?itemsPerPage=50&page=2')
  })
})

describe('search and fetch', () => {
  it('search answers { results: [{ id, title, url }] } of item IRIs, as one text block', async () => {
    const result = await call(main, 'anonymous', 'search', { query: 'Night' })
    expect(result.content).toHaveLength(1)
    const { results } = JSON.parse(toolText(result)) as { results: Json[] }
    expect(results.length).toBeGreaterThan(0)
    expect(results.length).toBeLessThanOrEqual(20)
    for (const found of results) {
      expect(Object.keys(found).sort()).toEqual(['id', 'title', 'url'])
      expect(found.url).toBe(`${main.origin}${found.id}`)
      const { status, body } = await http(main, 'anonymous', String(found.id))
      expect(status).toBe(200)
      expect(body['@id']).toBe(found.id)
      expect(String(found.title).toLowerCase()).toContain('night')
    }
  })

  it('fetch answers { id, title, text, url, metadata } of an item as its caller reads it', async () => {
    for (const caller of callers) {
      const result = await call(main, caller, 'fetch', { id: '/books/1' })
      expect(result.content).toHaveLength(1)
      const document = JSON.parse(toolText(result)) as Json
      expect(Object.keys(document).sort()).toEqual(['id', 'metadata', 'text', 'title', 'url'])
      const { body } = await http(main, caller, '/books/1')
      expect(document).toMatchObject({
        id: '/books/1',
        title: body.title,
        url: `${main.origin}/books/1`,
        metadata: { type: 'Book' },
      })
      expect(JSON.parse(String(document.text))).toEqual(body)
    }
    const url = await call(main, 'anonymous', 'fetch', { id: `${main.origin}/books/2` })
    expect((url.structuredContent as Json).id).toBe('/books/2')
    const loan = await call(main, 'anonymous', 'fetch', { id: '/loans/3' })
    expect(loan.isError).toBe(true)
    expect(toolText(loan)).toMatch(/^401 /)
    // An extra operation's path matches the item template `/books/{id}`: a page, never an item.
    const extra = await call(main, 'anonymous', 'fetch', { id: '/books/recent' })
    expect(extra.isError).toBe(true)
    expect(toolText(extra)).toBe('/books/recent is not the IRI of an item of this API.')
  })

  it('fetch_iri reads an item or a page by its IRI', async () => {
    const item = await call(main, 'reader', 'fetch_iri', { iri: '/loans/3' })
    expect(item.structuredContent).toEqual((await http(main, 'reader', '/loans/3')).body)
    const page = await call(main, 'anonymous', 'fetch_iri', { iri: '/authors/3/books?page=2' })
    const overHttp = (await http(main, 'anonymous', '/authors/3/books?page=2')).body
    expect((page.structuredContent as Json).members).toEqual(overHttp['hydra:member'])
  })
})

describe('a refused argument', () => {
  it('an argument a tool does not know is a tool error naming it', async () => {
    const refusals: [string, Json, RegExp][] = [
      ['read_collection', { collection: 'book', filter: { title: 'x' } }, /no argument filter/],
      ['read_collection', { collection: 'book', filters: { titel: 'x' } }, /no filter titel/],
      ['read_collection', { collection: 'book', order: { colour: 'asc' } }, /ordered by colour/],
      ['read_collection', { collection: 'book', properties: ['colour'] }, /property colour/],
      ['read_collection', { collection: 'book', filters: { page: 3 } }, /no filter page/],
      ['list_collections', { verbose: true }, /no argument verbose/],
      ['fetch_iri', { iri: '/books/1', id: 2 }, /no argument id/],
      ['search', { query: 'night', limit: 3 }, /no argument limit/],
      ['fetch', { id: '/books/1', format: 'text' }, /no argument format/],
    ]
    for (const [tool, args, pattern] of refusals) {
      const result = await call(main, 'anonymous', tool, args)
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true)
      expect(toolText(result)).toMatch(pattern)
    }
  })

  it('answers the refusals docs/mcp.md quotes, each as it is written there', async () => {
    const page = await readFile(new URL('../../docs/mcp.md', import.meta.url), 'utf8')
    const texts = [
      toolText(
        await call(main, 'anonymous', 'read_collection', { collection: 'book', filter: {} })
      ),
      toolText(
        await call(main, 'anonymous', 'read_collection', {
          collection: 'book',
          filters: { titel: 'night' },
        })
      ),
      toolText(
        await call(main, 'anonymous', 'read_collection', { cursor: '/loans?pagination=false' })
      ),
    ]
    expect(texts.filter((text) => !page.includes(`\`${text}\``))).toEqual([])
  })

  it('a cursor that is no page the API issued for a paged read is refused', async () => {
    const foreign = [
      '/books?pagination=false',
      '/loans?pagination=false',
      '/books/3/loans?pagination=false&page=1',
      '/books/1',
      '/docs.jsonld',
      'https://example.com/books?page=2',
      '/books?page=2#from=x',
      '//example.com/books',
      7,
    ]
    for (const cursor of foreign) {
      const result = await call(main, 'librarian', 'read_collection', { cursor })
      expect(result.isError, String(cursor)).toBe(true)
      expect(toolText(result)).toMatch(/not a page of a collection/)
    }
    const other = await call(main, 'librarian', 'read_collection', {
      collection: 'author',
      cursor: '/books?page=2',
    })
    expect(toolText(other)).toMatch(/not a page of a collection/)
    const unpaged = await call(main, 'librarian', 'fetch_iri', { iri: '/loans?pagination=false' })
    expect(unpaged.isError).toBe(true)
    expect(toolText(unpaged)).toMatch(/not the IRI of an item or a page/)
  })
})

describe('resources', () => {
  it('lists the top-level collections, and the IRI templates of items and sub-collections', async () => {
    const client = main.clients.get('anonymous') as Client
    const { resources } = await client.listResources()
    const listed = await listCollections(main, 'anonymous')
    const topLevel = listed.map((entry) => String(entry.path)).filter((path) => !path.includes('{'))
    expect(resources.map((resource) => resource.uri)).toEqual(
      topLevel.map((path) => `${main.origin}${path}`)
    )
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(
      expect.arrayContaining([`${main.origin}/books/{id}`, `${main.origin}/authors/{id}/books`])
    )
  })

  it("reads an item or a page as the caller's HTTP request reads it, byte for byte", async () => {
    const paths = ['/books/1', '/loans/3', '/loans/4', '/loans?page=1', '/authors/3/books?page=2']
    for (const caller of callers)
      for (const path of paths) {
        const client = main.clients.get(caller) as Client
        const response = await fetch(`${main.origin}${path}`, {
          headers: { Accept: 'application/ld+json', ...headersOf(caller) },
        })
        const text = await response.text()
        const read = client.readResource({ uri: `${main.origin}${path}` })
        if (response.ok) {
          const { contents } = await read
          expect(contents, `${caller} ${path}`).toEqual([
            { uri: `${main.origin}${path}`, mimeType: 'application/ld+json', text },
          ])
        } else {
          const { title, detail } = JSON.parse(text) as Json
          await expect(read, `${caller} ${path}`).rejects.toThrow(
            `${response.status} ${title}: ${detail}`
          )
        }
      }
  })

  it('refuses a URI that is no item or page of the API, or turns paging off', async () => {
    const client = main.clients.get('librarian') as Client
    for (const uri of [
      `${main.origin}/loans?pagination=false`,
      `${main.origin}/docs.jsonld`,
      'https://example.com/books/1',
    ])
      await expect(client.readResource({ uri }), uri).rejects.toThrow(/not .*of this API/)
    // The error's message on the wire is the text docs/mcp.md quotes (the client's McpError
    // prefixes it with the code once).
    const unpaged = `${main.origin}/loans?pagination=false`
    await expect(client.readResource({ uri: unpaged })).rejects.toMatchObject({
      code: -32602,
      message: `MCP error -32602: ${unpaged} is not the URL of an item or a page of this API.`,
    })
    const docs = await readFile(new URL('../../docs/mcp.md', import.meta.url), 'utf8')
    expect(docs).toContain(
      '`http://localhost:3000/loans?pagination=false is not the URL of an item or a page of this API.`'
    )
  })
})

/**
 * The cache hint HTTP's headers give an answer: `private` where `Cache-Control` says so or `Vary`
 * names a header the caller is known by; reused for `s-maxage` (public) or `max-age`, never where
 * it is `no-store` or `no-cache`.
 */
function hintOf(response: Response) {
  const control = (response.headers.get('Cache-Control') ?? '').toLowerCase()
  const vary = (response.headers.get('Vary') ?? '').toLowerCase()
  const cacheScope =
    /\bprivate\b/.test(control) || /authorization|cookie/.test(vary) ? 'private' : 'public'
  if (/no-store|no-cache/.test(control)) return { ttlMs: 0, cacheScope }
  const shared = cacheScope === 'public' ? /s-maxage=(\d+)/.exec(control) : null
  const age = shared ?? /(?:^|[ ,])max-age=(\d+)/.exec(control)
  return { ttlMs: age ? Number(age[1]) * 1000 : 0, cacheScope }
}

describe('cache hints', () => {
  it("give resources and tool results the hint of the caller's HTTP answer", async () => {
    const languages = (await http(main, 'anonymous', '/languages')).body
    const language = ((languages['hydra:member'] ?? languages.member) as Json[])[0]?.['@id']
    const paths = [
      '/books/1',
      '/books?page=1',
      '/books/recent?page=1',
      String(language),
      '/loans/3',
      '/loans?page=1',
      '/authors/3/books?page=1',
    ]
    const hints = new Set<string>()
    for (const caller of callers)
      for (const path of paths) {
        const response = await fetch(`${main.origin}${path}`, {
          headers: { Accept: 'application/ld+json', ...headersOf(caller) },
        })
        if (!response.ok) continue
        const hint = hintOf(response)
        hints.add(JSON.stringify(hint))
        const client = main.clients.get(caller) as Client
        const read = await client.readResource({ uri: `${main.origin}${path}` })
        expect(read._meta?.['prisma-hydra/cache'], `${caller} ${path}`).toEqual(hint)
        const fetched = await call(main, caller, 'fetch_iri', { iri: path })
        expect(fetched._meta?.['prisma-hydra/cache'], `${caller} fetch_iri ${path}`).toEqual(hint)
      }
    // The caller's own answers, a shared one reused for a while, and one never reused.
    expect(hints).toContain(JSON.stringify({ ttlMs: 0, cacheScope: 'private' }))
    expect([...hints].some((hint) => /"ttlMs":[1-9].*"public"/.test(hint))).toBe(true)
  })
})

describe('timings', () => {
  type Timing = { name: string; dur?: number; desc?: string }
  /** A `Server-Timing` header's metrics, names and descriptions (durations differ by request). */
  const metricsOf = (header: string | null) =>
    (header ?? '')
      .split(/,\s*/)
      .filter((metric) => metric !== '')
      .map((metric) => {
        const [name, ...params] = metric.split(';')
        const desc = params.find((param) => param.startsWith('desc='))?.slice(5)
        return { name, ...(desc ? { desc: desc.replace(/^"|"$/g, '') } : {}) }
      })
  /** A tool result's timings as `metricsOf` writes them, each `dur` a duration when given. */
  const timingsOf = (result: Awaited<ReturnType<typeof call>>) => {
    const timings = result._meta?.['prisma-hydra/timing'] as Timing[] | undefined
    for (const timing of timings ?? [])
      if (timing.name !== 'handoff') expect(timing.dur).toBeGreaterThanOrEqual(0)
    return timings?.map(({ name, desc }) => ({ name, ...(desc ? { desc } : {}) }))
  }
  /** Each tool call, and the HTTP request it makes. */
  const reads: [tool: string, args: Json, path: string][] = [
    ['read_collection', { collection: 'book' }, '/books?itemsPerPage=50'],
    ['read_collection', { collection: '/authors/3/books' }, '/authors/3/books?itemsPerPage=50'],
    ['fetch_iri', { iri: '/books/1' }, '/books/1'],
    ['fetch', { id: '/books/1' }, '/books/1'],
  ]

  /** Each read's timings by the tool and by HTTP, on `server` as `caller`. */
  async function compare(server: Served, caller: Caller) {
    for (const [tool, args, path] of reads) {
      const response = await fetch(`${server.origin}${path}`, {
        headers: { Accept: 'application/ld+json', ...headersOf(caller) },
      })
      expect(response.status, path).toBe(200)
      await response.arrayBuffer()
      const expected = metricsOf(response.headers.get('Server-Timing'))
      expect(expected.length, path).toBeGreaterThan(0)
      expect(timingsOf(await call(server, caller, tool, args)), `${tool} ${path}`).toEqual(expected)
    }
  }

  it("give each tool result the Server-Timing of the caller's HTTP answer", async () => {
    for (const caller of callers) await compare(main, caller)
  })

  it('say where the compiled engine handed a read to Prisma', async () => {
    // A scope of books the compiled engine cannot write (`notIn`): every read of books handed over.
    const access = { ...libraryAccess, Book: { scope: () => ({ id: { notIn: [4] } }) } }
    const app = createApp(prisma, {
      engine: 'compiled',
      auth: { secret: SECRET, access },
      mcp: hydraMcp(),
    })
    const { origin, close } = await startServer(app.fetch)
    const client = new Client({ name: 'prisma-hydra tools test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)))
    const served = {
      origin,
      budget: DEFAULT_BUDGET,
      clients: new Map([['anonymous' as Caller, client]]),
      close,
    }
    try {
      await compare(served, 'anonymous')
      const result = await call(served, 'anonymous', 'fetch_iri', { iri: '/books/1' })
      expect(timingsOf(result)).toContainEqual({ name: 'handoff', desc: 'query' })
    } finally {
      await client.close()
      await close()
    }
  })
})

describe('the app the API is mounted in', () => {
  // Given as hydraMcp's `app`, or found by default from createHydraServer (startServer's server),
  // which records the app it serves in each request's bindings.
  it.each([
    ['given as hydraMcp({ app })', (outer: Hono) => hydraMcp({ app: () => outer })],
    ['found by default under createHydraServer', () => hydraMcp()],
  ])(
    "meets its middleware on the API's paths, as the caller's HTTP requests do: %s",
    async (_, mcpOf) => {
      // A guard of the outer app's own on /api/loans, which no access rule of the API knows.
      const staffOnly: MiddlewareHandler = async (c) =>
        c.json({ title: 'Forbidden', detail: 'Staff only.' }, 403)
      const outer = new Hono()
      outer.use('/api/loans', staffOnly)
      outer.use('/api/loans/*', staffOnly)
      const mcp = mcpOf(outer)
      outer.route(
        '/api',
        createApp(prisma, { auth: { secret: SECRET, access: libraryAccess }, mcp })
      )
      const { origin, close } = await startServer(outer.fetch)
      const client = new Client({ name: 'outer app test', version: '1.0.0' })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), {
          requestInit: { headers: headersOf('librarian') },
        })
      )
      try {
        const overHttp = await fetch(`${origin}/api/loans/3`, { headers: headersOf('librarian') })
        expect(overHttp.status).toBe(403)
        for (const [tool, args] of [
          ['read_collection', { collection: 'loan' }],
          ['fetch_iri', { iri: '/api/loans/3' }],
          ['fetch', { id: '/api/loans/3' }],
        ] as const) {
          const result = await client.callTool({ name: tool, arguments: args })
          expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true)
          expect(toolText(result)).toBe('403 Forbidden: Staff only.')
        }
        await expect(client.readResource({ uri: `${origin}/api/loans/3` })).rejects.toThrow(
          '403 Forbidden: Staff only.'
        )
        // Other paths are the API's, read for the caller as before.
        const books = await client.callTool({
          name: 'read_collection',
          arguments: { collection: 'book' },
        })
        const page = await fetch(`${origin}/api/books?itemsPerPage=50`, {
          headers: { Accept: 'application/ld+json', ...headersOf('librarian') },
        })
        expect((books.structuredContent as Json).members).toEqual(
          ((await page.json()) as Json)['hydra:member']
        )
        // A sub-collection by its path under the mount, and its loans, which the guard leaves.
        const loans = await client.callTool({
          name: 'read_collection',
          arguments: { collection: '/api/books/3/loans' },
        })
        const subPage = await fetch(`${origin}/api/books/3/loans?itemsPerPage=50`, {
          headers: { Accept: 'application/ld+json', ...headersOf('librarian') },
        })
        expect(subPage.status).toBe(200)
        expect(((loans.structuredContent as Json).members as Json[]).length).toBeGreaterThan(0)
        expect((loans.structuredContent as Json).members).toEqual(
          ((await subPage.json()) as Json)['hydra:member']
        )
      } finally {
        await client.close()
        await close()
      }
    }
  )

  it("goes through the API's own routes alone under a server that does not record the app", async () => {
    const staffOnly: MiddlewareHandler = async (c) =>
      c.json({ title: 'Forbidden', detail: 'Staff only.' }, 403)
    const outer = new Hono()
    outer.use('/api/loans/*', staffOnly)
    const mcp = hydraMcp()
    outer.route('/api', createApp(prisma, { auth: { secret: SECRET, access: libraryAccess }, mcp }))
    // Hono's own fetch, as Bun, Deno and Workers call it: docs/mcp.md says to give the app there.
    const call = await outer.request('/api/mcp', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...headersOf('librarian'),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'fetch_iri', arguments: { iri: '/api/loans/3' } },
      }),
    })
    const { result } = (await call.json()) as { result: { isError?: boolean } & Json }
    expect(result.isError).toBeUndefined()
    expect((result.structuredContent as Json)['@id']).toBe('/api/loans/3')
  })
})
