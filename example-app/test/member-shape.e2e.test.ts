/**
 * The shape of a member (docs/member-shape.md) on the example's books and loans: the property
 * filter (`properties[]`), the author embedded through `properties[author][]=name`, on every
 * paging mode and on both engines (byte-identical answers), the 400 of every property not offered,
 * and the access rules through the shape: a field the caller may not see cannot be selected, a
 * related row outside the caller's scope stays an IRI, a guard refusing the related model embeds
 * nothing. Expected values are read back from the database, never from the API.
 */
import jsonld from 'jsonld'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HydraAccess } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { type LibraryEnv, libraryAccess, tokenFor } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import {
  emptyDatabase,
  expectSameOnBothEngines,
  startServer,
  type TestDatabase,
} from './support/harness.js'

const SECRET = 'member-shape test secret'

/** Authors of Great Britain only for readers, whose country they may not see; nothing for "barred". */
const access = {
  ...libraryAccess,
  Author: {
    guard: (c) => (c.get('jwtPayload')?.sub === 'barred' ? 'forbidden' : 'allow'),
    scope: (c) => (c.get('jwtPayload') ? { country: 'GB' } : undefined),
    hidden: (c) => (c.get('jwtPayload') ? ['country' as const] : []),
  },
} satisfies HydraAccess<LibraryEnv>

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let twin: string
const closers: Array<() => Promise<void>> = []
const tokens = new Map<string, string>()
let authors: Map<number, { name: string; country: string | null }>

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  const options = { batchSize: 7, auth: { secret: SECRET, access } }
  const own = await startServer(createApp(prisma, options).fetch)
  const compiled = await startServer(createApp(prisma, { ...options, engine: 'compiled' }).fetch)
  ;({ origin } = own)
  twin = compiled.origin
  closers.push(own.close, compiled.close)
  for (const sub of ['Reader 1', 'barred'])
    tokens.set(sub, await tokenFor({ sub, role: 'reader' }, SECRET))
  tokens.set('librarian', await tokenFor({ sub: 'Ada', role: 'librarian' }, SECRET))
  authors = new Map(
    (await prisma.author.findMany()).map((author) => [
      author.id,
      { name: author.name, country: author.country },
    ])
  )
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

type Body = Record<string, unknown>

