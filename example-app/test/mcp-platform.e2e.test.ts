/**
 * The MCP endpoint on an app of more than 100 models: the `platform` fixture (125 models, every
 * paging mode, docs/mcp.md "Tested") served with `mcp: hydraMcp()` over real HTTP. Its
 * `tools/list` holds the five tools in under 20,000 bytes (the tools per operation, hundreds, only
 * when asked for); `list_collections` lists every collection compactly, each result within a
 * tenth of a client's budget (5,000 characters), and each top-level one in full by its name; the
 * MCP SDK's client walks every collection `list_collections` lists, top-level
 * and sub-collections (under their parent's first seeded row), to its end by `nextCursor`, under a
 * small budget that cuts pages: every result's text within the budget, and each walk the same
 * members, in the same order, with none twice, as the same caller's HTTP walk of `hydra:next`,
 * and every row of a top-level collection's table; `search` and `fetch` read across the models as
 * HTTP does. The MCP Inspector's command line lists the tools and walks three of those collections
 * alike.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as platform from '#fixtures/platform/hydra/index.js'
import { PrismaClient } from '#fixtures/platform/prisma/client.js'
import { createAdapter, freshDatabase } from './support/harness.js'
import { inspectorCall, serveWithClient, resultText as textOf } from './support/mcp-servers.js'
import { type Seeded, seedPlatform } from './support/platform-seed.js'

const SCHEMA = new URL('./fixtures/platform/schema.prisma', import.meta.url).pathname
const BUDGET = 4_000
const TOOLS = ['list_collections', 'read_collection', 'fetch_iri', 'search', 'fetch']

type Json = Record<string, unknown>
/** A walk by `read_collection`: its members, its number of results, those the budget cut. */
type Walk = { members: Json[]; results: number; cut: number }

let prisma: PrismaClient
let remove: () => Promise<void>
let seeded: Seeded
const closers: (() => Promise<void>)[] = []

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  seeded = await seedPlatform(prisma)
}, 180_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await remove?.()
})

/** The fixture served with `hydraMcp(options)`: its origin and the SDK's client of its endpoint. */
async function serve(options: Parameters<typeof hydraMcp>[0]) {
  const app = platform.createHydraApp({ prisma, mcp: hydraMcp(options) })
  const served = await serveWithClient(app.fetch, 'mcp platform test')
  closers.push(served.close)
  return served
}

/** Every member of `path` over HTTP, following `hydra:next`, and the first page's total. */
async function walkHttp(origin: string, path: string) {
  const members: Json[] = []
  let total: number | undefined
  let link: string | undefined = path
  while (link !== undefined) {
    const response = await fetch(`${origin}${link}`)
    expect(response.status, link).toBe(200)
    const body = (await response.json()) as Json
    members.push(...(body['hydra:member'] as Json[]))
    total ??= body['hydra:totalItems'] as number | undefined
    link = (body['hydra:view'] as Json | undefined)?.['hydra:next'] as string | undefined
    expect(members.length, path).toBeLessThan(100)
  }
  return { members, total }
}

/** Walks of the same collection, by MCP and by HTTP: equal, no member twice, the total's count. */
async function expectSameWalk(origin: string, path: string, walked: Walk) {
  const overHttp = await walkHttp(origin, path)
  expect(walked.members, path).toEqual(overHttp.members)
  const ids = walked.members.map((member) => member['@id'])
  expect(new Set(ids).size, `${path}: a member twice`).toBe(ids.length)
  if (overHttp.total !== undefined) expect(ids.length, path).toBe(overHttp.total)
}

/** A parameter of the OpenAPI document as `list_collections` describes a filter. */
const pick = (parameter: Json | undefined) => ({
  name: parameter?.name,
  description: parameter?.description,
  schema: parameter?.schema,
})

