/**
 * The `hydra:view` of a to-many relation embedded by declaration, capped (docs/member-shape.md,
 * "To-many relations: the first page, capped"), as an RDF client reads it, on
 * test/fixtures/embeds: each book embeds its first three loans, with a view when it has more. The
 * view is a node of its own, the sub-collection's page of those loans: flattened by the `jsonld`
 * processor in safe mode, no node of an embedded collection is typed both `hydra:Collection` and
 * `hydra:PartialCollectionView`, and every view's `@id` answers the page it names, with the same
 * members and the same links, on pages, cursor pages, unpaged streams and items; each answer is
 * one the OpenAPI document describes, and the member type reads the view's links.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import jsonld from 'jsonld'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type { BookMember } from '#fixtures/embeds/hydra/index.js'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { EMBEDS_SCHEMA, embedsApp } from './support/embeds-app.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'
import { checkedAgainstOpenApi } from './support/openapi-check.js'

const HYDRA = 'http://www.w3.org/ns/hydra/core#'

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let close: () => Promise<void>
let openApi: ReturnType<typeof checkedAgainstOpenApi>

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  prisma = new PrismaClient({ adapter: shareAdapter(createAdapter(database.url)) })
  await seedLibrary(prisma)
  openApi = checkedAgainstOpenApi(embedsApp('declared-embed-view', { prisma }).fetch)
  ;({ origin, close } = await startServer(openApi.fetch))
}, 120_000)

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

type Body = Record<string, unknown>
type Node = { '@id'?: string; '@type'?: string[] } & Body

/** Loads contexts from the server, as a client would. */
const documentLoader = async (url: string) => {
  const response = await fetch(url, { headers: { Accept: 'application/ld+json' } })
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  return { contextUrl: null, documentUrl: url, document: await response.json() }
}

/** A document and its nodes as jsonld.js flattens it (safe mode: nothing dropped or relative). */
async function flattened(path: string): Promise<{ body: Body; nodes: Node[] }> {
  const url = `${origin}${path}`
  const response = await fetch(url)
  expect(response.status, path).toBe(200)
  const body = (await response.json()) as Body
  const options = { base: url, documentLoader, safe: true }
  const nodes = await jsonld.flatten(body, undefined, options as unknown as jsonld.Options.Flatten)
  return { body, nodes: nodes as unknown as Node[] }
}

/** The embedded collections of a document's books (its members, or the item itself). */
function embeddedLoans(body: Body): Body[] {
  const books = (body['hydra:member'] as Body[] | undefined) ?? [body]
  return books.map((book) => book.loans as Body)
}

const ids = (members: unknown) => (members as Body[]).map((member) => member['@id'])

/** A book's sub-collection, or a page of it. */
const SUB_COLLECTION = /\/books\/[0-9]+\/loans(\?|$)/

describe("a capped to-many embed's view", () => {
  for (const path of ['/books', '/books/latest', '/books?pagination=false', '/books/1']) {
    it(`is a node of its own, the page its @id answers: ${path}`, async () => {
      const { body, nodes } = await flattened(path)
      const embedded = nodes.filter((node) => SUB_COLLECTION.test(node['@id'] ?? ''))
      for (const node of embedded) {
        const types = node['@type'] ?? []
        expect(types, node['@id']).toHaveLength(1)
        const collection = !node['@id']?.includes('?')
        expect(types[0]).toBe(`${HYDRA}${collection ? 'Collection' : 'PartialCollectionView'}`)
      }
      const views = embeddedLoans(body).flatMap((loans): Body[] => {
        const view = loans['hydra:view'] as Body | undefined
        return view ? [view] : []
      })
      // Books 1 to 8 have five loans each: the first of every document has a view.
      expect(views.length).toBeGreaterThan(0)
      for (const view of views) {
        const node = nodes.find((candidate) => candidate['@id'] === `${origin}${view['@id']}`)
        expect(node?.['@type']).toStrictEqual([`${HYDRA}PartialCollectionView`])
      }
      for (const loans of embeddedLoans(body)) {
        const view = loans['hydra:view'] as Body | undefined
        if (!view) continue
        const page = await fetch(`${origin}${view['@id']}`)
        expect(page.status, String(view['@id'])).toBe(200)
        const answer = (await page.json()) as Body
        expect(answer['@id']).toBe(loans['@id'])
        expect(ids(answer['hydra:member'])).toStrictEqual(ids(loans['hydra:member']))
        // The page's own view, with its last page besides: the embed counts nothing.
        expect(answer['hydra:view']).toMatchObject(view)
      }
    })
  }
})

it('types the view with its links', async () => {
  const book = (await (await fetch(`${origin}/books/1`)).json()) as BookMember
  if (typeof book.loans === 'string') throw new Error('the loans are not embedded')
  const view = book.loans['hydra:view']
  expectTypeOf(view?.['hydra:next']).toEqualTypeOf<string | undefined>()
  expect(view?.['hydra:next']).toBe('/books/1/loans?itemsPerPage=3&page=2')
})

it("answers every request of this file as the API's OpenAPI document says", async () => {
  const result = await openApi.result()
  expect(result.violations).toEqual([])
  expect(result.checked).toBeGreaterThan(20)
})
