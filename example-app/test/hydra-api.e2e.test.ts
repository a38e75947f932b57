/**
 * The example app as a Hydra API that clients can discover, over real HTTP: the entrypoint, the
 * API documentation, resolvable contexts (every response expanded with the `jsonld` processor in
 * safe mode, so nothing is dropped and every IRI is absolute), the `Link` header on every
 * response, content negotiation, CORS, API Platform's own documentation parser, and the types a
 * Hono RPC client gets.
 */
import { parseHydraDocumentation } from '@api-platform/api-doc-parser'
import { type HydraErrorBody, type HydraItem, hydraNotFound } from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import { hc } from 'hono/client'
import jsonld from 'jsonld'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type { BookCollectionQuery, BookMember, ReviewMember } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp, type ExampleApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { checkedAgainstOpenApi } from './support/openapi-check.js'

const HYDRA = 'http://www.w3.org/ns/hydra/core#'
const SCHEMA = 'https://schema.org/'
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#'
const ADMIN_ORIGIN = 'http://admin.example'

let database: TestDatabase
let prisma: PrismaClient
/** The example app at the root, allowing the admin's origin (CORS). */
let origin: string
/** The same app mounted under /api. */
let mounted: string
/** Mounted under /api as docs/deployment.md shows, with `hydraNotFound` in the outer app. */
let mountedAsDocumented: string
const closers: Array<() => Promise<void>> = []
/** Every response of the file, checked against the app's OpenAPI document. */
let openApi: ReturnType<typeof checkedAgainstOpenApi>
let mountedOpenApi: ReturnType<typeof checkedAgainstOpenApi>

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  openApi = checkedAgainstOpenApi(createApp(prisma, { cors: ADMIN_ORIGIN }).fetch)
  mountedOpenApi = checkedAgainstOpenApi(new Hono().route('/api', createApp(prisma)).fetch, {
    documentPath: '/api/openapi.json',
  })
  const root = await startServer(openApi.fetch)
  const api = await startServer(mountedOpenApi.fetch)
  const outer = new Hono().route('/api', createApp(prisma))
  outer.notFound(hydraNotFound)
  const documented = await startServer(outer.fetch)
  origin = root.origin
  mounted = `${api.origin}/api`
  mountedAsDocumented = `${documented.origin}/api`
  closers.push(root.close, api.close, documented.close)
})

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

type Expanded = Record<string, unknown>

/** Loads contexts (and any other document) from the server, as a client would. */
const documentLoader = async (url: string) => {
  const response = await fetch(url, { headers: { Accept: 'application/ld+json' } })
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  return { contextUrl: null, documentUrl: url, document: await response.json() }
}

/** Fetches a document and expands it; safe mode fails on anything dropped or left relative. */
async function expand(url: string): Promise<Expanded[]> {
  const response = await fetch(url)
  const body = await response.json()
  const options = { base: url, documentLoader, safe: true }
  return (await jsonld.expand(body, options as unknown as jsonld.Options.Expand)) as Expanded[]
}

const absolute = /^(https?|urn):/

/** Every key and every `@type` of an expanded document is an absolute IRI (or a keyword). */
function expectAbsolute(node: unknown): void {
  if (Array.isArray(node)) {
    for (const entry of node) expectAbsolute(entry)
    return
  }
  if (typeof node !== 'object' || node === null) return
  for (const [key, value] of Object.entries(node)) {
    // A node's types are a list; a typed literal's datatype is one IRI (or @json).
    if (key === '@type') {
      for (const type of [value].flat() as string[]) {
        if (type !== '@json') expect(type).toMatch(absolute)
      }
    } else if (key === '@id') expect(value).toMatch(absolute)
    else if (!key.startsWith('@')) expect(key).toMatch(absolute)
    expectAbsolute(value)
  }
}

const only = (nodes: Expanded[]): Expanded => {
  expect(nodes).toHaveLength(1)
  return nodes[0] as Expanded
}
const ids = (values: unknown) => (values as Array<{ '@id': string }>).map((value) => value['@id'])
const literals = (values: unknown) =>
  (values as Array<{ '@value': unknown }>).map((value) => value['@value'])

