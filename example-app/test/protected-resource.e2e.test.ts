/**
 * The API's OAuth protected-resource metadata (RFC 9728; docs/security.md, "Protected-resource
 * metadata"), on test/fixtures/embeds over real HTTP: an app whose `authentication.challenge` is a
 * bearer one serves `/.well-known/oauth-protected-resource` under its mount path, naming the API's
 * URL, the `Authorization` header and the authorization servers it is given; a 401 of a guard
 * names that document in its challenge (`resource_metadata`), and the MCP SDK's client finds it
 * there and takes its resource for the MCP endpoint's. Without a bearer challenge, neither.
 */

import {
  discoverOAuthProtectedResourceMetadata,
  extractResourceMetadataUrl,
  selectResourceURL,
} from '@modelcontextprotocol/sdk/client/auth.js'
import { shareAdapter } from '@prisma-hydra/runtime'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HydraAccess, HydraAppOptions } from '#fixtures/embeds/hydra/index.js'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { claimsOf, type LibraryEnv } from '../src/auth.js'
import { EMBEDS_SCHEMA, embedsApp } from './support/embeds-app.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'

const SECRET = 'protected resource secret'
const ISSUER = 'https://login.library.example'
const METADATA = '/.well-known/oauth-protected-resource'

/** Loans are read by callers with a token; a caller without one is asked for it (401). */
const access = {
  Loan: { guard: (c) => (claimsOf(c) ? 'allow' : 'unauthenticated') },
} satisfies HydraAccess<LibraryEnv>

let prisma: PrismaClient
let database: TestDatabase
const closers: (() => Promise<void>)[] = []

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  prisma = new PrismaClient({ adapter: shareAdapter(createAdapter(database.url)) })
  await seedLibrary(prisma)
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The fixture served at `mount` with `authentication`: its origin. */
async function serve(
  mount: string,
  authentication: HydraAppOptions<typeof access, LibraryEnv>['authentication']
): Promise<string> {
  const app = embedsApp(SECRET, { prisma, access, authentication, mcp: hydraMcp() })
  const { origin, close } = await startServer((mount ? new Hono().route(mount, app) : app).fetch)
  closers.push(close)
  return origin
}

describe.each([
  ['at the root', ''],
  ['mounted at /api', '/api'],
])('with a bearer challenge, %s', (_where, mount) => {
  it('serves the metadata: the resource, the header, the authorization servers', async () => {
    const origin = await serve(mount, {
      challenge: 'Bearer realm="library"',
      authorizationServers: [ISSUER],
    })
    const response = await fetch(`${origin}${mount}${METADATA}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(await response.json()).toStrictEqual({
      resource: `${origin}${mount}`,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ['header'],
    })
  })

  it("names it in a 401's challenge, where the MCP client finds it for the endpoint", async () => {
    const origin = await serve(mount, { challenge: 'Bearer realm="library"' })
    const refused = await fetch(`${origin}${mount}/loans`)
    expect(refused.status).toBe(401)
    const url = `${origin}${mount}${METADATA}`
    expect(refused.headers.get('WWW-Authenticate')).toBe(
      `Bearer realm="library", resource_metadata="${url}"`
    )
    expect(extractResourceMetadataUrl(refused)?.href).toBe(url)
    const endpoint = new URL(`${origin}${mount}/mcp`)
    const metadata = await discoverOAuthProtectedResourceMetadata(endpoint, {
      resourceMetadataUrl: new URL(url),
    })
    // No servers given: none listed.
    expect(metadata).toStrictEqual({
      resource: `${origin}${mount}`,
      bearer_methods_supported: ['header'],
    })
    // The client's own check that the metadata is the endpoint's (RFC 9728 §3.3).
    expect((await selectResourceURL(endpoint, {} as never, metadata))?.href).toBe(
      new URL(`${origin}${mount}`).href
    )
  })
})

describe('without a bearer challenge', () => {
  it.each([
    ['no authentication settings', undefined],
    ['a basic challenge', { challenge: 'Basic realm="library"' }],
  ] as const)('serves no metadata and names none: %s', async (_what, authentication) => {
    const origin = await serve('', authentication)
    expect((await fetch(`${origin}${METADATA}`)).status).toBe(404)
    const refused = await fetch(`${origin}/loans`)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('WWW-Authenticate')).toBe(authentication?.challenge ?? 'Bearer')
  })
})