describe('an app of 125 models', () => {
  let origin: string
  let client: Client
  const walks = new Map<string, Walk>()

  beforeAll(async () => {
    ;({ origin, client } = await serve({ budget: BUDGET }))
  })

  /** A tool's structured result, its text within the budget, not a tool error. */
  const call = async (name: string, args: Json) => {
    const result = await client.callTool({ name, arguments: args })
    expect(textOf(result).length, `${name} ${JSON.stringify(args)}`).toBeLessThanOrEqual(BUDGET)
    expect(result.isError, textOf(result)).toBeFalsy()
    return result.structuredContent as Json
  }
  /** Every member of `collection` by `read_collection`, following `nextCursor`. */
  const walk = async (collection: string): Promise<Walk> => {
    const members: Json[] = []
    let next: string | undefined
    let results = 0
    let cut = 0
    do {
      const page = await call('read_collection', next ? { cursor: next } : { collection })
      members.push(...(page.members as Json[]))
      next = page.nextCursor as string | undefined
      results++
      // A result that ends mid-page, its cursor the same page from the next member.
      if (next?.includes('#from=')) cut++
      expect(results, collection).toBeLessThan(50)
    } while (next !== undefined)
    return { members, results, cut }
  }

  it('lists five tools in under 20,000 bytes; the tools per operation only when asked', async () => {
    const listed = await (await serve({})).client.listTools()
    expect(listed.tools.map((tool) => tool.name)).toEqual(TOOLS)
    expect(listed.tools.length).toBeLessThanOrEqual(10)
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThan(20_000)
    const served = await serve({ operationTools: true })
    const perOperation = await served.client.listTools()
    expect(perOperation.tools.slice(0, 5).map((tool) => tool.name)).toEqual(TOOLS)
    // After them, one tool per GET operation of the OpenAPI document: the 125 models' collections
    // and items, and their sub-collections, hundreds in all.
    const document = (await (await fetch(`${served.origin}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { operationId: string } }>
    }
    const operations = Object.values(document.paths).flatMap((path) => path.get ?? [])
    expect(operations.length).toBeGreaterThan(400)
    expect(perOperation.tools.slice(5).map((tool) => tool.name)).toEqual(
      operations.map((operation) => operation.operationId)
    )
  })

  it('lists every collection compactly, each result within a tenth of a client budget', async () => {
    // The default budget, 40,000: the list holds itself to 5,000 characters, a tenth of the
    // 50,000 past which Claude Code writes a result to a file (docs/mcp.md).
    const served = await serve({})
    const texts: number[] = []
    const collections: Json[] = []
    let cursor: string | undefined
    do {
      const result = await served.client.callTool({
        name: 'list_collections',
        arguments: cursor ? { cursor } : {},
      })
      expect(result.isError, textOf(result)).toBeFalsy()
      texts.push(textOf(result).length)
      const page = result.structuredContent as { collections: Json[]; nextCursor?: string }
      collections.push(...page.collections)
      cursor = page.nextCursor
      expect(texts.length).toBeLessThan(100)
    } while (cursor !== undefined)
    for (const length of texts) expect(length).toBeLessThanOrEqual(5_000)
    const document = (await (await fetch(`${served.origin}/openapi.json`)).json()) as {
      paths: Record<string, { get: { parameters: Json[] } }>
    }
    expect(collections.map((entry) => entry.path)).toEqual(
      Object.keys(document.paths).filter((path) => !/\/\{[^/]*\}$/.test(path))
    )
    // Each in full by its name: its filters in the document's words, those the list names.
    for (const entry of collections.filter((listed) => !String(listed.path).includes('{'))) {
      const result = await served.client.callTool({
        name: 'list_collections',
        arguments: { collection: entry.name },
      })
      const full = (result.structuredContent as { collection: Json }).collection
      expect(full.path).toBe(entry.path)
      const parameters = document.paths[String(entry.path)]?.get.parameters ?? []
      const filters = full.filters as Json[]
      expect(filters.map((filter) => filter.name)).toEqual(entry.filters)
      for (const filter of filters)
        expect(filter, `${entry.path} ${filter.name}`).toEqual(
          pick(parameters.find((parameter) => parameter.name === filter.name))
        )
    }
  }, 120_000)

  it('walks every collection to its end by cursor within the budget, as HTTP does', async () => {
    const collections: Json[] = []
    let cursor: string | undefined
    let lists = 0
    do {
      const page = await call('list_collections', cursor ? { cursor } : {})
      collections.push(...(page.collections as Json[]))
      cursor = page.nextCursor as string | undefined
      lists++
    } while (cursor !== undefined)
    // Every collection path of the OpenAPI document (a path not ending in an item's key), once,
    // in its order.
    const document = (await (await fetch(`${origin}/openapi.json`)).json()) as Json
    const paths = collections.map((entry) => String(entry.path))
    expect(paths).toEqual(
      Object.keys(document.paths as Json).filter((path) => !/\/\{[^/]*\}$/.test(path))
    )
    const topLevel = paths.filter((path) => !path.includes('{'))
    const nested = paths.filter((path) => path.includes('{'))
    expect(topLevel.length).toBe(125)
    expect(nested.length).toBeGreaterThan(100)
    expect(lists).toBeGreaterThan(1)

    for (const path of topLevel) {
      const walked = await walk(path)
      await expectSameWalk(origin, path, walked)
      // Every row of the model's table: the walks are checked against the data, not only
      // against each other.
      const type = String(walked.members[0]?.['@type'])
      expect(walked.members.length, path).toBe(seeded.get(type)?.rows)
      walks.set(path, walked)
    }
    const items = [...walks.values()].flatMap((walked) => walked.members)
    for (const path of nested) {
      // The parent's first seeded row, which half of its children hang under.
      const parentPath = path.slice(0, path.indexOf('/{'))
      const parent = items.find(
        (item) =>
          String(item['@id']).startsWith(`${parentPath}/`) &&
          !String(item['@id'])
            .slice(parentPath.length + 1)
            .includes('/') &&
          item.id === seeded.get(String(item['@type']))?.keys[0]
      )
      expect(parent, path).toBeDefined()
      const concrete = `${parent?.['@id']}${path.slice(path.indexOf('}') + 1)}`
      const walked = await walk(concrete)
      await expectSameWalk(origin, concrete, walked)
      walks.set(concrete, walked)
    }
    // The budget cut pages, and every sub-collection walked held members.
    expect([...walks.values()].filter((walked) => walked.cut > 0).length).toBeGreaterThan(5)
    const underParents = [...walks.entries()].filter(([path]) => path.split('/').length > 3)
    expect(underParents.length).toBe(nested.length)
    expect(underParents.filter(([, walked]) => walked.members.length === 0)).toEqual([])
  }, 120_000)

  it('searches across the collections and fetches what it found, as HTTP reads it', async () => {
    // `title` is in the title of each seeded row of the models with a `title` text filter.
    const { results } = (await call('search', { query: 'title' })) as { results: Json[] }
    const collections = new Set(results.map((result) => String(result.id).split('/')[1]))
    expect(collections.size).toBeGreaterThan(3)
    for (const result of results) {
      expect(result.url).toBe(`${origin}${result.id}`)
      expect(String(result.title)).toContain('title')
      const fetched = await call('fetch', { id: result.id })
      const overHttp = await (await fetch(`${origin}${result.id}`)).json()
      expect(JSON.parse(String(fetched.text)), String(result.id)).toEqual(overHttp)
    }
  })

  // Each Inspector call is a process of its own, started from Node and its modules (one to two
  // seconds on a loaded machine), so this lists the tools and walks three collections (at most
  // 14 calls), each of a kind of its own, rather than all of them, which the SDK's walk above does:
  // /customers, uuid keys, cut by the budget into several results; /stock-movements, keyset paged
  // on two fields; a sub-collection under a natural text key.
  it('is listed and walked alike by the MCP Inspector CLI', async () => {
    let calls = 0
    const inspect = async (method: string, ...rest: string[]): Promise<Json> => {
      calls++
      expect(calls, 'Inspector calls').toBeLessThanOrEqual(14)
      return inspectorCall(`${origin}/mcp`, method, rest)
    }
    const walkByInspector = async (collection: string): Promise<Walk> => {
      const members: Json[] = []
      let cursor: string | undefined
      let results = 0
      let cut = 0
      do {
        const argument = cursor === undefined ? `collection=${collection}` : `cursor=${cursor}`
        const result = await inspect(
          'tools/call',
          '--tool-name',
          'read_collection',
          '--tool-arg',
          argument
        )
        expect(result.isError, JSON.stringify(result)).toBeFalsy()
        expect(textOf(result).length, argument).toBeLessThanOrEqual(BUDGET)
        const content = result.structuredContent as { members: Json[]; nextCursor?: string }
        members.push(...content.members)
        cursor = content.nextCursor
        if (cursor?.includes('#from=')) cut++
        results++
      } while (cursor !== undefined)
      return { members, results, cut }
    }

    const listed = await inspect('tools/list')
    expect((listed.tools as Json[]).map((tool) => tool.name)).toEqual(TOOLS)
    const [customers, movements, nested] = await Promise.all([
      walkByInspector('/customers'),
      walkByInspector('/stock-movements'),
      walkByInspector('/countries/COU-0/customers'),
    ])
    await expectSameWalk(origin, '/customers', customers)
    await expectSameWalk(origin, '/stock-movements', movements)
    await expectSameWalk(origin, '/countries/COU-0/customers', nested)
    expect(customers.cut).toBeGreaterThan(0)
    expect(movements.results).toBeGreaterThan(1)
    expect(nested.members.length).toBeGreaterThan(1)
  }, 120_000)
})