describe('collections expand to Hydra IRIs', () => {
  it('a full page with the hydra: prefix: members, total, view and its links', async () => {
    const collection = only(await expand(`${origin}/books?page=2`))
    expectAbsolute(collection)
    expect(collection['@id']).toBe(`${origin}/books`)
    expect(collection['@type']).toEqual([`${HYDRA}Collection`])
    expect(literals(collection[`${HYDRA}totalItems`])).toEqual([120])
    const members = collection[`${HYDRA}member`] as Expanded[]
    expect(members).toHaveLength(10)
    expect(members[0]?.['@type']).toEqual([`${origin}/docs.jsonld#Book`])
    expect(literals(members[0]?.[`${SCHEMA}name`])).toHaveLength(1)
    expect(members[0]?.[`${origin}/docs.jsonld#Book/pages`]).toBeDefined()
    const view = only(collection[`${HYDRA}view`] as Expanded[])
    expect(view['@type']).toEqual([`${HYDRA}PartialCollectionView`])
    expect(ids(view[`${HYDRA}first`])).toEqual([`${origin}/books?page=1`])
    expect(ids(view[`${HYDRA}last`])).toEqual([`${origin}/books?page=12`])
    expect(ids(view[`${HYDRA}previous`])).toEqual([`${origin}/books?page=1`])
    expect(ids(view[`${HYDRA}next`])).toEqual([`${origin}/books?page=3`])
  })

  it('the same IRIs without the prefix (Review, partial paging)', async () => {
    const collection = only(await expand(`${origin}/reviews?page=2`))
    expectAbsolute(collection)
    expect(collection['@type']).toEqual([`${HYDRA}Collection`])
    expect(collection[`${HYDRA}member`]).toHaveLength(20)
    expect((collection[`${HYDRA}member`] as Expanded[])[0]?.['@type']).toEqual([
      `${origin}/docs.jsonld#Review`,
    ])
    const view = only(collection[`${HYDRA}view`] as Expanded[])
    expect(view['@type']).toEqual([`${HYDRA}PartialCollectionView`])
    expect(ids(view[`${HYDRA}previous`])).toEqual([`${origin}/reviews?page=1`])
    expect(ids(view[`${HYDRA}next`])).toEqual([`${origin}/reviews?page=3`])
    expect(collection[`${HYDRA}totalItems`]).toBeUndefined()
  })

  it('cursor pages, streamed unpaged collections and custom collections', async () => {
    const feed = only(await expand(`${origin}/activities`))
    expectAbsolute(feed)
    const next = ids(only(feed[`${HYDRA}view`] as Expanded[])[`${HYDRA}next`])
    expect(next).toHaveLength(1)
    expect(next[0]).toMatch(
      new RegExp(`^${origin}/activities\\?id%5Blt%5D=\\d+&occurredAt%5Blt%5D=[^&]+$`)
    )
    const loans = only(await expand(`${origin}/loans?pagination=false`))
    expectAbsolute(loans)
    expect(literals(loans[`${HYDRA}totalItems`])).toEqual([
      (loans[`${HYDRA}member`] as unknown[]).length,
    ])
    for (const path of ['/genres', '/releases?page=2']) {
      const custom = only(await expand(`${origin}${path}`))
      expectAbsolute(custom)
      expect(custom['@type']).toEqual([`${HYDRA}Collection`])
    }
    const release = (only(await expand(`${origin}/releases`))[`${HYDRA}member`] as Expanded[])[0]
    expect(release?.['@type']).toEqual([`${origin}/docs.jsonld#Release`])
    expect(literals(release?.[`${SCHEMA}startDate`])).toHaveLength(1)
  })

  it('items, errors and the app mounted under a path', async () => {
    const book = only(await expand(`${origin}/books/7`))
    expectAbsolute(book)
    expect(book['@id']).toBe(`${origin}/books/7`)
    expect(book['@type']).toEqual([`${origin}/docs.jsonld#Book`])
    const error = only(await expand(`${origin}/books?page=0`))
    expectAbsolute(error)
    expect(error['@type']).toEqual([`${HYDRA}Error`])
    expect(ids(error['https://www.rfc-editor.org/rfc/rfc9457#type'])).toEqual([
      `${origin}/errors/400`,
    ])
    expect(literals(error[`${HYDRA}description`])).toEqual(['Page should not be less than 1'])
    const unprefixedError = only(await expand(`${origin}/reviews?page=0`))
    expect(unprefixedError['@type']).toEqual([`${HYDRA}Error`])
    expect(literals(unprefixedError[`${HYDRA}description`])).toEqual([
      'Page should not be less than 1',
    ])
    const under = only(await expand(`${mounted}/books?page=2`))
    expectAbsolute(under)
    expect(ids(only(under[`${HYDRA}view`] as Expanded[])[`${HYDRA}next`])).toEqual([
      `${mounted}/books?page=3`,
    ])
    expect(
      (under[`${HYDRA}member`] as Expanded[])[0]?.[`${mounted}/docs.jsonld#Book/pages`]
    ).toBeDefined()
  })
})

