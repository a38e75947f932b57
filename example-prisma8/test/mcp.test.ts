/**
 * The MCP endpoint (`mcp: hydraMcp()`, docs/mcp.md) of the example's API on Prisma 8 (the routes
 * `prisma-hydra generate` writes, on a Prisma 8 client) against the same endpoint of the API on
 * Prisma 7, over one database, spoken to by the MCP SDK's client as each of the example's callers:
 * the same tools, and every collection walked to its end by `read_collection` and `nextCursor`,
 * under a budget that cuts pages, with the same results call for call.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { PrismaPg } from '@prisma/adapter-pg'
import postgres from '@prisma/orm-postgres/runtime'
import { shareAdapter } from '@prisma-hydra/runtime'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authenticate, libraryAccess, tokenFor } from '../../example-app/src/auth.js'
import { createHydraApp as createPrisma7App } from '../../example-app/src/generated-postgresql/hydra/index.js'
import { PrismaClient } from '../../example-app/src/generated-postgresql/prisma/client.js'
import { createHydraApp } from '../generated/hydra/index.js'
import type { Contract } from '../prisma/contract.d.ts'
import contractJson from '../prisma/contract.json' with { type: 'json' }
import { BACK_END_URL } from './support/database-urls.js'
import { type Listening, listen } from './support/listen.js'

const SECRET = 'prisma-hydra example-prisma8: the MCP test secret'
/** A budget small enough to cut the example's pages into several results. */
const BUDGET = 6_000
/** The example's callers. */
const CALLERS = [
  { name: 'anonymous', claims: undefined },
  { name: 'a reader', claims: { sub: 'Reader 3', role: 'reader' } },
  { name: 'a librarian', claims: { sub: 'Ada', role: 'librarian' } },
] as const
const COLLECTIONS = ['/authors', '/books', '/reviews', '/languages', '/loans', '/activities']

type Json = Record<string, unknown>
const adapter = shareAdapter(new PrismaPg({ connectionString: BACK_END_URL }))
const prisma = new PrismaClient({ adapter })
const db = postgres<Contract>({ contractJson, url: BACK_END_URL })
const servers: Listening[] = []
const clients: Client[] = []
let prisma7: Listening
let prisma8: Listening

beforeAll(async () => {
  const served = (api: Hono) => new Hono().use(authenticate(SECRET)).route('/', api).fetch
  const options = { access: libraryAccess, mcp: hydraMcp({ budget: BUDGET }) }
  prisma7 = await listen(
    served(createPrisma7App({ prisma, adapter, engine: 'compiled', ...options }))
  )
  prisma8 = await listen(served(createHydraApp({ prisma: db, ...options })))
  servers.push(prisma7, prisma8)
})

afterAll(async () => {
  for (const client of clients) await client.close()
  for (const server of servers) await server.close()
  await prisma.$disconnect()
  await db.close()
})

/** The SDK's client of `server`'s endpoint, as the caller `token` names. */
async function connect(server: Listening, token: string | undefined): Promise<Client> {
  const client = new Client({ name: 'example-prisma8 test', version: '1.0.0' })
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {}
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), { requestInit: { headers } })
  )
  clients.push(client)
  return client
}

/** Every result of `read_collection` over `collection`, following `nextCursor`. */
/** A tool result with its timings' names, not their durations, which each run measures anew. */
function unmeasured<R extends { _meta?: Json | undefined }>(result: R): R {
  const timing = result._meta?.['prisma-hydra/timing']
  if (!Array.isArray(timing)) return result
  const names = timing.map(({ dur: _, ...metric }: Json) => metric)
  return { ...result, _meta: { ...result._meta, 'prisma-hydra/timing': names } }
}

async function walk(client: Client, collection: string): Promise<unknown[]> {
  const results: unknown[] = []
  let args: Json = { collection }
  for (let calls = 0; calls < 200; calls++) {
    const result = await client.callTool({ name: 'read_collection', arguments: args })
    results.push(unmeasured(result))
    const next = (result.structuredContent as { nextCursor?: string } | undefined)?.nextCursor
    if (result.isError || next === undefined) return results
    args = { cursor: next }
  }
  throw new Error(`${collection} did not end in 200 results`)
}

describe.each(CALLERS)('MCP on Prisma 8, for $name', ({ claims }) => {
  let seven: Client
  let eight: Client

  beforeAll(async () => {
    const token = claims && (await tokenFor(claims, SECRET))
    seven = await connect(prisma7, token)
    eight = await connect(prisma8, token)
  })

  it('lists the same tools', async () => {
    expect(await eight.listTools()).toEqual(await seven.listTools())
  })

  it.each(COLLECTIONS)('walks %s with the same results, call for call', async (collection) => {
    const [expected, actual] = await Promise.all([walk(seven, collection), walk(eight, collection)])
    expect(actual.length).toBeGreaterThan(0)
    expect(actual).toEqual(expected)
  })
})
