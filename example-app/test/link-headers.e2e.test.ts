/**
 * Pages as plain HTTP clients read them, over real HTTP: a page's view links (`first`, `last`,
 * `previous`, `next`) also as RFC 8288 `Link` headers (`first`, `last`, `prev`, `next`), read with
 * http-link-header, on every paging mode, sub-collections and custom collections, under a mount
 * path, on `304`s and through CORS; and a client that never reads a body's links walks every
 * collection to its end and back by them.
 */

import { Hono } from 'hono'
import LinkHeader from 'http-link-header'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

const ADMIN_ORIGIN = 'http://admin.example'
/** The view's keys and the relation type RFC 8288's registry gives each. */
const RELATIONS = { first: 'first', last: 'last', previous: 'prev', next: 'next' } as const

let database: TestDatabase
let prisma: PrismaClient
let origin: string
let mounted: string
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  const root = await startServer(createApp(prisma, { cors: ADMIN_ORIGIN }).fetch)
  const api = await startServer(new Hono().route('/api', createApp(prisma)).fetch)
  origin = root.origin
  mounted = `${api.origin}/api`
  closers.push(root.close, api.close)
})

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The page links of a response's `Link` header, by relation type. */
function pageLinks(response: Response): Record<string, string> {
  const header = LinkHeader.parse(response.headers.get('link') ?? '')
  const links: Record<string, string> = {}
  for (const rel of Object.values(RELATIONS)) {
    const found = header.rel(rel)
    expect(found.length, `rel="${rel}" more than once`).toBeLessThanOrEqual(1)
    if (found[0]) links[rel] = found[0].uri
  }
  return links
}

/** The links of a page's view in its body, absolute, by the relation type of each. */
function viewLinks(body: Record<string, unknown>, base: string): Record<string, string> {
  const view = (body['hydra:view'] ?? body.view ?? {}) as Record<string, string>
  const links: Record<string, string> = {}
  for (const [key, rel] of Object.entries(RELATIONS)) {
    const iri = view[`hydra:${key}`] ?? view[key]
    if (iri !== undefined) links[rel] = new URL(iri, base).href
  }
  return links
}

