/**
 * The example API driven by alcaeus, a Hydra client library nobody here wrote, over real HTTP.
 * alcaeus identifies the main resource of a response by the URL it asked for (or the response's
 * `Link: rel="canonical"`) and reads everything else as RDF, so these walks prove that every link
 * the API writes is the `@id` of the page it leads to: each collection is walked by following
 * `hydra:next` to the end and `hydra:previous` back to the start, every member seen once, the
 * count equal to `hydra:totalItems` where there is one.
 */
import Environment from '@zazuko/env/Environment.js'
import rdf from '@zazuko/env-node'
import create from 'alcaeus'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

const HYDRA = 'http://www.w3.org/ns/hydra/core#'
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#'

let database: TestDatabase
let prisma: PrismaClient
let origin: string
let close: (() => Promise<void>) | undefined
/** Every request the server received, to count how often the documentation is downloaded. */
const requests: string[] = []

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  const app = createApp(prisma)
  const server = await startServer((request) => {
    requests.push(new URL(request.url).pathname)
    return app.fetch(request)
  })
  origin = server.origin
  close = server.close
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

/** A fresh client: its own resource store and its own copy of the API documentation. */
function client() {
  const env = new Environment(create(), { parent: rdf })
  return env.hydra
}
type Client = ReturnType<typeof client>

interface Page {
  /** The main resource alcaeus found: the collection (through the view that has the URL). */
  collection: string
  members: string[]
  totalItems: number | undefined
  next: string | undefined
  previous: string | undefined
}

/** Loads one page as alcaeus does and reads it only through alcaeus's own root resource. */
async function loadPage(hydra: Client, url: string): Promise<Page> {
  const { response, representation } = await hydra.loadResource(url)
  expect(response?.xhr.status, url).toBe(200)
  const root = representation?.root
  // alcaeus found the main resource of the response: the URL asked for is in the document.
  expect(root, `alcaeus found no main resource in ${url}`).toBeTruthy()
  const pointer = root?.pointer
  if (!pointer) throw new Error(`no root in ${url}`)
  expect(pointer.out(rdf.namedNode(RDF_TYPE)).values).toContain(`${HYDRA}Collection`)
  const view = pointer.out(rdf.namedNode(`${HYDRA}view`))
  const link = (name: string) => view.out(rdf.namedNode(`${HYDRA}${name}`)).value
  const total = pointer.out(rdf.namedNode(`${HYDRA}totalItems`)).value
  return {
    collection: pointer.value,
    // RDF has no order: members are compared as sets.
    members: pointer.out(rdf.namedNode(`${HYDRA}member`)).values,
    totalItems: total === undefined ? undefined : Number(total),
    next: link('next'),
    previous: link('previous'),
  }
}

/**
 * Follows `next` from `start` to the last page, then `previous` back to the first, checking that
 * each page reached backwards holds what it held forwards. Returns the members in page order.
 */
async function walk(start: string, maxPages = 200): Promise<{ pages: Page[]; members: string[] }> {
  const hydra = client()
  const pages: Page[] = []
  let url: string | undefined = `${origin}${start}`
  const visited: string[] = []
  while (url !== undefined) {
    expect(visited, `a next link leads back to ${url}`).not.toContain(url)
    visited.push(url)
    expect(pages.length, `more than ${maxPages} pages from ${start}`).toBeLessThan(maxPages)
    const page = await loadPage(hydra, url)
    pages.push(page)
    url = page.next
  }
  // And back: previous from the last page leads through the same pages to the first.
  const backwards = client()
  for (let index = pages.length - 1; index > 0; index--) {
    const previous = pages[index]?.previous
    expect(previous, `page ${index + 1} of ${start} has no previous link`).toBeDefined()
    const page = await loadPage(backwards, previous as string)
    expect(new Set(page.members)).toEqual(new Set(pages[index - 1]?.members))
  }
  expect(pages[0]?.previous).toBeUndefined()
  return { pages, members: pages.flatMap((page) => page.members) }
}

function expectEachOnce(members: string[]): void {
  expect(new Set(members).size).toBe(members.length)
}

