/**
 * Relations as links end to end (test/fixtures/relations): to-one links that resolve (or are
 * null), sub-collections of every kind of to-many relation (one-to-many, implicit many-to-many
 * both ways, a self-relation) holding exactly the related rows in each paging mode of their
 * target (full with its count, partial, cursor), with the target's filters, orders and client
 * controls; 404s for missing parents; what is not shown (relations to unserved models, a relation
 * turned off, the foreign keys behind links); renamed relations; the documentation and contexts.
 */
import jsonld from 'jsonld'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/relations/hydra/index.js'
import { PrismaClient } from '#fixtures/relations/prisma/client.js'
import {
  createAdapter,
  documentedProperties,
  freshDatabase,
  get,
  ids,
  startServer,
} from './support/harness.js'
import { checkedAgainstOpenApi } from './support/openapi-check.js'

const SCHEMA = new URL('./fixtures/relations/schema.prisma', import.meta.url).pathname

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
/** Every response of the file, checked against the app's OpenAPI document. */
let openApi: ReturnType<typeof checkedAgainstOpenApi>
let remove: () => Promise<void>

type Body = Record<string, unknown>
type Member = Record<string, unknown>

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index)
const members = (body: Body) => (body['hydra:member'] ?? []) as Member[]
const view = (body: Body) => (body['hydra:view'] ?? {}) as Record<string, string>