async function read(
  path: string,
  caller?: string
): Promise<{ status: number; body: Body; etag: string | null }> {
  const token = caller && tokens.get(caller)
  const response = await fetch(`${origin}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  return {
    status: response.status,
    body: (await response.json()) as Body,
    etag: response.headers.get('etag'),
  }
}

const members = (body: Body) => (body['hydra:member'] ?? body.member) as Body[]
const authorIdOf = (iri: unknown) => Number(String(iri).split('/').pop())

describe('the property filter', () => {
  it('keeps only the properties asked, after @id and @type, in the resource order', async () => {
    const full = await read('/books?itemsPerPage=50')
    const shaped = await read('/books?itemsPerPage=50&properties[]=author&properties[]=title')
    expect(shaped.status).toBe(200)
    const expected = members(full.body).map((book) => ({
      '@id': book['@id'],
      '@type': 'Book',
      title: book.title,
      author: book.author,
    }))
    expect(members(shaped.body)).toStrictEqual(expected)
    expect(Object.keys(members(shaped.body)[0] ?? {})).toStrictEqual([
      '@id',
      '@type',
      'title',
      'author',
    ])
    // The shape is part of the representation: its own ETag.
    expect(shaped.etag).not.toBe(full.etag)
    expect(shaped.body['hydra:totalItems']).toBe(full.body['hydra:totalItems'])
  })

  it('embeds the author with the fields asked, read back from the database', async () => {
    const { status, body } = await read('/books?properties[]=title&properties[author][]=name')
    expect(status).toBe(200)
    const page = members(body)
    expect(page.length).toBeGreaterThan(0)
    for (const book of page) {
      const author = book.author as Body
      const id = authorIdOf(author['@id'])
      expect(Object.keys(book)).toStrictEqual(['@id', '@type', 'title', 'author'])
      expect(author).toStrictEqual({
        '@id': `/authors/${id}`,
        '@type': 'Author',
        name: authors.get(id)?.name,
      })
    }
  })

  it("gives an embedded item's fields their own type's meaning once expanded", async () => {
    const url = `${origin}/books?itemsPerPage=1&properties[]=title&properties[author][]=name`
    const documentLoader = async (target: string) => ({
      contextUrl: null,
      documentUrl: target,
      document: await (await fetch(target)).json(),
    })
    const options = { base: url, documentLoader, safe: true }
    const body = await (await fetch(url)).json()
    const [expanded] = (await jsonld.expand(
      body,
      options as unknown as jsonld.Options.Expand
    )) as Body[]
    const [book] = (expanded?.['http://www.w3.org/ns/hydra/core#member'] ?? []) as Body[]
    const [author] = (book?.[`${origin}/docs.jsonld#Book/author`] ?? []) as Body[]
    // Author's own context: its name is schema.org's, its type the documentation's Author class.
    expect(author?.['@type']).toEqual([`${origin}/docs.jsonld#Author`])
    expect(author?.['https://schema.org/name']).toEqual([
      { '@value': authors.get(authorIdOf(author?.['@id']))?.name },
    ])
  })

  it('keeps the renamed parameter of an operation and every paging mode', async () => {
    const recent = await read(
      '/books/recent?properties[author][]=name&properties[author][]=country'
    )
    expect(recent.status).toBe(200)
    for (const book of members(recent.body)) {
      const author = book.author as Body
      expect(author.country).toBe(authors.get(authorIdOf(author['@id']))?.country)
    }
    // The custom provider's rows carry no author: it stays an IRI, the fields are selected.
    const popular = await read('/books/popular?properties[]=title&properties[author][]=name')
    expect(popular.status).toBe(200)
    for (const book of members(popular.body)) {
      expect(Object.keys(book)).toStrictEqual(['@id', '@type', 'title', 'author'])
      expect(typeof book.author).toBe('string')
    }
  })

  it.each([
    ['/books?properties[]=nope', '"nope" is not a property to select'],
    ['/books?properties=title', 'selects properties as properties[]=name'],
    ['/books?properties[genre][]=x', '"genre" is not a relation to embed'],
    ['/books?properties[reviews][]=rating', '"reviews" is not a relation to embed'],
    ['/books?properties[author][]=email', '"email" is not a field of Author to embed'],
    ['/books?properties[author][]=', '"" is not a field of Author to embed'],
    ['/books?properties[author][x][]=name', 'one relation deep'],
    ['/books?properties[author]=name', 'selects properties as properties[]=name'],
  ])('answers %s with a 400 naming it', async (path, message) => {
    const { status, body } = await read(path)
    expect(status).toBe(400)
    expect(String(body.detail)).toContain(message)
  })

  it('answers byte for byte alike on both engines', async () => {
    const librarian = tokens.get('librarian') as string
    for (const path of [
      '/books?properties[]=title',
      '/books?properties[author][]=name&properties[]=price&order[title]=desc&page=2',
      '/books?properties[author][]=name&author.name=a&properties[]=publishedAt',
      '/books/recent?properties[author][]=name&properties[author][]=country',
      '/books?properties[]=nope',
    ])
      await expectSameOnBothEngines(origin, twin, path)
    // Streams (paging switched off) and partial pages of loans, under a librarian's token.
    for (const path of [
      '/loans?pagination=false&properties[]=borrower&properties[book][]=title',
      '/loans?partial=true&page=2&properties[book][]=title',
    ]) {
      const answers = await Promise.all(
        [origin, twin].map(async (server) => {
          const response = await fetch(`${server}${path}`, {
            headers: { Authorization: `Bearer ${librarian}` },
          })
          return `${response.status} ${await response.text()}`
        })
      )
      expect(answers[0]).toBe(answers[1])
      expect(answers[0]?.startsWith('200 ')).toBe(true)
    }
  })

  it('embeds in an unpaged stream read in batches', async () => {
    const { status, body } = await read(
      '/loans?pagination=false&properties[]=borrower&properties[book][]=title',
      'librarian'
    )
    expect(status).toBe(200)
    const loans = await prisma.loan.findMany({ include: { book: true }, orderBy: { id: 'asc' } })
    expect(members(body).map((loan) => (loan.book as Body).title)).toStrictEqual(
      loans.map((loan) => loan.book.title)
    )
    expect(body['hydra:totalItems']).toBe(loans.length)
  })

  it('refuses what the whitelist leaves out', async () => {
    const { status, body } = await read('/loans?properties[book][]=isbn', 'librarian')
    expect(status).toBe(400)
    expect(String(body.detail)).toContain('Fields: title')
  })
})

