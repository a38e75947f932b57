/**
 * The MCP endpoint spoken to by the MCP Inspector's command line (`mcp-inspector --cli`), a client
 * of its own rather than the SDK's, headless, over real HTTP: the example served with
 * `hydraMcp()`, its `tools/list` the five tools, and a collection walked by `read_collection` to
 * its end by `nextCursor`, as the anonymous caller, a reader and a librarian, member for member
 * as the same caller's HTTP walk of `hydra:next`.
 */
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { libraryAccess } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { bearer, type Caller, callerTokens } from './support/library-callers.js'
import { inspectorCall } from './support/mcp-servers.js'

const SECRET = 'mcp inspector test secret'

type Json = Record<string, unknown>

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let close: () => Promise<void>
const tokens = new Map<Caller, string>()

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  for (const [caller, token] of await callerTokens(SECRET)) tokens.set(caller, token)
  // A small budget, so that a walk of /books takes several results.
  const app = createApp(prisma, {
    auth: { secret: SECRET, access: libraryAccess },
    mcp: hydraMcp({ budget: 6_000 }),
  })
  ;({ origin, close } = await startServer(app.fetch))
}, 120_000)

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

/** What the Inspector's command line prints for `method` as `caller`, as JSON. */
async function inspect(caller: Caller, method: string, ...rest: string[]): Promise<Json> {
  return inspectorCall(`${origin}/mcp`, method, rest, bearer(tokens.get(caller)))
}

/** Every member of `collection` by `read_collection`, following `nextCursor`, by the CLI. */
async function walkByInspector(caller: Caller, collection: string) {
  const members: Json[] = []
  let cursor: string | undefined
  let results = 0
  do {
    const argument = cursor === undefined ? `collection=${collection}` : `cursor=${cursor}`
    const result = await inspect(
      caller,
      'tools/call',
      '--tool-name',
      'read_collection',
      '--tool-arg',
      argument
    )
    expect(result.isError, JSON.stringify(result)).toBeFalsy()
    const content = result.structuredContent as { members: Json[]; nextCursor?: string }
    members.push(...content.members)
    cursor = content.nextCursor
    results++
    expect(results).toBeLessThan(30)
  } while (cursor !== undefined)
  return { members, results }
}

/** Every member of `path` over HTTP as `caller`, following `hydra:next`. */
async function walkHttp(caller: Caller, path: string): Promise<Json[]> {
  const members: Json[] = []
  let next: string | undefined = path
  while (next !== undefined) {
    const token = tokens.get(caller)
    const response = await fetch(`${origin}${next}`, {
      headers: {
        Accept: 'application/ld+json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
    })
    expect(response.status).toBe(200)
    const page = (await response.json()) as Json
    members.push(...(page['hydra:member'] as Json[]))
    next = (page['hydra:view'] as Json | undefined)?.['hydra:next'] as string | undefined
  }
  return members
}

describe('the MCP Inspector CLI', () => {
  it('lists the five tools', async () => {
    const listed = await inspect('anonymous', 'tools/list')
    expect((listed.tools as Json[]).map((tool) => tool.name)).toEqual([
      'list_collections',
      'read_collection',
      'fetch_iri',
      'search',
      'fetch',
    ])
  }, 60_000)

  it.each([
    ['anonymous', '/books'],
    ['reader', '/loans'],
    ['librarian', '/loans'],
  ] as const)(
    'walks a collection to its end as %s, as HTTP reads it: %s',
    async (caller, path) => {
      const [walked, overHttp] = await Promise.all([
        walkByInspector(caller, path),
        walkHttp(caller, path),
      ])
      expect(walked.members).toEqual(overHttp)
      expect(overHttp.length).toBeGreaterThan(0)
      if (path === '/books') expect(walked.results).toBeGreaterThan(2)
    },
    180_000
  )
})
