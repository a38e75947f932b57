/**
 * The example API read by API Platform's own clients and by the `jsonld` processor, all installed
 * from the registry, over real HTTP: api-doc-parser (the library behind the admin and the client
 * generator) finds one resource per served model with its fields, types and parameters;
 * client-generator writes its typescript, react and next clients (the typescript one type-checked
 * against the responses, the next one as `next build` checks it); `jsonld` expands every kind of
 * response with typed literals where the documentation declares a datatype.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { parseHydraDocumentation } from '@api-platform/api-doc-parser'
import jsonld from 'jsonld'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { typeCheckInterfaces, typeCheckNext } from './support/generated-clients.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

const XSD = 'http://www.w3.org/2001/XMLSchema#'
const HYDRA = 'http://www.w3.org/ns/hydra/core#'
const SCHEMA = 'https://schema.org/'

let database: TestDatabase
let prisma: PrismaClient
let origin: string
let close: (() => Promise<void>) | undefined

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  const server = await startServer(createApp(prisma).fetch)
  origin = server.origin
  close = server.close
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

describe("API Platform's api-doc-parser", () => {
  it('finds one resource per served model, its fields typed, and its parameters in hydra:search', async () => {
    const { api } = await parseHydraDocumentation(origin)
    const resources = api.resources ?? []
    expect(resources.map((resource) => resource.name).sort()).toEqual([
      'activities',
      'authors',
      'books',
      'genres',
      'languages',
      'loans',
      'releases',
      'reviews',
    ])
    const books = resources.find((resource) => resource.name === 'books')
    const field = (name: string) => books?.fields?.find((candidate) => candidate.name === name)
    expect(field('title')).toMatchObject({ id: `${SCHEMA}name`, type: 'string', required: true })
    expect(field('price')?.type).toBe('decimal')
    expect(field('publishedAt')?.type).toBe('dateTime')
    expect(field('pages')?.type).toBe('integer')
    // An enum: text first (what clients read), then a datatype of its values.
    expect(field('genre')?.range).toBe(`${XSD}string`)
    const parameters = (await books?.getParameters?.()) ?? []
    // The paging parameters, then the filters and orders (test/example-filters.e2e.test.ts).
    expect(parameters.map((parameter) => parameter.variable).slice(0, 3)).toEqual([
      'page',
      'itemsPerPage',
      'title',
    ])
    const activities = resources.find((resource) => resource.name === 'activities')
    const cursor = (await activities?.getParameters?.()) ?? []
    expect(cursor.map((parameter) => parameter.variable)).toContain('occurredAt[lt]')
    // A cursor parameter is mapped to its field, whose range api-doc-parser then reports.
    expect(cursor.find((parameter) => parameter.variable === 'occurredAt[lt]')?.range).toBe(
      `${XSD}dateTime`
    )
    // Each optional, each accepted alone (docs/cursor-paging.md): a value of its range is a page.
    const positions = cursor.filter((parameter) => /\[(lt|gt)e?\]$/.test(parameter.variable))
    expect(positions.map((parameter) => parameter.variable)).toContain('id[lt]')
    for (const { variable, range, required } of positions) {
      expect(required, variable).toBe(false)
      const value = range === `${XSD}dateTime` ? '2025-01-01T00:00:00Z' : '100'
      const response = await fetch(`${origin}/activities?${encodeURIComponent(variable)}=${value}`)
      expect(response.status, variable).toBe(200)
    }
    const reviews = resources.find((resource) => resource.name === 'reviews')
    // Without the hydra: prefix too (search, mapping).
    expect(((await reviews?.getParameters?.()) ?? []).map((p) => p.variable)).toEqual([
      'page',
      'book.author.name',
      'book.author',
      'book.author[]',
      'order[book.author.name]',
      'order[id]',
    ])

    // Custom collections (src/collections.ts) write their paging parameters as generated ones do,
    // whether or not they take filters (genres do, after their paging parameters).
    const parametersOf = async (name: string) => {
      const resource = resources.find((candidate) => candidate.name === name)
      return ((await resource?.getParameters?.()) ?? []).map((parameter) => parameter.variable)
    }
    expect((await parametersOf('genres')).slice(0, 3)).toEqual(['page', 'itemsPerPage', 'name'])
    expect(await parametersOf('releases')).toEqual(['page', 'pagination', 'partial'])
  })
})

describe("API Platform's admin data provider", () => {
  it("lists every resource in react-admin's default sort, order[id], custom collections by key", async () => {
    const { fetchHydra, hydraDataProvider } = await import('@api-platform/admin')
    // The provider resolves its entrypoint against the page's URL, once, when it is made.
    const global = globalThis as { window?: unknown }
    global.window = { location: { href: `${origin}/` } }
    const provider = (() => {
      try {
        return hydraDataProvider({
          entrypoint: origin,
          httpClient: fetchHydra,
          apiDocumentationParser: parseHydraDocumentation,
        })
      } finally {
        delete global.window
      }
    })()
    const { data } = await provider.introspect()
    const names = (data as { resources: Array<{ name: string }> }).resources.map((r) => r.name)
    expect(names).toContain('genres')
    // What a list sends unless told otherwise: GET /genres?order[id]=ASC&page=1&itemsPerPage=10.
    const list = async (resource: string, order: 'ASC' | 'DESC') =>
      (
        await provider.getList(resource, {
          pagination: { page: 1, perPage: 10 },
          sort: { field: 'id', order },
          filter: {},
        })
      ).data.map((record) => String(record.id))
    for (const name of names) expect((await list(name, 'ASC')).length, name).toBeGreaterThan(0)
    // /genres is keyed by its name (src/collections.ts): order[id] orders by it, both ways.
    const genres = await list('genres', 'ASC')
    expect(genres).toEqual([...genres].sort())
    expect(await list('genres', 'DESC')).toEqual([...genres].reverse())
  })
})

describe('jsonld expands every kind of response with typed literals', () => {
  const documentLoader = async (url: string) => {
    const response = await fetch(url, { headers: { Accept: 'application/ld+json' } })
    if (!response.ok) throw new Error(`${url}: ${response.status}`)
    return { contextUrl: null, documentUrl: url, document: await response.json() }
  }
  type Node = Record<string, unknown>
  const expand = async (url: string): Promise<Node> => {
    const body = await (await fetch(url)).json()
    const options = { base: url, documentLoader, safe: true }
    const [node] = (await jsonld.expand(
      body,
      options as unknown as jsonld.Options.Expand
    )) as Node[]
    return node as Node
  }
  const literal = (node: Node | undefined, property: string) =>
    (node?.[property] as Array<{ '@value': unknown; '@type'?: string }> | undefined)?.[0]

  it('items and collection members: dates, decimals and enums typed', async () => {
    const book = await expand(`${origin}/books/4`)
    expect(literal(book, `${origin}/docs.jsonld#Book/publishedAt`)?.['@type']).toBe(
      `${XSD}dateTime`
    )
    expect(literal(book, `${origin}/docs.jsonld#Book/price`)?.['@type']).toBe(`${XSD}decimal`)
    expect(literal(book, `${origin}/docs.jsonld#Book/genre`)?.['@type']).toBeUndefined()
    expect(literal(book, `${SCHEMA}name`)?.['@type']).toBeUndefined()
    for (const url of ['/loans?page=2', '/reviews', '/activities', '/loans?pagination=false']) {
      const collection = await expand(`${origin}${url}`)
      const member = (collection[`${HYDRA}member`] as Node[])[0]
      const dates = Object.entries(member ?? {}).filter(
        ([, values]) => (values as Array<{ '@type'?: string }>)[0]?.['@type'] === `${XSD}dateTime`
      )
      expect(dates.length, url).toBeGreaterThan(0)
      // The search block expands to Hydra's IRI template terms, prefixed or not: on the entry
      // page the template, on any other a reference to that template by its IRI.
      const path = url.replace(/\?.*$/, '')
      const iri = `${origin}${path}#search`
      if (url !== path) expect(collection[`${HYDRA}search`], url).toEqual([{ '@id': iri }])
      const entry = url === path ? collection : await expand(`${origin}${path}`)
      const search = (entry[`${HYDRA}search`] as Node[] | undefined)?.[0]
      expect(search?.['@id'], url).toBe(iri)
      expect(search?.['@type'], url).toEqual([`${HYDRA}IriTemplate`])
      const mapping = (search?.[`${HYDRA}mapping`] as Node[] | undefined)?.[0]
      expect(literal(mapping, `${HYDRA}variable`)?.['@value']).toBeTypeOf('string')
    }
  })

  it('one IRI per search variable: a response maps it where the documentation does', async () => {
    const docsUrl = `${origin}/docs.jsonld`
    const docs = (await (await fetch(docsUrl)).json()) as Node
    const iri = (id: string) =>
      id.startsWith('#') ? `${docsUrl}${id}` : id.replace(/^hydra:/, HYDRA).replace(/^xsd:/, XSD)
    const classes = docs['hydra:supportedClass'] as Node[]
    const declared = new Map<string, Node>()
    for (const type of classes)
      for (const supported of (type['hydra:supportedProperty'] ?? []) as Node[]) {
        const property = supported['hydra:property'] as Node
        declared.set(iri(property['@id'] as string), property)
      }
    const entrypoint = classes.find((type) => type['@id'] === '#Entrypoint') as Node
    const templates = (entrypoint['hydra:supportedProperty'] as Node[]).flatMap((supported) =>
      ((supported['hydra:property'] as Node)['hydra:supportedOperation'] as Node[]).flatMap(
        (operation) => (operation['hydra:search'] ? [operation['hydra:search'] as Node] : [])
      )
    )
    let compared = 0
    for (const template of templates) {
      const path = (template['hydra:template'] as string).replace(/\{.*$/, '')
      // A collection reading no parameter has no search block (/languages).
      if ((template['hydra:mapping'] as Node[]).length === 0) continue
      const collection = await expand(`${origin}${path}`)
      const search = (collection[`${HYDRA}search`] as Node[])[0] as Node
      const served = new Map(
        (search[`${HYDRA}mapping`] as Node[]).map((mapping) => [
          literal(mapping, `${HYDRA}variable`)?.['@value'],
          ((mapping[`${HYDRA}property`] as Node[])[0] as Node)['@id'],
        ])
      )
      for (const mapping of template['hydra:mapping'] as Node[]) {
        const variable = mapping['hydra:variable'] as string
        const property = mapping['hydra:property'] as Node
        expect(served.get(variable), `${path} ${variable}`).toBe(iri(property['@id'] as string))
        compared++
        // Every filter and order sets a declared property with a range (paging sets Hydra's).
        const declaration = declared.get(iri(property['@id'] as string)) ?? property
        const range = declaration.range ?? declaration['rdfs:range']
        if (!/^(page|itemsPerPage|pagination|partial)$/.test(variable))
          expect(range, `${path} ${variable}`).toBeDefined()
        if (variable === 'author.name') expect(range).toBe('xsd:string')
        if (variable.startsWith('exists[')) expect(range).toBe('xsd:boolean')
      }
    }
    expect(compared).toBeGreaterThan(50)
  })

  it('errors, error documents, the entrypoint and the documentation', async () => {
    const error = await expand(`${origin}/books?page=0`)
    expect(error['@type']).toEqual([`${HYDRA}Error`])
    const kind = await expand(`${origin}/errors/400`)
    expect(kind['@type']).toEqual([`${HYDRA}Error`])
    expect(literal(kind, `${HYDRA}description`)?.['@value']).toBeTypeOf('string')
    expect((await expand(`${origin}/`))['@type']).toEqual([`${origin}/docs.jsonld#Entrypoint`])
    expect((await expand(`${origin}/docs.jsonld`))['@type']).toEqual([`${HYDRA}ApiDocumentation`])
  })
})

describe("API Platform's client-generator", () => {
  const require = createRequire(import.meta.url)
  const bin = path.join(
    path.dirname(require.resolve('@api-platform/client-generator/package.json')),
    'lib/index.js'
  )

  it.each(['typescript', 'react', 'next'])(
    'generates the %s client for every resource without error',
    async (generator) => {
      const output = await mkdtemp(path.join(tmpdir(), `prisma-hydra-client-${generator}-`))
      try {
        const { stdout, stderr } = await promisify(execFile)(
          process.execPath,
          [bin, origin, output, '--generator', generator],
          { timeout: 120_000 }
        )
        // The generator logs a failure and still exits 0: its output says whether it worked.
        expect(`${stdout}${stderr}`).not.toMatch(/Error|error:/)
        const files = (await readdir(output, { recursive: true })).map(String)
        expect(files.length).toBeGreaterThan(0)
        for (const name of ['book', 'author', 'activity']) {
          expect(files.some((file) => file.toLowerCase().includes(name))).toBe(true)
        }
        const types = files.filter((file) => file.endsWith('.ts') || file.endsWith('.tsx'))
        for (const file of types) {
          const text = await readFile(path.join(output, file), 'utf8')
          // No extra operation taken for a resource (`books/recent: Book[]` broke the next client).
          expect(text, file).not.toContain('books/recent')
        }
        // A book's author is a link: the related item's IRI, a string.
        if (generator === 'typescript') {
          const book = await readFile(path.join(output, 'interfaces/book.ts'), 'utf8')
          expect(book).toContain('readonly author: string;')
          await typeCheckInterfaces((await parseHydraDocumentation(origin)).api, output)
        }
        if (generator === 'next')
          await typeCheckNext((await parseHydraDocumentation(origin)).api, output)
      } finally {
        await rm(output, { recursive: true, force: true })
      }
    },
    150_000
  )

  it('reads a collection served without the prefix when told so (--hydra-prefix "")', async () => {
    const output = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-client-unprefixed-'))
    try {
      const options = ['--generator', 'next', '--resource', 'reviews', '--hydra-prefix', '']
      await promisify(execFile)(process.execPath, [bin, origin, output, ...options], {
        timeout: 120_000,
      })
      const page = await readFile(path.join(output, 'pages/reviews/index.tsx'), 'utf8')
      expect(page).toContain('collection["member"]')
      const reviews = (await (await fetch(`${origin}/reviews`)).json()) as { member: unknown[] }
      expect(reviews.member.length).toBeGreaterThan(0)
    } finally {
      await rm(output, { recursive: true, force: true })
    }
  }, 150_000)
})