describe('the property filter as clients discover it', () => {
  it('is listed in hydra:search, in the Hydra documentation and in the OpenAPI document', async () => {
    const { body } = await read('/books')
    const search = body['hydra:search'] as Body
    const mapping = search['hydra:mapping'] as Body[]
    const variables = mapping.map((entry) => entry.variable)
    expect(variables).toContain('properties[]')
    expect(variables).toContain('properties[author][]')
    expect(variables).not.toContain('properties[reviews][]')
    expect(mapping.find((entry) => entry.variable === 'properties[]')?.property).toBe('properties')
    expect(String(search['hydra:template'])).toContain(',properties[],properties[author][]}')
    const openapi = (await read('/openapi.json')).body as {
      paths: Record<string, { get: { parameters: Array<{ name: string; schema: unknown }> } }>
    }
    const parameters = openapi.paths['/books']?.get.parameters ?? []
    expect(parameters.find((entry) => entry.name === 'properties[author][]')?.schema).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['id', 'name', 'country'] },
    })
    const loans = openapi.paths['/loans']?.get.parameters ?? []
    expect(loans.find((entry) => entry.name === 'properties[]')?.schema).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['borrower', 'loanedAt', 'returnedAt', 'book'] },
    })
    const documentation = JSON.stringify((await read('/docs.jsonld')).body)
    expect(documentation).toContain('"hydra:variable":"properties[author][]"')
  })
})

describe('access rules through the shape', () => {
  it('embeds only the related rows in the caller scope; the others stay IRIs', async () => {
    const path = '/books?itemsPerPage=50&properties[author][]=name'
    const { status, body } = await read(path, 'Reader 1')
    expect(status).toBe(200)
    let embedded = 0
    let linked = 0
    for (const book of members(body)) {
      const author = book.author
      if (typeof author === 'string') {
        expect(authors.get(authorIdOf(author))?.country).not.toBe('GB')
        linked++
      } else {
        const id = authorIdOf((author as Body)['@id'])
        expect(authors.get(id)?.country).toBe('GB')
        embedded++
      }
    }
    expect(embedded).toBeGreaterThan(0)
    expect(linked).toBeGreaterThan(0)
  })

  it('refuses a field the caller may not see as an undeclared one', async () => {
    const { status, body } = await read('/books?properties[author][]=country', 'Reader 1')
    expect(status).toBe(400)
    expect(String(body.detail)).toContain('"country" is not a field of Author to embed')
    expect((await read('/books?properties[author][]=country')).status).toBe(200)
  })

  it('embeds nothing of a model whose guard refuses the caller', async () => {
    const { status, body } = await read('/books?properties[author][]=name', 'barred')
    expect(status).toBe(200)
    for (const book of members(body)) expect(typeof book.author).toBe('string')
  })
})