describe('alcaeus follows next to the end and previous back', () => {
  it.each([
    ['/authors', 25],
    ['/books', 120],
    ['/books?itemsPerPage=25', 120],
    ['/books/recent', 120],
    ['/books/popular', undefined],
    ['/loans', undefined],
    ['/loans?itemsPerPage=7&partial=false', undefined],
  ])('a full collection: %s', async (path, expected) => {
    const { pages, members } = await walk(path)
    expectEachOnce(members)
    const total = pages[0]?.totalItems
    expect(total).toBeDefined()
    for (const page of pages) expect(page.totalItems).toBe(total)
    expect(members).toHaveLength(total as number)
    if (expected !== undefined) expect(total).toBe(expected)
  })

  it.each(['/reviews', '/loans?partial=true', '/loans?itemsPerPage=30&partial=true', '/releases'])(
    'a partial collection (no count): %s',
    async (path) => {
      const { pages, members } = await walk(path)
      expectEachOnce(members)
      expect(pages.length).toBeGreaterThan(1)
      for (const page of pages) expect(page.totalItems).toBeUndefined()
    }
  )

  it('the cursor collection, keyset pages forward and back', async () => {
    const { pages, members } = await walk('/activities')
    expectEachOnce(members)
    expect(pages.length).toBeGreaterThan(2)
    expect(members).toHaveLength(await prisma.activity.count())
  })

  it('the cursor collection read by numbered pages (D7), as page-based clients do', async () => {
    const { pages, members } = await walk('/activities?itemsPerPage=30&page=1')
    expectEachOnce(members)
    const total = await prisma.activity.count()
    expect(pages[0]?.totalItems).toBe(total)
    expect(members).toHaveLength(total)
  })

  it('the cursor collection with a client page size', async () => {
    const { members } = await walk('/activities?itemsPerPage=45')
    expectEachOnce(members)
    expect(members).toHaveLength(await prisma.activity.count())
  })

  it.each(['/languages', '/genres', '/loans?pagination=false', '/books?page=2&itemsPerPage=25'])(
    'a single document: %s',
    async (path) => {
      const hydra = client()
      const page = await loadPage(hydra, `${origin}${path}`)
      expect(page.members.length).toBeGreaterThan(0)
    }
  )

  it('a page asked with its parameters in any order is found by the URL asked', async () => {
    const hydra = client()
    const sorted = await loadPage(hydra, `${origin}/books?itemsPerPage=25&page=2`)
    const unsorted = await loadPage(hydra, `${origin}/books?page=2&itemsPerPage=25`)
    expect(new Set(unsorted.members)).toEqual(new Set(sorted.members))
    expect(unsorted.next).toBe(sorted.next)
  })
})

describe('alcaeus follows relations', () => {
  it.each([
    ['/authors/1/books?itemsPerPage=2', () => prisma.book.count({ where: { authorId: 1 } })],
    ['/books/1/loans?itemsPerPage=2', () => prisma.loan.count({ where: { bookId: 1 } })],
    ['/books/2/reviews', () => prisma.review.count({ where: { bookId: 2 } })],
  ])('a sub-collection, forward and back: %s', async (path, count) => {
    const { pages, members } = await walk(path)
    expectEachOnce(members)
    expect(members).toHaveLength(await count())
    const collection = new URL(path, origin)
    for (const page of pages) expect(page.collection).toBe(`${origin}${collection.pathname}`)
  })

  it('from a book to its author and to its reviews, as node references', async () => {
    const hydra = client()
    const book = await prisma.book.findUniqueOrThrow({ where: { id: 3 } })
    const { representation } = await hydra.loadResource(`${origin}/books/3`)
    const pointer = representation?.root?.pointer
    const author = pointer?.out(rdf.namedNode(`${origin}/docs.jsonld#Book/author`))
    expect(author?.term?.termType).toBe('NamedNode')
    expect(author?.value).toBe(`${origin}/authors/${book.authorId}`)
    const loaded = await hydra.loadResource(author?.value as string)
    expect(loaded.representation?.root?.id.value).toBe(author?.value)
    const reviews = pointer?.out(rdf.namedNode(`${origin}/docs.jsonld#Book/reviews`))
    expect(reviews?.term?.termType).toBe('NamedNode')
    const page = await loadPage(hydra, reviews?.value as string)
    const expected = await prisma.review.findMany({ where: { bookId: 3 }, select: { id: true } })
    expect(new Set(page.members)).toEqual(
      new Set(expected.map((review) => `${origin}/reviews/${review.id}`))
    )
  })
})

