/**
 * The MCP endpoint on a larger schema: the `saas` fixture (41 models, docs/mcp.md "Tested")
 * served with `mcp: hydraMcp()` over real HTTP and spoken to by the MCP SDK's client. Its
 * `tools/list` is the same five tools, in under 20,000 bytes, where the tools per operation would
 * be many more; `list_collections` pages every collection within the budget; `read_collection`
 * walks every top-level collection to its end by `nextCursor`, member for member as the HTTP walk
 * of `hydra:next` reads it, under a small budget that cuts pages.
 */
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import * as saas from '#fixtures/saas/hydra/index.js'
import { PrismaClient } from '#fixtures/saas/prisma/client.js'
import { createAdapter, freshDatabase } from './support/harness.js'
import { serveWithClient, resultText as textOf } from './support/mcp-servers.js'
import { seedSaas } from './support/saas-seed.js'

const SCHEMA = new URL('./fixtures/saas/schema.prisma', import.meta.url).pathname
const BUDGET = 4_000

type Json = Record<string, unknown>

let prisma: PrismaClient
let remove: () => Promise<void>
const closers: (() => Promise<void>)[] = []

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await seedSaas(prisma)
}, 180_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await remove?.()
})

/** The fixture served with `hydraMcp(options)`: its origin and the SDK's client of its endpoint. */
async function serve(options: Parameters<typeof hydraMcp>[0]) {
  const app = saas.createHydraApp({ prisma, mcp: hydraMcp(options) })
  const served = await serveWithClient(app.fetch, 'mcp saas test')
  closers.push(served.close)
  return served
}

it('lists five tools in under 20,000 bytes, where the tools per operation are many', async () => {
  const { client } = await serve({})
  const listed = await client.listTools()
  expect(listed.tools.map((tool) => tool.name)).toEqual([
    'list_collections',
    'read_collection',
    'fetch_iri',
    'search',
    'fetch',
  ])
  expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThan(20_000)
  const perOperation = await (await serve({ operationTools: true })).client.listTools()
  expect(perOperation.tools.length).toBeGreaterThan(100)
})

it('walks every collection to its end by cursor within the budget, as HTTP does', async () => {
  const { origin, client } = await serve({ budget: BUDGET })
  const call = async (name: string, args: Json) => {
    const result = await client.callTool({ name, arguments: args })
    expect(textOf(result).length, `${name} ${JSON.stringify(args)}`).toBeLessThanOrEqual(BUDGET)
    expect(result.isError, textOf(result)).toBeFalsy()
    return result.structuredContent as Json
  }
  const collections: Json[] = []
  let cursor: string | undefined
  let lists = 0
  do {
    const page = await call('list_collections', cursor ? { cursor } : {})
    collections.push(...(page.collections as Json[]))
    cursor = page.nextCursor as string | undefined
    lists++
  } while (cursor !== undefined)
  expect(lists).toBeGreaterThan(1)
  const topLevel = collections.map((entry) => String(entry.path)).filter((p) => !p.includes('{'))
  expect(topLevel.length).toBeGreaterThan(30)
  let cut = false
  for (const path of topLevel) {
    const tool: Json[] = []
    let next: string | undefined
    let calls = 0
    do {
      const page = await call('read_collection', next ? { cursor: next } : { collection: path })
      tool.push(...(page.members as Json[]))
      next = page.nextCursor as string | undefined
      calls++
    } while (next !== undefined)
    const overHttp: Json[] = []
    let link: string | undefined = path
    while (link !== undefined) {
      const response = await fetch(`${origin}${link}`)
      expect(response.status, link).toBe(200)
      const body = (await response.json()) as Json
      overHttp.push(...((body['hydra:member'] ?? body.member) as Json[]))
      const view = (body['hydra:view'] ?? body.view) as Json | undefined
      link = (view?.['hydra:next'] ?? view?.next) as string | undefined
    }
    expect(tool, path).toEqual(overHttp)
    cut ||= calls > 1 && calls > Math.ceil(tool.length / 50)
  }
  expect(cut).toBe(true)
}, 300_000)