describe('the entrypoint and the API documentation', () => {
  it('the entrypoint links every collection through terms of the documentation', async () => {
    const entrypoint = only(await expand(`${origin}/`))
    expectAbsolute(entrypoint)
    expect(entrypoint['@type']).toEqual([`${origin}/docs.jsonld#Entrypoint`])
    expect(ids(entrypoint[`${origin}/docs.jsonld#Entrypoint/book`])).toEqual([`${origin}/books`])
    expect(entrypoint[`${origin}/docs.jsonld#Entrypoint/bookRecent`]).toBeUndefined()
    expect(ids(entrypoint[`${origin}/docs.jsonld#Entrypoint/genre`])).toEqual([`${origin}/genres`])
    const mountedEntrypoint = only(await expand(mounted))
    expect(mountedEntrypoint['@id']).toBe(mounted)
    expect(ids(mountedEntrypoint[`${mounted}/docs.jsonld#Entrypoint/book`])).toEqual([
      `${mounted}/books`,
    ])
  })

  it('documents each class with its shown fields, and each collection with its paging parameters', async () => {
    const docs = only(await expand(`${origin}/docs.jsonld`))
    expectAbsolute(docs)
    expect(docs['@type']).toEqual([`${HYDRA}ApiDocumentation`])
    expect(literals(docs[`${HYDRA}title`])).toEqual(['Library API'])
    expect(ids(docs[`${HYDRA}entrypoint`])).toEqual([`${origin}/`])
    const classes = docs[`${HYDRA}supportedClass`] as Expanded[]
    const byId = new Map(classes.map((entry) => [entry['@id'] as string, entry]))
    const properties = (id: string) =>
      ((byId.get(id)?.[`${HYDRA}supportedProperty`] ?? []) as Expanded[]).map(
        (property) => (property[`${HYDRA}property`] as Expanded[])[0]?.['@id']
      )
    expect(properties(`${origin}/docs.jsonld#Author`)).toEqual([
      `${origin}/docs.jsonld#Author/id`,
      `${SCHEMA}name`,
      `${origin}/docs.jsonld#Author/country`,
      `${origin}/docs.jsonld#Author/books`,
    ])
    expect(properties(`${origin}/docs.jsonld#Book`)).toContain(`${SCHEMA}isbn`)
    // Each class is the API's own; the type a resource declares is its superclass.
    const superclasses = (id: string) => ids(byId.get(id)?.[`${RDFS}subClassOf`] ?? [])
    expect(superclasses(`${origin}/docs.jsonld#Book`)).toEqual([`${SCHEMA}Book`])
    expect(superclasses(`${origin}/docs.jsonld#Author`)).toEqual([`${SCHEMA}Person`])
    expect(superclasses(`${origin}/docs.jsonld#Release`)).toEqual([`${SCHEMA}PublicationEvent`])
    expect(superclasses(`${origin}/docs.jsonld#Loan`)).toEqual([])
    const entrypoint = byId.get(`${origin}/docs.jsonld#Entrypoint`) as Expanded
    const links = entrypoint[`${HYDRA}supportedProperty`] as Expanded[]
    const loans = links
      .map((link) => (link[`${HYDRA}property`] as Expanded[])[0] as Expanded)
      .find((property) => property['@id'] === `${origin}/docs.jsonld#Entrypoint/loan`) as Expanded
    const operation = (loans[`${HYDRA}supportedOperation`] as Expanded[])[0] as Expanded
    expect(literals(operation[`${HYDRA}method`])).toEqual(['GET'])
    const search = only(operation[`${HYDRA}search`] as Expanded[])
    expect(literals(search[`${HYDRA}template`])).toEqual([
      '/loans{?page,itemsPerPage,pagination,partial,exists[returnedAt],properties[],properties[book][]}',
    ])
    expect(ids(search[`${HYDRA}variableRepresentation`])).toEqual([`${HYDRA}BasicRepresentation`])
    const mapped = (search[`${HYDRA}mapping`] as Expanded[]).map((mapping) => [
      literals(mapping[`${HYDRA}variable`])[0],
      ids(mapping[`${HYDRA}property`])[0],
    ])
    expect(mapped).toEqual([
      ['page', `${HYDRA}pageIndex`],
      ['itemsPerPage', `${HYDRA}limit`],
      ['pagination', `${origin}/docs.jsonld#pagination`],
      ['partial', `${origin}/docs.jsonld#partial`],
      // Then its filters, as its responses' hydra:search lists them: whether a loan has a
      // returnedAt, a boolean property of its own (not returnedAt, a date).
      ['exists[returnedAt]', `${origin}/docs.jsonld#Loan/returnedAt/exists`],
      // The property filter's: the properties its members show (docs/member-shape.md).
      ['properties[]', `${origin}/docs.jsonld#Loan/properties`],
      ['properties[book][]', `${origin}/docs.jsonld#Loan/properties`],
    ])
    // A path ending at a relation (`book.author` on reviews) names an author, by IRI or id: its
    // property's range is the Author class.
    const reviews = links
      .map((link) => (link[`${HYDRA}property`] as Expanded[])[0] as Expanded)
      .find((property) => property['@id'] === `${origin}/docs.jsonld#Entrypoint/review`) as Expanded
    const reviewSearch = only(
      ((reviews[`${HYDRA}supportedOperation`] as Expanded[])[0] as Expanded)[
        `${HYDRA}search`
      ] as Expanded[]
    )
    const byAuthor = (reviewSearch[`${HYDRA}mapping`] as Expanded[]).find(
      (mapping) => literals(mapping[`${HYDRA}variable`])[0] === 'book.author'
    ) as Expanded
    const authorProperty = only(byAuthor[`${HYDRA}property`] as Expanded[])
    expect(authorProperty['@id']).toBe(`${origin}/docs.jsonld#Review/book.author`)
    expect(ids(authorProperty[`${RDFS}range`])).toEqual([`${origin}/docs.jsonld#Author`])
  })

  it('gives two things of one name two IRIs: the enum Genre and the type of /genres', async () => {
    // Every node of the documentation, flattened by the jsonld processor: an IRI names one thing.
    const response = await fetch(`${origin}/docs.jsonld`)
    const flat = (await jsonld.flatten((await response.json()) as jsonld.JsonLdDocument, {}, {
      base: `${origin}/docs.jsonld`,
      safe: true,
    } as jsonld.Options.Flatten)) as { '@graph': Expanded[] }
    const docs = `${origin}/docs.jsonld`
    const typesOf = new Map(
      flat['@graph'].map((node) => [
        new URL(node['@id'] as string, docs).href,
        [node['@type'] ?? []].flat() as string[],
      ])
    )
    for (const [id, types] of typesOf)
      expect(
        types.includes(`${HYDRA}Class`) && types.includes(`${RDFS}Datatype`),
        `${id} is a class and a datatype`
      ).toBe(false)
    expect(typesOf.get(`${origin}/docs.jsonld#Genre`)).toEqual([`${HYDRA}Class`])
    expect(typesOf.get(`${origin}/docs.jsonld#enum/Genre`)).toEqual([`${RDFS}Datatype`])
  })

  it("API Platform's api-doc-parser finds every resource with its fields and no hidden field", async () => {
    const { api, status } = await parseHydraDocumentation(origin)
    expect(status).toBe(200)
    expect(api.title).toBe('Library API')
    const resources = Object.fromEntries(
      (api.resources ?? []).map((resource) => [
        resource.name,
        { id: resource.id, fields: resource.fields?.map((field) => field.name) },
      ])
    )
    const bookFields = [
      ...['id', 'title', 'isbn', 'genre', 'pages', 'price', 'publishedAt'],
      ...['author', 'reviews', 'loans'],
    ]
    const book = { id: `${origin}/docs.jsonld#Book`, fields: bookFields }
    expect(resources).toEqual({
      authors: { id: `${origin}/docs.jsonld#Author`, fields: ['id', 'name', 'country', 'books'] },
      books: book,
      reviews: {
        id: `${origin}/docs.jsonld#Review`,
        fields: ['id', 'rating', 'body', 'createdAt', 'book'],
      },
      languages: { id: `${origin}/docs.jsonld#Language`, fields: ['code', 'name'] },
      loans: {
        id: `${origin}/docs.jsonld#Loan`,
        fields: ['id', 'borrower', 'loanedAt', 'returnedAt', 'book'],
      },
      activities: {
        id: `${origin}/docs.jsonld#Activity`,
        fields: ['id', 'occurredAt', 'kind', 'summary'],
      },
      genres: { id: `${origin}/docs.jsonld#Genre`, fields: ['name', 'books'] },
      releases: {
        id: `${origin}/docs.jsonld#Release`,
        fields: ['position', 'title', 'author', 'releaseDate'],
      },
    })
    const books = api.resources?.find((resource) => resource.name === 'books')
    const types = Object.fromEntries(books?.fields?.map((field) => [field.name, field.type]) ?? [])
    expect(types).toMatchObject({ pages: 'integer', price: 'decimal', publishedAt: 'dateTime' })
    expect(books?.fields?.find((field) => field.name === 'title')?.required).toBe(true)
    const loans = api.resources?.find((resource) => resource.name === 'loans')
    expect(loans?.fields?.find((field) => field.name === 'returnedAt')?.required).toBe(false)
    // The collection, then /books/recent and /books/popular as list operations of the resource.
    expect(books?.operations?.map((operation) => operation.type)).toEqual([
      'list',
      'list',
      'list',
      'show',
    ])
  })
})