describe("alcaeus finds a collection's search template", () => {
  it('on its entry page, and from any other page at the IRI that page names', async () => {
    const hydra = client()
    const search = rdf.namedNode(`${HYDRA}search`)
    const template = rdf.namedNode(`${HYDRA}template`)
    const page = await hydra.loadResource(`${origin}/books?page=2&title=a`)
    const named = page.representation?.root?.pointer.out(search)
    expect(named?.term?.termType).toBe('NamedNode')
    expect(named?.value).toBe(`${origin}/books#search`)
    // The page names the template and holds nothing more of it.
    expect(named?.out(template).values).toEqual([])
    const entry = await hydra.loadResource(named?.value as string)
    const found = entry.representation?.get<{ template: string | undefined }>(
      named?.value as string
    )
    // The template is a string as the page wrote it: a path, expanded against the page's URL.
    expect(found?.template).toMatch(/^\/books\{\?page,itemsPerPage,title,/)
    expect(entry.representation?.root?.pointer.out(search).value).toBe(named?.value)
  })
})

describe('alcaeus reads errors and items', () => {
  it('an error document is a hydra:Error', async () => {
    const hydra = client()
    for (const path of ['/books?page=0', '/books/999999', '/nowhere']) {
      const { response, representation } = await hydra.loadResource(`${origin}${path}`)
      expect(response?.xhr.ok).toBe(false)
      const root = representation?.root
      expect(root, `alcaeus read no error in ${path}`).toBeTruthy()
      expect(root?.pointer.out(rdf.namedNode(RDF_TYPE)).values).toContain(`${HYDRA}Error`)
      expect(root?.pointer.out(rdf.namedNode(`${HYDRA}title`)).value).toBeTruthy()
    }
  })

  it("an error's @id resolves to a hydra:Error describing that kind of error", async () => {
    const hydra = client()
    const { response } = await hydra.loadResource(`${origin}/books?page=0`)
    const body = (await fetch(`${origin}/books?page=0`).then((r) => r.json())) as { '@id': string }
    expect(response?.xhr.status).toBe(400)
    const { representation } = await hydra.loadResource(new URL(body['@id'], origin).href)
    const root = representation?.root
    expect(root?.id.value).toBe(`${origin}/errors/400`)
    expect(root?.pointer.out(rdf.namedNode(RDF_TYPE)).values).toContain(`${HYDRA}Error`)
    expect(root?.pointer.out(rdf.namedNode(`${HYDRA}description`)).value).toBeTruthy()
  })

  it('an item is found at its IRI, typed as its class, whose superclass is its declared type', async () => {
    const hydra = client()
    const { representation } = await hydra.loadResource(`${origin}/books/3`)
    const root = representation?.root
    expect(root?.id.value).toBe(`${origin}/books/3`)
    expect(root?.pointer.out(rdf.namedNode(RDF_TYPE)).values).toEqual([
      `${origin}/docs.jsonld#Book`,
    ])
    const docs = await hydra.loadDocumentation(`${origin}/docs.jsonld`)
    const book = docs?.pointer
      .out(rdf.namedNode(`${HYDRA}supportedClass`))
      .filter((node) => node.value === `${origin}/docs.jsonld#Book`)
    expect(book?.out(rdf.namedNode(`${RDFS}subClassOf`)).values).toEqual([
      'https://schema.org/Book',
    ])
  })

  it('the documentation is downloaded again only when it changed (ETag, 304)', async () => {
    const hydra = client()
    requests.length = 0
    let url: string | undefined = `${origin}/authors`
    while (url) url = (await loadPage(hydra, url)).next
    const pages = requests.filter((path) => path === '/authors').length
    expect(pages).toBe(3)
    // alcaeus asks for the documentation after each page, with If-None-Match once it has it.
    const documentation = await fetch(`${origin}/docs.jsonld`)
    const etag = documentation.headers.get('ETag')
    expect(etag).toBeTruthy()
    expect(documentation.headers.get('Cache-Control')).toBeTruthy()
    const again = await fetch(`${origin}/docs.jsonld`, { headers: { 'If-None-Match': etag ?? '' } })
    expect(again.status).toBe(304)
  })
})

/**
 * A client of the Hydra core specification that reads a collection's members' class only from
 * `hydra:memberAssertion` (`rdf:type` and the class, as API Platform writes it from 4.4), never
 * from `owl:equivalentClass`, over alcaeus's graph of the documentation.
 */
describe('a client reading only hydra:memberAssertion', () => {
  const named = (iri: string) => rdf.namedNode(iri)
  type Graph = NonNullable<Awaited<ReturnType<Client['loadDocumentation']>>>['pointer']
  /** The nodes `iri` leads to from `pointer`. */
  const out = (pointer: Graph, iri: string) => pointer.out(named(iri))
  type Nodes = ReturnType<typeof out>
  type Node = Parameters<Parameters<Nodes['forEach']>[0]>[0]

  /** The class every member of a collection reached through `property` is asserted to be of. */
  function memberClass(property: Node): string | undefined {
    const assertions = property
      .out(named(`${HYDRA}memberAssertion`))
      .filter((assertion) => assertion.out(named(`${HYDRA}property`)).value === RDF_TYPE)
    expect(assertions.values, `${property.value}: member assertions`).toHaveLength(1)
    return assertions.out(named(`${HYDRA}object`)).value
  }

  /** The members of a collection's first page, each with its types, as alcaeus reads them. */
  async function membersOf(hydra: Client, url: string): Promise<Nodes> {
    const { representation } = await hydra.loadResource(url)
    const members = representation?.root?.pointer.out(named(`${HYDRA}member`))
    expect(members?.values.length, `${url} has members`).toBeGreaterThan(0)
    return members as Nodes
  }

  it("finds every collection's class, and every member of every collection is of it", async () => {
    const hydra = client()
    const entrypoint = (await hydra.loadResource(`${origin}/`)).representation?.root?.pointer
    const docs = (await hydra.loadDocumentation(`${origin}/docs.jsonld`))?.pointer
    if (!entrypoint || !docs) throw new Error('no entrypoint or documentation')
    const classes = out(docs, `${HYDRA}supportedClass`)
    const properties = (id: string) =>
      classes
        .filter((node) => node.value === id)
        .out(named(`${HYDRA}supportedProperty`))
        .out(named(`${HYDRA}property`))
    const entries = properties(`${origin}/docs.jsonld#Entrypoint`).toArray()
    expect(entries).toHaveLength(8)
    const found = new Map<string, string>()
    for (const entry of entries) {
      const type = memberClass(entry) as string
      expect(classes.values, `${entry.value}: ${type} is a class`).toContain(type)
      const url = entrypoint.out(entry.term).value as string
      found.set(new URL(url).pathname, type)
      const members = await membersOf(hydra, url)
      for (const member of members.toArray())
        expect(member.out(named(RDF_TYPE)).values, member.value).toEqual([type])
      // Each to-many relation of the class: its sub-collection, from the first member.
      const first = members.toArray()[0] as Node
      for (const link of properties(type).toArray()) {
        if (link.out(named(`${HYDRA}memberAssertion`)).values.length === 0) continue
        const related = memberClass(link) as string
        const sub = first.out(link.term).value as string
        found.set(`${new URL(url).pathname} ${link.value.split('#')[1]}`, related)
        const { representation } = await hydra.loadResource(sub)
        for (const member of representation?.root?.pointer.out(named(`${HYDRA}member`)).toArray() ??
          [])
          expect(member.out(named(RDF_TYPE)).values, member.value).toEqual([related])
      }
    }
    const docsOf = (name: string) => `${origin}/docs.jsonld#${name}`
    expect(Object.fromEntries(found)).toEqual({
      '/authors': docsOf('Author'),
      '/authors Author/books': docsOf('Book'),
      '/books': docsOf('Book'),
      '/books Book/reviews': docsOf('Review'),
      '/books Book/loans': docsOf('Loan'),
      '/reviews': docsOf('Review'),
      '/languages': docsOf('Language'),
      '/loans': docsOf('Loan'),
      '/activities': docsOf('Activity'),
      '/genres': docsOf('Genre'),
      '/releases': docsOf('Release'),
    })
  })
})