/** Tags of title `i`, by rules of its number, so that tags share titles and one has none. */
const tagsOf = (i: number) =>
  [
    i % 2 === 0 ? 'classic' : null,
    i % 3 === 0 ? 'sci-fi' : null,
    i <= 5 ? 'poetry' : null,
    i % 4 === 1 ? 'short' : null,
  ].filter((tag): tag is string => tag !== null)

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.publisher.createMany({
    data: range(1, 3).map((id) => ({ id, name: `Publisher ${id}` })),
  })
  await prisma.translator.createMany({ data: [{ id: 1, name: 'Translator 1' }] })
  await prisma.editor.createMany({ data: [{ id: 1, name: 'Editor 1' }] })
  await prisma.tag.createMany({
    data: ['classic', 'sci-fi', 'poetry', 'short', 'unused'].map((id) => ({ id, label: id })),
  })
  for (const i of range(1, 14)) {
    await prisma.title.create({
      data: {
        id: i,
        isbn: `isbn-${i}`,
        name: `Title ${String.fromCharCode(96 + ((i * 5) % 14) + 1)} ${i}`,
        pages: 100 + ((i * 37) % 300),
        // Publisher 1: odd numbers; 2: even ones but multiples of 4, which have none.
        publisherId: i % 4 === 0 ? null : 1 + ((i + 1) % 2),
        // Titles 4 to 14 are sequels of 1, 2 or 3.
        prequelId: i > 3 ? ((i - 1) % 3) + 1 : null,
        editorId: i % 2 === 0 ? 1 : null,
        translatorId: i % 5 === 0 ? 1 : null,
        tags: { connect: tagsOf(i).map((id) => ({ id })) },
      },
    })
  }
  // Notes about titles 1 to 5, two at each time: cursor pages over repeating keys.
  await prisma.note.createMany({
    data: range(1, 30).map((id) => ({
      id,
      writtenAt: new Date(Date.UTC(2024, 0, 1, Math.floor(id / 2))),
      text: `Note ${id}`,
      titleIsbn: `isbn-${(id % 5) + 1}`,
    })),
  })
  await prisma.collection.create({ data: { id: 1, name: 'Spring' } })
  openApi = checkedAgainstOpenApi(createHydraApp({ prisma }).fetch)
  ;({ origin, close } = await startServer(openApi.fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

/** Follows `hydra:next` from `path` to the end: every page's body, in order (at most 50). */
async function walk(path: string, link: 'hydra:next' | 'hydra:previous' = 'hydra:next') {
  const pages: Body[] = []
  let next: string | undefined = path
  while (next && pages.length < 50) {
    const { status, body } = await get(origin, next)
    expect(status, next).toBe(200)
    pages.push(body)
    next = view(body)[link]
  }
  return pages
}

describe('to-one links', () => {
  it('are the related item’s IRI, or null, and resolve to that item', async () => {
    for (const row of await prisma.title.findMany({ orderBy: { id: 'asc' } })) {
      const { status, body } = await get(origin, `/titles/${row.id}`)
      expect(status).toBe(200)
      expect(body.publisher).toBe(
        row.publisherId === null ? null : `/publishers/${row.publisherId}`
      )
      expect(body.prequel).toBe(row.prequelId === null ? null : `/titles/${row.prequelId}`)
      for (const link of [body.publisher, body.prequel]) {
        if (link === null) continue
        const related = await get(origin, link as string)
        expect([related.status, related.body['@id']]).toEqual([200, link])
      }
    }
    expect((await get(origin, '/titles/4')).body.publisher).toBeNull()
    expect((await get(origin, '/titles/1')).body.prequel).toBeNull()
  })

  it('read the related id through the relation when the key is not the target’s id (renamed)', async () => {
    const notes = await prisma.note.findMany({ include: { title: true } })
    const { body } = await get(origin, '/notes?itemsPerPage=30')
    expect(members(body)).toHaveLength(30)
    for (const member of members(body)) {
      const note = notes.find((candidate) => candidate.id === member.id)
      expect(member.about).toBe(`/titles/${note?.title.id}`)
      expect('title' in member || 'titleIsbn' in member).toBe(false)
      const related = await get(origin, member.about as string)
      expect(related.body.isbn).toBe(note?.titleIsbn)
    }
  })
})

describe('what is shown, and under which name', () => {
  it('members: fields, then links; no foreign key behind a link, no relation to an unserved model', async () => {
    const title = (await get(origin, '/titles/10')).body
    expect(Object.keys(title)).toEqual([
      ...['@context', '@id', '@type', 'id', 'isbn', 'name', 'pages', 'editorId', 'translatorId'],
      ...['publisher', 'tags', 'prequel', 'sequels', 'notes'],
    ])
    // The relation to Translator is turned off (@hidden): its key is a plain field.
    expect(title.translatorId).toBe(1)
    expect(title.editorId).toBe(1)
    const publisher = (await get(origin, '/publishers/1')).body
    expect(publisher.catalogue).toBe('/publishers/1/catalogue')
    expect('titles' in publisher).toBe(false)
    // The other side of the turned-off relation is still a link.
    expect((await get(origin, '/translators/1')).body.titles).toBe('/translators/1/titles')
    expect((await get(origin, '/tags/sci-fi')).body.titles).toBe('/tags/sci-fi/titles')
  })

  it('documentation and contexts declare the links', async () => {
    const properties = await documentedProperties(origin, 'Title')
    expect(properties.map((property) => property['hydra:title'])).toEqual([
      ...['id', 'isbn', 'name', 'pages', 'editorId', 'translatorId'],
      ...['publisher', 'tags', 'prequel', 'sequels', 'notes'],
    ])
    const byName = new Map(properties.map((property) => [property['hydra:title'], property]))
    const publisher = byName.get('publisher') as unknown as Record<string, Record<string, unknown>>
    expect(publisher['hydra:property']).toMatchObject({
      '@type': 'hydra:Link',
      'rdfs:range': { '@id': '#Publisher' },
      'owl:maxCardinality': 1,
    })
    expect(byName.get('publisher')?.['hydra:required']).toBe(false)
    const notes = byName.get('notes') as unknown as Record<string, Record<string, unknown>>
    expect(notes['hydra:property']?.['rdfs:range']).toEqual([
      { '@id': 'hydra:Collection' },
      {
        'owl:equivalentClass': {
          'owl:onProperty': { '@id': 'hydra:member' },
          'owl:allValuesFrom': { '@id': '#Note' },
        },
      },
    ])
    const noteProperties = await documentedProperties(origin, 'Note')
    expect(noteProperties.map((property) => property['hydra:title'])).toEqual([
      ...['id', 'writtenAt', 'text', 'about'],
    ])
    const context = (await get(origin, '/contexts/Title')).body['@context'] as Body
    expect(context.publisher).toEqual({ '@id': 'Title/publisher', '@type': '@id' })
    expect(context.sequels).toEqual({ '@id': 'Title/sequels', '@type': '@id' })
    expect(context.publisherId).toBeUndefined()
    expect(context.editor).toBeUndefined()
    expect((await get(origin, '/contexts/Publisher')).body['@context']).toMatchObject({
      catalogue: { '@id': 'Publisher/catalogue', '@type': '@id' },
    })
  })
})

describe('sub-collections hold exactly the related rows', () => {
  /** The ids of every page walked from `path` by `hydra:next`, and the pages. */
  async function walkIds(path: string) {
    const pages = await walk(path)
    return { pages, ids: pages.flatMap((page) => ids(page)) }
  }

  it('one-to-many, full paging: every related title once, counted, under the sub-collection’s path', async () => {
    for (const publisher of [1, 2, 3]) {
      const path = `/publishers/${publisher}/catalogue`
      const expected = (
        await prisma.title.findMany({ where: { publisherId: publisher }, orderBy: { id: 'asc' } })
      ).map((title) => title.id)
      const { pages, ids: walked } = await walkIds(path)
      expect(walked).toEqual(expected)
      for (const [index, page] of pages.entries()) {
        expect(page['@id']).toBe(path)
        expect(page['hydra:totalItems']).toBe(expected.length)
        for (const [key, link] of Object.entries(view(page)))
          if (key !== '@type') expect(link, key).toMatch(new RegExp(`^${path}\\?`))
        if (expected.length > 4) expect(view(page)['@id']).toBe(`${path}?page=${index + 1}`)
      }
      if (expected.length > 4)
        expect(view(pages[0] as Body)['hydra:last']).toBe(
          `${path}?page=${Math.ceil(expected.length / 4)}`
        )
    }
  })

  it('implicit many-to-many, both ways: partial paging of tags, full paging of titles', async () => {
    for (const title of range(1, 14)) {
      const path = `/titles/${title}/tags`
      const { pages, ids: walked } = await walkIds(path)
      expect(walked, path).toEqual([...tagsOf(title)].sort())
      for (const page of pages) expect(page['hydra:totalItems']).toBeUndefined()
    }
    for (const tag of ['classic', 'sci-fi', 'poetry', 'short', 'unused']) {
      const path = `/tags/${tag}/titles`
      const expected = range(1, 14).filter((title) => tagsOf(title).includes(tag))
      const { pages, ids: walked } = await walkIds(path)
      expect(walked, path).toEqual(expected)
      expect(pages[0]?.['hydra:totalItems']).toBe(expected.length)
    }
  })

  it('a self-relation: the sequels of a title', async () => {
    for (const title of range(1, 14)) {
      const expected = (
        await prisma.title.findMany({ where: { prequelId: title }, orderBy: { id: 'asc' } })
      ).map((row) => row.id)
      const { pages, ids: walked } = await walkIds(`/titles/${title}/sequels`)
      expect(walked).toEqual(expected)
      expect(pages[0]?.['hydra:totalItems']).toBe(expected.length)
    }
  })

  it('cursor paging through a key that is not the parent’s id: forward to the end and back', async () => {
    for (const title of range(1, 6)) {
      const path = `/titles/${title}/notes`
      const expected = (
        await prisma.note.findMany({
          where: { title: { id: title } },
          orderBy: [{ writtenAt: 'desc' }, { id: 'desc' }],
        })
      ).map((note) => note.id)
      const forward = await walk(path)
      expect(forward.flatMap((page) => ids(page))).toEqual(expected)
      for (const page of forward)
        for (const [key, link] of Object.entries(view(page)))
          if (key !== '@type' && key !== '@id') expect(link).toMatch(new RegExp(`^${path}\\?`))
      const last = forward.at(-1) as Body
      const back = view(last)['hydra:previous']
      if (!back) {
        expect(forward).toHaveLength(1)
        continue
      }
      const backward = await walk(back, 'hydra:previous')
      expect([...backward].reverse().flatMap((page) => ids(page))).toEqual(
        expected.slice(0, expected.length - ids(last).length)
      )
    }
  })

  it('the target’s filters, orders and client controls apply within the sub-collection', async () => {
    const path = '/publishers/1/catalogue'
    const related = await prisma.title.findMany({ where: { publisherId: 1 } })
    const byPages = [...related]
      .filter((title) => title.pages >= 200)
      .sort((a, b) => b.pages - a.pages || a.id - b.id)
    const query = `${path}?pages[gte]=200&order[pages]=desc&itemsPerPage=2`
    const { pages, ids: walked } = await walkIds(query)
    expect(walked).toEqual(byPages.map((title) => title.id))
    expect(pages[0]?.['hydra:totalItems']).toBe(byPages.length)
    expect(pages[0]?.['hydra:search']).toStrictEqual({ '@id': `${path}#search` })
    expect((await get(origin, path)).body['hydra:search']).toMatchObject({
      '@id': `${path}#search`,
      'hydra:template': expect.stringMatching(new RegExp(`^${path}\\{\\?`)),
    })
    const named = await get(origin, `${path}?name=${encodeURIComponent(' 1')}&pagination=false`)
    expect(ids(named.body)).toEqual(
      related
        .filter((title) => title.name.includes(' 1'))
        .map((title) => title.id)
        .sort((a, b) => a - b)
    )
    const partial = await get(origin, `${path}?partial=true&page=2`)
    expect(partial.body['hydra:totalItems']).toBeUndefined()
    expect(ids(partial.body)).toEqual(related.map((title) => title.id).slice(4, 8))
    // Through a relation of the target (publisher.name), within the tag's titles.
    const tagged = range(1, 14).filter((title) => tagsOf(title).includes('short'))
    const published = await prisma.title.findMany({
      where: { id: { in: tagged }, publisher: { name: 'Publisher 1' } },
      orderBy: { id: 'asc' },
    })
    const through = await get(origin, '/tags/short/titles?publisher.name=Publisher%201')
    expect(ids(through.body)).toEqual(published.map((title) => title.id))
    expect(through.body['hydra:totalItems']).toBe(published.length)
    const ordered = await get(
      origin,
      '/tags/short/titles?order[publisher.name]=desc&pagination=false'
    )
    const rows = await prisma.title.findMany({
      where: { id: { in: tagged } },
      orderBy: [{ publisher: { name: 'desc' } }, { id: 'asc' }],
    })
    expect(ids(ordered.body)).toEqual(rows.map((title) => title.id))
    const bad = await get(origin, `${path}?page=0`)
    expect([bad.status, bad.contentType]).toEqual([400, 'application/problem+json; charset=utf-8'])
  })
})

describe('an item key spelled another way', () => {
  it.each(['/tags/SCI-FI', '/tags/Sci-Fi', '/tags/sci-fi%20'])(
    '%s is a 404 problem',
    async (path) => {
      const { status, body } = await get(origin, path)
      expect(status).toBe(404)
      expect(body.detail).toMatch(/^No Tag with id "/)
    }
  )
})

describe('exists on an optional relation', () => {
  it('exists[prequel]=false lists the titles without a prequel, true the others', async () => {
    for (const value of [false, true]) {
      const expected = await prisma.title.findMany({
        where: { prequel: value ? { isNot: null } : null },
        orderBy: { id: 'asc' },
      })
      const { status, body } = await get(
        origin,
        `/titles?exists[prequel]=${value}&pagination=false`
      )
      expect(status).toBe(200)
      expect(ids(body)).toEqual(expected.map((title) => title.id))
      expect(body['hydra:totalItems']).toBe(expected.length)
    }
    expect(ids((await get(origin, '/titles?exists[prequel]=false&pagination=false')).body)).toEqual(
      [1, 2, 3]
    )
    const unpublished = await get(origin, '/titles?exists[publisher]=0&pagination=false')
    expect(ids(unpublished.body)).toEqual([4, 8, 12])
  })
})

describe('a sub-collection leaves out the relation that defines it', () => {
  const variables = (body: Body) =>
    (
      (body['hydra:search'] as { 'hydra:mapping': { variable: string }[] })['hydra:mapping'] ?? []
    ).map((mapping) => mapping.variable)

  it('neither advertises nor reads filters and orders on it', async () => {
    const all = variables((await get(origin, '/titles')).body)
    expect(all).toEqual(
      expect.arrayContaining([
        'publisher.name',
        'exists[publisher]',
        'exists[prequel]',
        'order[publisher.name]',
      ])
    )
    const catalogue = variables((await get(origin, '/publishers/1/catalogue')).body)
    expect(catalogue).toEqual(all.filter((variable) => !/publisher/.test(variable)))
    const sequels = variables((await get(origin, '/titles/1/sequels')).body)
    expect(sequels).toEqual(all.filter((variable) => variable !== 'exists[prequel]'))
    // Many-to-many: a title has several tags, nothing is left out.
    expect(variables((await get(origin, '/tags/short/titles')).body)).toEqual(all)

    const published = await prisma.title.findMany({
      where: { publisherId: 1 },
      orderBy: { id: 'asc' },
    })
    // Read as any parameter the sub-collection does not know: a plain one is ignored...
    const named = await get(
      origin,
      '/publishers/1/catalogue?publisher.name=Publisher%202&pagination=false'
    )
    expect([named.status, ids(named.body)]).toEqual([200, published.map((title) => title.id)])
    // ...an unknown key of exists or order is a 400 naming it.
    for (const parameter of ['exists[publisher]=false', 'order[publisher.name]=desc']) {
      const { status, body } = await get(origin, `/publishers/1/catalogue?${parameter}`)
      expect(status, parameter).toBe(400)
      expect(body.detail).toContain(`"${parameter.split('=')[0]}" parameter is not known`)
    }
  })
})

describe('a model named like a Hydra term', () => {
  /** Loads the server's contexts for the JSON-LD processor. */
  const documentLoader = async (url: string) => {
    const response = await fetch(url, { headers: { Accept: 'application/ld+json' } })
    if (!response.ok) throw new Error(`${url}: ${response.status}`)
    return { contextUrl: null, documentUrl: url, document: await response.json() }
  }
  const expand = async (path: string) => {
    const url = `${origin}${path}`
    const body = await (await fetch(url)).json()
    const options = { base: url, documentLoader, safe: true }
    return (await jsonld.expand(body, options as unknown as jsonld.Options.Expand)) as Array<
      Record<string, unknown>
    >
  }

  it("Collection is the API's own type, its collection hydra:Collection", async () => {
    const docs = `${origin}/docs.jsonld#`
    const [item] = await expand('/collections/1')
    expect(item?.['@type']).toEqual([`${docs}Collection`])
    const [page] = await expand('/collections')
    expect(page?.['@type']).toEqual(['http://www.w3.org/ns/hydra/core#Collection'])
    const members = (page?.['http://www.w3.org/ns/hydra/core#member'] ?? []) as Array<
      Record<string, unknown>
    >
    const member = members[0]
    expect(member?.['@type']).toEqual([`${docs}Collection`])
  })
})

describe('a parent that does not exist', () => {
  it.each([
    '/publishers/99/catalogue',
    '/publishers/abc/catalogue',
    '/publishers/01/catalogue',
    '/publishers/99999999999999999999/catalogue',
    '/tags/missing/titles',
    // One spelling per key, whatever the column's collation (MariaDB's ignores case and trailing spaces).
    '/tags/SCI-FI/titles',
    '/tags/Sci-Fi/titles',
    '/tags/sci-fi%20/titles',
    '/titles/0/notes',
    '/translators/2/titles',
    // Whichever read the rows take (a page without its count, a stream, a cursor page), and
    // before a query the parent's collection refuses.
    '/publishers/99/catalogue?partial=true',
    '/publishers/99/catalogue?pagination=false',
    '/publishers/99/catalogue?page=0',
    '/tags/missing/titles?order[nope]=asc',
    '/titles/0/notes?writtenAt[lt]=never',
  ])('%s is a 404 problem', async (path) => {
    const { status, contentType, body } = await get(origin, path)
    expect([status, contentType]).toEqual([404, 'application/problem+json; charset=utf-8'])
    expect(body.detail).toMatch(/^No (Publisher|Tag|Title|Translator) with id "/)
  })
})

it("answers every request of this file as the API's OpenAPI document says", async () => {
  const result = await openApi.result()
  expect(result.violations).toEqual([])
  expect(result.checked).toBeGreaterThan(20)
})
