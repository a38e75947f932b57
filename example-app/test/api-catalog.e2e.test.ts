/**
 * The API catalog end to end (docs/hydra.md, "The API catalog"): the example server over real
 * HTTP answers `GET` and `HEAD /.well-known/api-catalog` with a JSON linkset of RFC 9727's profile,
 * shaped as RFC 9264 says, whose every link resolves (the entrypoint, the OpenAPI document, the
 * Hydra documentation, the reference page, and the MCP endpoint, connected to by the MCP SDK's
 * client, when it is on); the entrypoint names the same links in its `Link` header; mounted under
 * `/api`, every link is under the mount.
 */

import { readFile } from 'node:fs/promises'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

const CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'

type Json = Record<string, unknown>
type Target = { href: string; type?: string; title?: string }

let prisma: PrismaClient
let database: TestDatabase
const closers: (() => Promise<void>)[] = []

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The example served at `mount` (with the MCP endpoint when `mcp`): its origin. */
async function serve(mount: string, mcp: boolean): Promise<string> {
  const app = createApp(prisma, mcp ? { mcp: hydraMcp() } : {})
  const { origin, close } = await startServer((mount ? new Hono().route(mount, app) : app).fetch)
  closers.push(close)
  return origin
}

/**
 * The link contexts of a JSON linkset, checked as RFC 9264 (section 4.2) shapes one: an object
 * whose one member `linkset` is an array of link context objects, each with its `anchor` and,
 * by relation type, an array of target objects, each with its `href`.
 */
function linkContexts(document: unknown): Map<string, Record<string, Target[]>> {
  expect(Object.keys(document as Json)).toEqual(['linkset'])
  const contexts = new Map<string, Record<string, Target[]>>()
  for (const context of (document as { linkset: Json[] }).linkset) {
    const { anchor, ...relations } = context
    expect(typeof anchor).toBe('string')
    for (const [relation, targets] of Object.entries(relations)) {
      expect(Array.isArray(targets), relation).toBe(true)
      for (const target of targets as Json[]) expect(typeof target.href, relation).toBe('string')
    }
    contexts.set(String(anchor), relations as Record<string, Target[]>)
  }
  return contexts
}

/** Whether `href` answers a GET with 200 (an MCP endpoint: the SDK's client connects to it). */
async function resolves(href: string, mcp: boolean): Promise<boolean> {
  if (!mcp) return (await fetch(href)).status === 200
  const client = new Client({ name: 'api-catalog test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(href)))
  const { tools } = await client.listTools()
  await client.close()
  return tools.length > 0
}

describe('the API catalog', () => {
  for (const [mount, mcp] of [
    ['', true],
    ['/api', true],
    ['', false],
  ] as const)
    it(`links the entrypoint, its descriptions${mcp ? ' and the MCP endpoint' : ''} at ${mount || '/'}`, async () => {
      const origin = await serve(mount, mcp)
      const url = `${origin}${mount}/.well-known/api-catalog`
      const response = await fetch(url)
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe(CATALOG_TYPE)
      const contexts = linkContexts(await response.json())
      const entrypoint = `${origin}${mount || '/'}`
      const items = contexts.get(url)?.item ?? []
      expect(items.map((item) => item.href)).toEqual([
        entrypoint,
        ...(mcp ? [`${origin}${mount}/mcp`] : []),
      ])
      const described = contexts.get(entrypoint) ?? {}
      expect(described['service-desc']?.map((target) => target.href)).toEqual([
        `${origin}${mount}/openapi.json`,
        `${origin}${mount}/docs.jsonld`,
      ])
      expect(described['service-doc']?.map((target) => target.href)).toEqual([
        `${origin}${mount}/docs`,
      ])
      for (const target of [...items, ...Object.values(described).flat()])
        expect(await resolves(target.href, target.href.endsWith('/mcp')), target.href).toBe(true)
      const head = await fetch(url, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.headers.get('Content-Type')).toBe(CATALOG_TYPE)
      expect(await head.text()).toBe('')
    })

  it("is the origin's through the app the API is mounted in, routed as docs/hydra.md says", async () => {
    const routing =
      "outer.get('/.well-known/api-catalog', (c) => c.redirect('/api/.well-known/api-catalog'))"
    const docs = await readFile(new URL('../../docs/hydra.md', import.meta.url), 'utf8')
    expect(docs).toContain(routing)
    const outer = new Hono()
    outer.get('/.well-known/api-catalog', (c) => c.redirect('/api/.well-known/api-catalog'))
    outer.route('/api', createApp(prisma, { mcp: hydraMcp() }))
    const { origin, close } = await startServer(outer.fetch)
    closers.push(close)
    const redirected = await fetch(`${origin}/.well-known/api-catalog`, { redirect: 'manual' })
    expect(redirected.status).toBe(302)
    expect(redirected.headers.get('Location')).toBe('/api/.well-known/api-catalog')
    const response = await fetch(`${origin}/.well-known/api-catalog`)
    expect(response.status).toBe(200)
    expect(response.url).toBe(`${origin}/api/.well-known/api-catalog`)
    expect(response.headers.get('Content-Type')).toBe(CATALOG_TYPE)
    // The catalog's own link context is the URL the redirect led to.
    const items = linkContexts(await response.json()).get(response.url)?.item ?? []
    expect(items.map((item) => item.href)).toEqual([`${origin}/api`, `${origin}/api/mcp`])
  })

  it('is linked from the entrypoint with its descriptions, as Link headers', async () => {
    const origin = await serve('/api', true)
    const response = await fetch(`${origin}/api`, { headers: { Accept: 'application/ld+json' } })
    expect(response.status).toBe(200)
    const link = response.headers.get('Link') ?? ''
    for (const expected of [
      `<${origin}/api/.well-known/api-catalog>; rel="api-catalog"`,
      `<${origin}/api/openapi.json>; rel="service-desc"; type="application/json"`,
      `<${origin}/api/docs.jsonld>; rel="service-desc"; type="application/ld+json"`,
      `<${origin}/api/docs>; rel="service-doc"; type="text/html"`,
    ])
      expect(link).toContain(expected)
  })
})