describe('the property filter on items', () => {
  /** Books and their authors' ids, from the database. */
  const bookAuthors = async () =>
    prisma.book.findMany({
      select: { id: true, title: true, authorId: true },
      orderBy: { id: 'asc' },
    })

  it('keeps the properties asked and embeds the author, as on the collection', async () => {
    const [book] = await bookAuthors()
    if (!book) throw new Error('the example has no book')
    const path = `/books/${book.id}?properties[]=title&properties[author][]=name`
    const { status, body } = await read(path)
    expect(status).toBe(200)
    expect(body).toStrictEqual({
      '@context': '/contexts/Book',
      '@id': `/books/${book.id}`,
      '@type': 'Book',
      title: book.title,
      author: {
        '@id': `/authors/${book.authorId}`,
        '@type': 'Author',
        name: authors.get(book.authorId)?.name,
      },
    })
    const listed = await read(`/books?id=${book.id}&properties[]=title&properties[author][]=name`)
    expect(members(listed.body)[0]).toStrictEqual(
      Object.fromEntries(Object.entries(body).filter(([key]) => key !== '@context'))
    )
  })

  it('gives each shape its own ETag, and a 304 to its own', async () => {
    const [book] = await bookAuthors()
    const full = await read(`/books/${book?.id}`)
    const titled = await read(`/books/${book?.id}?properties[]=title`)
    const embedded = await read(`/books/${book?.id}?properties[author][]=name`)
    expect(Object.keys(titled.body)).toStrictEqual(['@context', '@id', '@type', 'title'])
    expect(new Set([full.etag, titled.etag, embedded.etag]).size).toBe(3)
    const again = await fetch(`${origin}/books/${book?.id}?properties[]=title`, {
      headers: { 'If-None-Match': String(titled.etag) },
    })
    expect(again.status).toBe(304)
    const other = await fetch(`${origin}/books/${book?.id}?properties[author][]=name`, {
      headers: { 'If-None-Match': String(titled.etag) },
    })
    expect(other.status).toBe(200)
  })

  it.each([
    ['properties[]=nope', '"nope" is not a property to select'],
    ['properties=title', 'selects properties as properties[]=name'],
    ['properties[reviews][]=rating', '"reviews" is not a relation to embed'],
    ['properties[author][]=email', '"email" is not a field of Author to embed'],
    ['properties[author][x][]=name', 'one relation deep'],
  ])('answers /books/1?%s with a 400 naming it', async (query, message) => {
    const { status, body } = await read(`/books/1?${query}`)
    expect(status).toBe(400)
    expect(String(body.detail)).toContain(message)
  })

  it('answers a missing item with its 404, and a whitelist with its 400', async () => {
    expect((await read('/books/999999?properties[]=title')).status).toBe(404)
    const loan = await prisma.loan.findFirst({ include: { book: true }, orderBy: { id: 'asc' } })
    const refused = await read(`/loans/${loan?.id}?properties[book][]=isbn`, 'librarian')
    expect(refused.status).toBe(400)
    expect(String(refused.body.detail)).toContain('Fields: title')
    const shaped = await read(
      `/loans/${loan?.id}?properties[]=borrower&properties[book][]=title`,
      'librarian'
    )
    expect(shaped.body.borrower).toBe(loan?.borrower)
    expect((shaped.body.book as Body).title).toBe(loan?.book.title)
  })

  it('answers byte for byte alike on both engines', async () => {
    const books = await bookAuthors()
    for (const book of books.slice(0, 3))
      for (const query of [
        'properties[]=title',
        'properties[author][]=name&properties[]=price',
        '',
      ])
        await expectSameOnBothEngines(origin, twin, `/books/${book.id}?${query}`)
    await expectSameOnBothEngines(origin, twin, '/books/1?properties[]=nope')
  })

  it('embeds only an author in the caller scope, nothing for a refused guard', async () => {
    const books = await bookAuthors()
    const british = books.find((book) => authors.get(book.authorId)?.country === 'GB')
    const other = books.find((book) => authors.get(book.authorId)?.country !== 'GB')
    if (!british || !other) throw new Error('the example has no book of each kind')
    const query = 'properties[]=title&properties[author][]=name'
    const inside = await read(`/books/${british.id}?${query}`, 'Reader 1')
    expect((inside.body.author as Body).name).toBe(authors.get(british.authorId)?.name)
    const outside = await read(`/books/${other.id}?${query}`, 'Reader 1')
    expect(outside.status).toBe(200)
    expect(outside.body.author).toBe(`/authors/${other.authorId}`)
    const barred = await read(`/books/${british.id}?${query}`, 'barred')
    expect(barred.status).toBe(200)
    expect(barred.body.author).toBe(`/authors/${british.authorId}`)
    // A field the caller may not see is not offered; the response varies by caller.
    const hidden = await read(`/books/${british.id}?properties[author][]=country`, 'Reader 1')
    expect(hidden.status).toBe(400)
    expect(String(hidden.body.detail)).toContain('"country" is not a field of Author to embed')
    const response = await fetch(`${origin}/books/${british.id}?${query}`)
    expect(response.headers.get('vary')).toContain('Authorization')
  })

  it('is described in the OpenAPI document', async () => {
    const openapi = (await read('/openapi.json')).body as {
      paths: Record<
        string,
        { get: { parameters: Array<{ name: string; schema: unknown }>; responses: Body } }
      >
      components: { schemas: Record<string, { required: string[]; properties: Body }> }
    }
    const item = openapi.paths['/books/{id}']?.get
    expect(item?.parameters.map((parameter) => parameter.name)).toStrictEqual([
      'id',
      'properties[]',
      'properties[author][]',
    ])
    expect(item?.responses['400']).toBeDefined()
    const schema = openapi.components.schemas['Book.jsonld']
    expect(schema?.required).toStrictEqual(['@context', '@id', '@type'])
    expect(JSON.stringify(schema?.properties.author)).toContain('anyOf')
    // An item without a property filter reads no query.
    expect(openapi.paths['/authors/{id}']?.get.parameters.map((entry) => entry.name)).toStrictEqual(
      ['id']
    )
  })
})