describe('relations as links', () => {
  it('expand to node references: the related item, the sub-collection, under a mount path too', async () => {
    const row = await prisma.book.findUniqueOrThrow({ where: { id: 7 } })
    for (const root of [origin, mounted]) {
      const book = only(await expand(`${root}/books/7`))
      expectAbsolute(book)
      expect(book[`${root}/docs.jsonld#Book/author`]).toEqual([
        { '@id': `${root}/authors/${row.authorId}` },
      ])
      expect(book[`${root}/docs.jsonld#Book/reviews`]).toEqual([
        { '@id': `${root}/books/7/reviews` },
      ])
      expect(book[`${root}/docs.jsonld#Book/loans`]).toEqual([{ '@id': `${root}/books/7/loans` }])
    }
    // A sub-collection: its own @id, members linking back to the parent.
    const books = only(await expand(`${origin}/authors/3/books`))
    expectAbsolute(books)
    expect(books['@id']).toBe(`${origin}/authors/3/books`)
    const members = books[`${HYDRA}member`] as Expanded[]
    const expected = await prisma.book.count({ where: { authorId: 3 } })
    expect(members).toHaveLength(Math.min(expected, 10))
    for (const member of members)
      expect(ids(member[`${origin}/docs.jsonld#Book/author`])).toEqual([`${origin}/authors/3`])
    // Review is served without the prefix: its link is a term of its context all the same.
    const review = only(await expand(`${origin}/reviews/1`))
    const reviewRow = await prisma.review.findUniqueOrThrow({ where: { id: 1 } })
    expect(ids(review[`${origin}/docs.jsonld#Review/book`])).toEqual([
      `${origin}/books/${reviewRow.bookId}`,
    ])
  })

  it('are documented as hydra:Link: to-one with the related class, to-many as its collection', async () => {
    const docs = only(await expand(`${origin}/docs.jsonld`))
    const classes = docs[`${HYDRA}supportedClass`] as Expanded[]
    const property = (type: string, name: string) => {
      const owner = classes.find((entry) => entry['@id'] === type) as Expanded
      const supported = (owner[`${HYDRA}supportedProperty`] as Expanded[]).find(
        (entry) => literals(entry[`${HYDRA}title`])[0] === name
      ) as Expanded
      return only(supported[`${HYDRA}property`] as Expanded[])
    }
    const author = property(`${origin}/docs.jsonld#Book`, 'author')
    expect(author['@type']).toEqual([`${HYDRA}Link`])
    expect(ids(author['http://www.w3.org/2000/01/rdf-schema#range'])).toEqual([
      `${origin}/docs.jsonld#Author`,
    ])
    expect(literals(author['http://www.w3.org/2002/07/owl#maxCardinality'])).toEqual([1])
    const books = property(`${origin}/docs.jsonld#Author`, 'books')
    expect(books['@type']).toEqual([`${HYDRA}Link`])
    const [collection, members] = books['http://www.w3.org/2000/01/rdf-schema#range'] as Expanded[]
    expect(collection?.['@id']).toBe(`${HYDRA}Collection`)
    const restriction = only(
      members?.['http://www.w3.org/2002/07/owl#equivalentClass'] as Expanded[]
    )
    expect(ids(restriction['http://www.w3.org/2002/07/owl#onProperty'])).toEqual([`${HYDRA}member`])
    expect(ids(restriction['http://www.w3.org/2002/07/owl#allValuesFrom'])).toEqual([
      `${origin}/docs.jsonld#Book`,
    ])
    // And as the Hydra core spec asserts it: each member is rdf:type the class.
    const assertion = only(books[`${HYDRA}memberAssertion`] as Expanded[])
    expect(ids(assertion[`${HYDRA}property`])).toEqual([
      'http://www.w3.org/1999/02/22-rdf-syntax-ns#type',
    ])
    expect(ids(assertion[`${HYDRA}object`])).toEqual([`${origin}/docs.jsonld#Book`])
    expect(books['http://www.w3.org/2002/07/owl#maxCardinality']).toBeUndefined()
  })

  it('api-doc-parser reports each to-one link as a reference to the related resource', async () => {
    const { api } = await parseHydraDocumentation(origin)
    const field = (resource: string, name: string) =>
      api.resources
        ?.find((candidate) => candidate.name === resource)
        ?.fields?.find((candidate) => candidate.name === name)
    for (const [resource, name, target] of [
      ['books', 'author', 'authors'],
      ['reviews', 'book', 'books'],
      ['loans', 'book', 'books'],
    ] as const) {
      const link = field(resource, name)
      expect(link?.reference, `${resource}.${name}`).toMatchObject({ name: target })
      expect(link?.maxCardinality).toBe(1)
      expect(link?.embedded).toBeNull()
      expect(link?.required).toBe(true)
    }
    // To-many: one IRI, of a collection; a reference would make clients expect a list of IRIs.
    for (const [resource, name] of [
      ['authors', 'books'],
      ['books', 'reviews'],
      ['books', 'loans'],
    ] as const) {
      const link = field(resource, name)
      expect(link?.range, `${resource}.${name}`).toBe(`${HYDRA}Collection`)
      expect(link?.reference).toBeNull()
      expect(link?.embedded).toBeNull()
    }
  })
})

