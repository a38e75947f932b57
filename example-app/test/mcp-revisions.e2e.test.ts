/**
 * The MCP endpoint for clients of both protocol revisions the official SDKs speak (docs/mcp.md,
 * "The protocol"): the example server with `mcp: hydraMcp()` over real HTTP, spoken to by the v2
 * SDK's client (`@modelcontextprotocol/client`, the 2026-07-28 revision: stateless requests, no
 * `initialize`) and by the v1 SDK's (`@modelcontextprotocol/sdk`, the 2025-11-25 revision), as
 * the anonymous caller, a reader and a librarian. Both list the same tools, walk the same
 * collections to their end member for member as the caller's HTTP walk of `hydra:next`, and read
 * the same resources; the 2026-07-28 client reads a resource's cache hint in the revision's own
 * fields (`ttlMs`, `cacheScope`), the hint the 2025 result carries in its `_meta`
 * (mcp-tools.e2e.test.ts holds that one to the caller's HTTP `Cache-Control`).
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { libraryAccess } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { bearer, type Caller, callers, callerTokens } from './support/library-callers.js'
import { walkPages, walkResults } from './support/mcp-walks.js'

const SECRET = 'mcp revisions test secret'

type Json = Record<string, unknown>

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let close: () => Promise<void>
const tokens = new Map<Caller, string>()
const modern = new Map<Caller, ModernClient>()
const legacy = new Map<Caller, Client>()

const headersOf = (caller: Caller): Record<string, string> => bearer(tokens.get(caller))

const clientOf = <T>(clients: Map<Caller, T>, caller: Caller): T => {
  const client = clients.get(caller)
  if (!client) throw new Error(`no client for ${caller}`)
  return client
}

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  for (const [caller, token] of await callerTokens(SECRET)) tokens.set(caller, token)
  const app = createApp(prisma, {
    auth: { secret: SECRET, access: libraryAccess },
    mcp: hydraMcp(),
  })
  ;({ origin, close } = await startServer(app.fetch))
  const url = new URL(`${origin}/mcp`)
  for (const caller of callers) {
    const requestInit = { headers: headersOf(caller) }
    // `auto`: the client probes with `server/discover`, and speaks 2026-07-28 where it is served.
    const client = new ModernClient(
      { name: 'prisma-hydra revisions test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } }
    )
    await client.connect(new ModernTransport(url, { requestInit }))
    modern.set(caller, client)
    const older = new Client({ name: 'prisma-hydra revisions test', version: '1.0.0' })
    await older.connect(new StreamableHTTPClientTransport(url, { requestInit }))
    legacy.set(caller, older)
  }
}, 120_000)

afterAll(async () => {
  for (const client of [...modern.values(), ...legacy.values()]) await client.close()
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

/** GETs `path` over HTTP as `caller`. */
async function http(caller: Caller, path: string) {
  const response = await fetch(`${origin}${path}`, {
    headers: { Accept: 'application/ld+json', ...headersOf(caller) },
  })
  return { status: response.status, body: (await response.json()) as Json, response }
}

describe('the protocol revisions', () => {
  it('speaks 2026-07-28 to the v2 client and 2025-11-25 to the v1 client', () => {
    for (const caller of callers) {
      const client = clientOf(modern, caller)
      expect(client.getProtocolEra()).toBe('modern')
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      expect(clientOf(legacy, caller).getServerVersion()?.name).toBeTruthy()
    }
  })

  it('lists the same five tools to both', async () => {
    const { tools } = await clientOf(modern, 'anonymous').listTools()
    const older = await clientOf(legacy, 'anonymous').listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_collections',
      'read_collection',
      'fetch_iri',
      'search',
      'fetch',
    ])
    expect(
      tools.map(({ name, inputSchema, outputSchema, annotations }) => ({
        name,
        inputSchema,
        outputSchema,
        annotations,
      }))
    ).toEqual(
      older.tools.map(({ name, inputSchema, outputSchema, annotations }) => ({
        name,
        inputSchema,
        outputSchema,
        annotations,
      }))
    )
  })

  for (const caller of callers)
    it(`walks books and loans to their end as ${caller} reads them over HTTP`, async () => {
      for (const [collection, path] of [
        ['book', '/books?itemsPerPage=7'],
        ['loan', '/loans?itemsPerPage=7'],
      ] as const) {
        const overHttp = await walkPages((next) => http(caller, next), path, 100)
        const client = clientOf(modern, caller)
        const read = async (args: Json) => {
          const result = await client.callTool({ name: 'read_collection', arguments: args })
          return result as Awaited<ReturnType<Client['callTool']>>
        }
        const byTools = await walkResults(read, collection, 100)
        if ('refused' in overHttp) {
          expect(byTools, `${caller} ${collection}`).toEqual({ refused: overHttp.refused })
          continue
        }
        if ('refused' in byTools) throw new Error(`${caller} ${collection}: ${byTools.refused}`)
        expect(byTools.members, `${caller} ${collection}`).toEqual(overHttp.members)
        expect(byTools.total).toEqual(overHttp.total)
      }
    })

  it('answers a resource that does not exist as invalid params, in both revisions', async () => {
    const uri = `${origin}/books/99999`
    for (const client of [clientOf(modern, 'anonymous'), clientOf(legacy, 'anonymous')])
      await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602 })
  })

  for (const caller of callers)
    it(`reads resources with the cache hint of ${caller}'s HTTP answer`, async () => {
      for (const path of ['/books/1', '/books?page=1', '/loans/3']) {
        const { status } = await http(caller, path)
        const uri = `${origin}${path}`
        if (status !== 200) {
          await expect(clientOf(modern, caller).readResource({ uri })).rejects.toThrow(
            String(status)
          )
          continue
        }
        const read = (await clientOf(modern, caller).readResource({ uri })) as Json & {
          contents: { text: string }[]
        }
        const older = await clientOf(legacy, caller).readResource({ uri })
        expect(read.contents).toEqual(older.contents)
        // The 2025 revisions have no such fields: the hint is in `_meta` alone there.
        expect(Object.keys(older).sort()).toEqual(['_meta', 'contents'])
        const hint = older._meta?.['prisma-hydra/cache'] as Json
        expect({ ttlMs: read.ttlMs, cacheScope: read.cacheScope }, `${caller} ${path}`).toEqual(
          hint
        )
      }
    })
})
