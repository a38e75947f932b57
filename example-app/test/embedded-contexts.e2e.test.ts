/**
 * Embedded items carry no `@context` of their own (docs/member-shape.md, "Embedded items and their
 * context"): a link's term in its type's context scopes the target's context to an item embedded
 * in place of its IRI (JSON-LD 1.1 property-scoped contexts). Each answer here, expanded by the
 * `jsonld` processor in safe mode, must be the graph of the same answer with every embedded item
 * given its own context back, as it was written before: the same triples, fewer bytes. On the
 * example app (a property filter's to-one embed, at the root and mounted under `/api`) and on
 * test/fixtures/embeds (declared to-one and capped to-many embeds, pages, items, cursor feeds).
 */

import { Hono } from 'hono'
import jsonld from 'jsonld'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PrismaClient as EmbedsClient } from '#fixtures/embeds/prisma/client.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { EMBEDS_SCHEMA, embedsApp } from './support/embeds-app.js'
import {
  createAdapter,
  emptyDatabase,
  freshDatabase,
  startServer,
  type TestDatabase,
} from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'

type Node = Record<string, unknown>

let prisma: PrismaClient
let embeds: EmbedsClient
const databases: TestDatabase[] = []
const closers: Array<() => Promise<void>> = []
let example = ''
let mounted = ''
let fixture = ''

beforeAll(async () => {
  const library = await emptyDatabase()
  databases.push(library)
  prisma = createPrismaClient(library.url)
  await prepareDatabase(prisma, library.url)
  const own = await startServer(createApp(prisma).fetch)
  const api = await startServer(new Hono().route('/api', createApp(prisma)).fetch)
  const embedded = await freshDatabase(EMBEDS_SCHEMA)
  databases.push(embedded)
  embeds = new EmbedsClient({ adapter: createAdapter(embedded.url) })
  await seedLibrary(embeds)
  const served = await startServer(embedsApp('embedded-contexts secret', { prisma: embeds }).fetch)
  closers.push(own.close, api.close, served.close)
  example = own.origin
  mounted = `${api.origin}/api`
  fixture = served.origin
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await embeds?.$disconnect()
  for (const database of databases) await database.remove()
})

/** Loads contexts from the server, as a client would. */
const documentLoader = async (url: string) => {
  const response = await fetch(url, { headers: { Accept: 'application/ld+json' } })
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  return { contextUrl: null, documentUrl: url, document: await response.json() }
}

const expand = (document: unknown, url: string) =>
  jsonld.expand(
    document as jsonld.JsonLdDocument,
    {
      base: url,
      documentLoader,
      safe: true,
    } as unknown as jsonld.Options.Expand
  )

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && '@id' in value

/** Each member of a page, or the item itself. */
function membersOf(document: Node): Node[] {
  const members = document['hydra:member'] ?? document.member
  return Array.isArray(members) ? (members as Node[]) : [document]
}

/**
 * The embedded items of `document` (a member's related item, each member of an embedded
 * collection), each handed to `visit`.
 */
function eachEmbedded(document: Node, visit: (item: Node) => void): void {
  for (const member of membersOf(document))
    for (const [key, value] of Object.entries(member)) {
      if (key.startsWith('@') || !isNode(value)) continue
      const inner = value['hydra:member'] ?? value.member
      if (Array.isArray(inner)) for (const item of inner as Node[]) visit(item)
      else visit(value)
    }
}

/** The answer with each embedded item given its own model's context, as it was written before. */
function withOwnContexts(document: Node, base: string): Node {
  const copy = structuredClone(document)
  eachEmbedded(copy, (item) => {
    const own = { '@context': `${base}/contexts/${item['@type']}`, ...item }
    for (const key of Object.keys(item)) delete item[key]
    Object.assign(item, own)
  })
  return copy
}

describe('an embedded item is read under its link’s context', () => {
  const cases: ReadonlyArray<readonly [() => string, string, string]> = [
    [() => example, '', '/books?properties[]=title&properties[author][]=name'],
    [() => example, '', '/books/1?properties[author][]=name&properties[author][]=country'],
    [() => mounted, '/api', '/books?properties[author][]=name&itemsPerPage=5'],
    [() => fixture, '', '/books'],
    [() => fixture, '', '/books/1'],
    [() => fixture, '', '/books/latest'],
    [() => fixture, '', '/loans?page=2'],
    [() => fixture, '', '/loans/recent'],
    [() => fixture, '', '/books/1/loans'],
    [() => fixture, '', '/loans/feed'],
  ]

  it.each(cases)('%#: %s', async (origin, base, path) => {
    const url = `${origin()}${path}`
    const response = await fetch(url)
    expect(response.status).toBe(200)
    const text = await response.text()
    const document = JSON.parse(text) as Node
    let embedded = 0
    eachEmbedded(document, (item) => {
      embedded += 1
      expect(item).not.toHaveProperty('@context')
    })
    expect(embedded).toBeGreaterThan(0)
    // Only the document's own context is named.
    expect(text.split('"@context"').length - 1).toBe(1)
    const before = withOwnContexts(document, base)
    expect(await expand(document, url)).toEqual(await expand(before, url))
  })
})