describe('under a mount path, every reference of a response resolves', () => {
  /** The documentation URL of a `Link` header's apiDocumentation link. */
  const documentation = (link: string | null) =>
    /<([^>]+)>; rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"/.exec(link ?? '')?.[1]

  it.each([
    ['an unknown path', 'GET', '/nothing-here'],
    ['an unknown path below a collection', 'GET', '/books/1/more'],
    ['a method on a path no route takes', 'POST', '/nothing-here'],
  ])("hydraNotFound's 404 for %s: its @context and Link", async (_, method, path) => {
    const response = await fetch(`${mountedAsDocumented}${path}`, { method })
    expect(response.status).toBe(404)
    const docs = documentation(response.headers.get('link'))
    expect(docs).toBe(`${mountedAsDocumented}/docs.jsonld`)
    expect((await fetch(docs as string)).status).toBe(200)
    const body = (await response.json()) as Record<string, unknown>
    expect(body['@context']).toBe('/api/contexts/Error')
    // Expanded by a JSON-LD processor, which loads the context from the server.
    const options = { base: `${mountedAsDocumented}${path}`, documentLoader, safe: true }
    const [expanded] = (await jsonld.expand(
      body,
      options as unknown as jsonld.Options.Expand
    )) as Expanded[]
    expect(expanded?.[`${HYDRA}description`]).toEqual([
      { '@value': `No route matches ${method} /api${path}.` },
    ])
  })

  it.each([['/'], ['/books'], ['/contexts/Error']])(
    "hydraNotFound's 404 outside the mount (%s) names nothing that would not resolve",
    async (path) => {
      const outside = new URL(path, mountedAsDocumented).href
      const response = await fetch(outside)
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
      expect(response.headers.get('link')).toBeNull()
      expect(await response.json()).toEqual({
        title: 'Not Found',
        detail: `No route matches GET ${path}.`,
        status: 404,
      })
    }
  )

  it('a 405 for a method a route does not take: its @context and Link', async () => {
    const response = await fetch(`${mountedAsDocumented}/books`, { method: 'POST' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    const docs = documentation(response.headers.get('link'))
    expect(docs).toBe(`${mountedAsDocumented}/docs.jsonld`)
    expect((await fetch(docs as string)).status).toBe(200)
    const body = (await response.json()) as Record<string, unknown>
    expect(body['@context']).toBe('/api/contexts/Error')
    expect((await fetch(new URL('/api/contexts/Error', mountedAsDocumented))).status).toBe(200)
  })

  it('the entrypoint answers at /api/ as at /api, naming /api canonical', async () => {
    for (const base of [mounted, mountedAsDocumented]) {
      const [withSlash, without] = await Promise.all([fetch(`${base}/`), fetch(base)])
      expect(withSlash.status).toBe(200)
      expect(without.headers.get('link')).not.toContain('canonical')
      // The same links, and the canonical one.
      const links = (response: Response) => (response.headers.get('link') ?? '').split(', ')
      expect(links(withSlash).sort()).toEqual(
        [...links(without), `<${new URL(base).origin}/api>; rel="canonical"`].sort()
      )
      expect(await withSlash.json()).toEqual(await without.json())
    }
  })
})

describe('headers: Link, content negotiation, CORS', () => {
  const link = (base: string) =>
    `<${base}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`

  it('every response links the documentation: collections, items, streams, errors, the entrypoint', async () => {
    const paths = [
      '/',
      '/docs.jsonld',
      '/books?page=2',
      '/books/1',
      '/loans?pagination=false',
      '/genres',
      '/contexts/Book',
      '/books?page=0',
      '/books/999999',
      '/nothing-here',
    ]
    const errorLink = '<http://www.w3.org/ns/hydra/error>; rel="http://www.w3.org/ns/json-ld#error"'
    // A problem links its context too, so clients reading only JSON-LD types read it as JSON-LD.
    const contextLink = `<${origin}/contexts/Error>; rel="http://www.w3.org/ns/json-ld#context"`
    // A page's view links follow (link-headers.e2e.test.ts).
    const pages = (at: string, ...rels: Array<[number, string]>) =>
      rels.map(([page, rel]) => `, <${at}?page=${page}>; rel="${rel}"`).join('')
    const paged: Record<string, string> = {
      '/books?page=2': pages(
        `${origin}/books`,
        [1, 'first'],
        [12, 'last'],
        [1, 'prev'],
        [3, 'next']
      ),
      '/genres': pages(`${origin}/genres`, [1, 'first'], [3, 'last'], [2, 'next']),
      // The entrypoint links the API catalog and the API's descriptions (api-catalog.e2e.test.ts).
      '/':
        `, <${origin}/.well-known/api-catalog>; rel="api-catalog"` +
        `, <${origin}/openapi.json>; rel="service-desc"; type="application/json"` +
        `, <${origin}/docs.jsonld>; rel="service-desc"; type="application/ld+json"` +
        `, <${origin}/docs>; rel="service-doc"; type="text/html"`,
    }
    for (const path of paths) {
      const response = await fetch(`${origin}${path}`)
      const expected =
        response.status >= 400
          ? `${errorLink}, ${link(origin)}, ${contextLink}`
          : `${link(origin)}${paged[path] ?? ''}`
      expect(response.headers.get('link'), path).toBe(expected)
      expect(response.headers.get('vary'), path).toContain('Accept')
      await response.arrayBuffer()
    }
    const under = await fetch(`${mounted}/books`)
    expect(under.headers.get('link')).toBe(
      `${link(mounted)}${pages(`${mounted}/books`, [1, 'first'], [12, 'last'], [2, 'next'])}`
    )
  })

  it('serves JSON-LD by default, JSON when preferred, and 406 to a client that accepts neither', async () => {
    const accept = async (value: string | undefined) => {
      const response = await fetch(`${origin}/books?page=2`, {
        headers: value === undefined ? {} : { Accept: value },
      })
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        body: await response.json(),
      }
    }
    for (const value of [
      undefined,
      '*/*',
      'application/ld+json',
      'application/*',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'application/json;q=0.5, application/ld+json',
    ]) {
      const response = await accept(value)
      expect(response.status, value).toBe(200)
      expect(response.type, value).toBe('application/ld+json; charset=utf-8')
    }
    const json = await accept('application/json')
    expect(json.type).toBe('application/json; charset=utf-8')
    expect(json.body).toEqual((await accept(undefined)).body)
    for (const value of ['text/html', 'application/xml', 'application/ld+json;q=0, text/csv']) {
      const refused = await accept(value)
      expect(refused.status, value).toBe(406)
      expect(refused.type).toBe('application/problem+json; charset=utf-8')
      expect(refused.body).toMatchObject({
        '@type': 'hydra:Error',
        status: 406,
        title: 'Not Acceptable',
        detail: `This API serves application/ld+json and application/json; the request accepts only: ${value}.`,
      })
    }
  })

  it('lets the configured origin read responses and the Link header, and no other', async () => {
    const allowed = await fetch(`${origin}/books`, { headers: { Origin: ADMIN_ORIGIN } })
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ADMIN_ORIGIN)
    expect(allowed.headers.get('access-control-expose-headers')).toMatch(/\bLink\b/)
    // Its validator too: a browser client revalidates with If-None-Match (docs/hydra.md#http-caching).
    expect(allowed.headers.get('access-control-expose-headers')).toMatch(/\bETag\b/)
    expect(allowed.headers.get('etag')).toMatch(/^"/)
    await allowed.arrayBuffer()
    const revalidated = await fetch(`${origin}/books`, {
      headers: { Origin: ADMIN_ORIGIN, 'If-None-Match': allowed.headers.get('etag') ?? '' },
    })
    expect(revalidated.status).toBe(304)
    expect(revalidated.headers.get('access-control-allow-origin')).toBe(ADMIN_ORIGIN)
    const preflight = await fetch(`${origin}/books`, {
      method: 'OPTIONS',
      headers: {
        Origin: ADMIN_ORIGIN,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'accept',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ADMIN_ORIGIN)
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET')
    const other = await fetch(`${origin}/books`, {
      headers: { Origin: 'http://elsewhere.example' },
    })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    await other.arrayBuffer()
    const unconfigured = await fetch(`${mounted}/books`, { headers: { Origin: ADMIN_ORIGIN } })
    expect(unconfigured.headers.get('access-control-allow-origin')).toBeNull()
    await unconfigured.arrayBuffer()
  })
})

describe('a Hono RPC client', () => {
  it('gets typed members from generated collections and items', async () => {
    const client = hc<ExampleApp>(origin)
    const booksResponse = await client.books.$get()
    if (!booksResponse.ok) throw new Error(`GET /books: ${booksResponse.status}`)
    const books = await booksResponse.json()
    expectTypeOf(books['hydra:member']).toEqualTypeOf<BookMember[]>()
    expectTypeOf(books['hydra:totalItems']).toEqualTypeOf<number | undefined>()
    expect(books['hydra:member'][0]?.['@type']).toBe('Book')
    const reviewsResponse = await client.reviews.$get()
    if (!reviewsResponse.ok) throw new Error(`GET /reviews: ${reviewsResponse.status}`)
    const reviews = await reviewsResponse.json()
    expectTypeOf(reviews.member).toEqualTypeOf<ReviewMember[]>()
    expectTypeOf(reviews['@type']).toEqualTypeOf<'Collection'>()
    expect(reviews.member).toHaveLength(20)
    const bookResponse = await client.books[':id'].$get({ param: { id: '3' } })
    if (!bookResponse.ok) throw new Error(`GET /books/3: ${bookResponse.status}`)
    const book = await bookResponse.json()
    expectTypeOf(book).toEqualTypeOf<HydraItem<BookMember>>()
    expect(book.id).toBe(3)
  })

  it('types the declared query parameters and the problems of each route', async () => {
    const client = hc<ExampleApp>(origin)
    type BooksQuery = NonNullable<Parameters<typeof client.books.$get>[0]>['query']
    expectTypeOf<BooksQuery>().toEqualTypeOf<BookCollectionQuery | undefined>()
    expectTypeOf<BookCollectionQuery['order[title]']>().toEqualTypeOf<
      'asc' | 'desc' | 'ASC' | 'DESC' | undefined
    >()
    expectTypeOf<BookCollectionQuery['genre[]']>().toEqualTypeOf<
      Array<'FICTION' | 'SCIENCE' | 'HISTORY' | 'POETRY' | 'CHILDREN'> | undefined
    >()
    // @ts-expect-error: books are not ordered by isbn.
    const _unknown: BookCollectionQuery = { 'order[isbn]': 'asc' }
    const ordered = await client.books.$get({
      query: { 'order[title]': 'desc', itemsPerPage: 2, 'genre[]': ['POETRY', 'HISTORY'] },
    })
    if (!ordered.ok) throw new Error(`GET /books: ${ordered.status}`)
    const page = await ordered.json()
    expect(page['hydra:member'].map((book) => book.genre)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(POETRY|HISTORY)$/)])
    )
    const refused = await client.books.$get({ query: { page: 0 } })
    if (refused.ok) throw new Error('GET /books?page=0 was not refused')
    expectTypeOf(refused.status).toEqualTypeOf<400 | 401 | 403 | 406 | 500 | 503>()
    const problem = await refused.json()
    expectTypeOf(problem).toExtend<HydraErrorBody<boolean>>()
    expectTypeOf(problem.detail).toEqualTypeOf<string>()
    expect(problem).toMatchObject({ status: 400, detail: 'Page should not be less than 1' })
    const missing = await client.books[':id'].$get({ param: { id: '0' } })
    if (missing.ok) throw new Error('GET /books/0 was found')
    // Book items take the property filter: a selection can be refused (docs/member-shape.md).
    expectTypeOf(missing.status).toEqualTypeOf<400 | 401 | 403 | 404 | 406 | 500 | 503>()
    expect((await missing.json()).status).toBe(404)
    const orphans = await client.authors[':id'].books.$get({
      param: { id: '0' },
      query: { 'order[title]': 'asc' },
    })
    if (orphans.ok) throw new Error('GET /authors/0/books was found')
    expectTypeOf(orphans.status).toEqualTypeOf<400 | 401 | 403 | 404 | 406 | 500 | 503>()
    expect(orphans.status).toBe(404)
  })
})

it("answers every request of this file as the API's OpenAPI document says", async () => {
  const result = await openApi.result()
  expect(result.violations).toEqual([])
  expect(result.checked).toBeGreaterThan(30)
})
it('answers every request under the mount path as its OpenAPI document says', async () => {
  const result = await mountedOpenApi.result()
  expect(result.violations).toEqual([])
  expect(result.checked).toBeGreaterThan(3)
})