describe('the view links of a page as Link headers', () => {
  it('curl -I /books?page=2: next, prev, first and last, absolute, as the view writes them', async () => {
    const head = await fetch(`${origin}/books?page=2`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(pageLinks(head)).toEqual({
      first: `${origin}/books?page=1`,
      last: `${origin}/books?page=12`,
      prev: `${origin}/books?page=1`,
      next: `${origin}/books?page=3`,
    })
    // The documentation's link stays first.
    expect(head.headers.get('link')).toMatch(
      new RegExp(
        `^<${origin}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation", `
      )
    )
  })

  it.each([
    // Full paging: its first and last pages; a client's page size (with the canonical link).
    ['/books', ['first', 'last', 'next']],
    ['/books?page=12', ['first', 'last', 'prev']],
    ['/books?page=2&itemsPerPage=25', ['first', 'last', 'prev', 'next']],
    ['/books/recent?page=3', ['first', 'last', 'prev', 'next']],
    // Partial paging, prefixed or not: no count, no first or last.
    ['/loans?partial=true&page=3', ['prev', 'next']],
    ['/reviews?page=2', ['prev', 'next']],
    // Cursor paging by keyset, and by numbered pages.
    ['/activities', ['next']],
    ['/activities?itemsPerPage=30&page=2', ['first', 'last', 'prev', 'next']],
    // Sub-collections, full and partial.
    ['/authors/1/books?itemsPerPage=2', ['first', 'last', 'next']],
    ['/books/1/loans?itemsPerPage=2&page=2', ['first', 'last', 'prev']],
    // Custom collections: a full paginator, a partial one, every item in one page.
    ['/genres', ['first', 'last', 'next']],
    ['/releases?page=2', ['prev', 'next']],
    ['/releases?pagination=false', []],
    // A stream, and a single page asked with a filter (a view without links).
    ['/loans?pagination=false', []],
    ['/books?title=no+such+title', []],
  ])('%s links %j, each its view link', async (path, rels) => {
    const response = await fetch(`${origin}${path}`)
    expect(response.status).toBe(200)
    const links = pageLinks(response)
    expect(Object.keys(links).sort()).toEqual([...rels].sort())
    expect(links).toEqual(viewLinks(await response.json(), origin))
  })

  it('a keyset page past the first links prev and next, as its view does', async () => {
    const first = pageLinks(await fetch(`${origin}/activities`))
    const second = await fetch(first.next as string)
    const links = pageLinks(second)
    expect(Object.keys(links).sort()).toEqual(['next', 'prev'])
    expect(links).toEqual(viewLinks(await second.json(), origin))
  })

  it('name a page asked otherwise canonical, absolute as the other links', async () => {
    for (const [base, asked, canonical] of [
      [origin, '/books?page=2&itemsPerPage=25', '/books?itemsPerPage=25&page=2'],
      [origin, '/books?properties[]=title&page=2', '/books?properties%5B%5D=title&page=2'],
      [mounted, '/books?page=2&itemsPerPage=25', '/books?itemsPerPage=25&page=2'],
    ] as const) {
      const header = LinkHeader.parse((await fetch(`${base}${asked}`)).headers.get('link') ?? '')
      expect(header.rel('canonical').map((link) => link.uri)).toEqual([`${base}${canonical}`])
    }
  })

  it('are written under the mount path', async () => {
    const response = await fetch(`${mounted}/books?page=2`)
    expect(pageLinks(response)).toEqual({
      first: `${mounted}/books?page=1`,
      last: `${mounted}/books?page=12`,
      prev: `${mounted}/books?page=1`,
      next: `${mounted}/books?page=3`,
    })
  })

  it('stay on a 304', async () => {
    const response = await fetch(`${origin}/books?page=2`)
    await response.arrayBuffer()
    const again = await fetch(`${origin}/books?page=2`, {
      headers: { 'If-None-Match': response.headers.get('etag') ?? '' },
    })
    expect(again.status).toBe(304)
    expect(again.headers.get('link')).toBe(response.headers.get('link'))
    expect(pageLinks(again).next).toBe(`${origin}/books?page=3`)
  })

  it('are exposed through CORS to the allowed origin', async () => {
    const response = await fetch(`${origin}/books?page=2`, { headers: { Origin: ADMIN_ORIGIN } })
    expect(response.headers.get('access-control-allow-origin')).toBe(ADMIN_ORIGIN)
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(/, */)
    expect(exposed).toContain('Link')
    expect(Object.keys(pageLinks(response)).sort()).toEqual(['first', 'last', 'next', 'prev'])
  })

  it('are left out together, never one alone, where they would pass the bound of a header', async () => {
    // Each link repeats the query: four of 1,000 characters pass the 4,096 of a header.
    const long = await fetch(`${origin}/books?page=2&x=${'a'.repeat(1000)}`)
    expect(pageLinks(long)).toEqual({})
    expect((long.headers.get('link') ?? '').length).toBeLessThanOrEqual(4096)
    const body = (await long.json()) as Record<string, unknown>
    expect(Object.keys(viewLinks(body, origin)).sort()).toEqual(['first', 'last', 'next', 'prev'])
    const shorter = await fetch(`${origin}/books?page=2&x=${'a'.repeat(500)}`)
    expect(Object.keys(pageLinks(shorter)).sort()).toEqual(['first', 'last', 'next', 'prev'])
  })
})

describe('a client that pages by Link headers alone', () => {
  /** Follows `rel` from `start` until a page has none, reading members' `@id`s only. */
  async function walk(start: string, rel: 'next' | 'prev'): Promise<string[][]> {
    const pages: string[][] = []
    let url: string | undefined = start
    while (url !== undefined) {
      expect(pages.length, `more than 200 pages from ${start}`).toBeLessThan(200)
      const response: Response = await fetch(url)
      expect(response.status, url).toBe(200)
      const body = (await response.json()) as Record<string, unknown>
      const members = (body['hydra:member'] ?? body.member) as Array<{ '@id': string }>
      pages.push(members.map((member) => member['@id']))
      url = pageLinks(response)[rel]
    }
    return pages
  }

  it.each([
    ['/books', () => prisma.book.count()],
    ['/reviews', () => prisma.review.count()],
    ['/activities', () => prisma.activity.count()],
    ['/authors/1/books?itemsPerPage=2', () => prisma.book.count({ where: { authorId: 1 } })],
  ])('walks %s to its end and back, every member once', async (path, count) => {
    const forward = await walk(`${origin}${path}`, 'next')
    const members = forward.flat()
    expect(new Set(members).size).toBe(members.length)
    expect(members).toHaveLength(await count())
    expect(forward.length).toBeGreaterThan(1)
    // Back from the last page, by prev, page for page.
    const lastLink = (await fetch(`${origin}${path}`).then(pageLinks)).last
    const last = lastLink ?? (await lastPageByNext(`${origin}${path}`))
    const backward = await walk(last, 'prev')
    expect(backward.map((page) => new Set(page))).toEqual(
      forward.reverse().map((page) => new Set(page))
    )
  })

  /** The URL of the last page, reached by `next` (partial and keyset paging have no `last`). */
  async function lastPageByNext(start: string): Promise<string> {
    let url = start
    for (;;) {
      const next = pageLinks(await fetch(url)).next
      if (next === undefined) return url
      url = next
    }
  }
})
