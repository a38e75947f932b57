import { describe, expect, it } from 'vitest'
import { defaultParameterNames } from '../contract/paging.js'
import type { QuerySpec } from '../contract/query.js'
import { defaultFilterParameterNames } from '../filters/spec.js'
import { parseQuery } from '../iri/query-string.js'
import { defaultPagingConfig } from '../paging/config.js'
import type { CollectionPage } from '../paging/types.js'
import { type RenderOptions, renderCollection, viewLinks } from './collection.js'
import { type PageAt, pageDocument } from './page-document.js'
import { collectionSearch, pageSearch } from './search.js'

/**
 * The page writer every collection route uses, checked against the document `renderCollection`
 * renders for the same page: the same text byte for byte (keys in the same order, the same
 * escaping), over every part a page may have or lack and both key styles.
 */

const spec: QuerySpec = {
  filters: [
    { kind: 'search', field: 'title', strategy: 'partial', type: 'String' },
    { kind: 'range', field: 'price', type: 'Decimal' },
  ],
  order: [{ field: 'title', type: 'String' }],
  id: { field: 'id', type: 'Int' },
  parameters: defaultFilterParameterNames,
  likeEscape: 'none',
}
const book = { name: 'Book', fields: [] }

/** The search block of a collection with filters and an order, for either key style. */
const searchOf = (prefix: boolean) => collectionSearch(book, defaultPagingConfig, prefix, spec)
/** The search block of a collection that reads no parameter: none. */
const noSearch = () => undefined

const members = [
  { '@id': '/books/1', '@type': 'Book', title: 'Quoted "title"', price: '1.50' },
  { '@id': '/books/2', '@type': 'Book', title: 'Ünïcode\u2028line\\slash', price: null },
]

/** Pages of every shape a paging mode produces: the parts the writer shows or leaves out. */
const PAGES: Record<string, CollectionPage<unknown>> = {
  'a single page, no view': { items: members, totalItems: 2, paginated: false, self: {} },
  // Links on a page that is not paginated are not shown: a whole collection has no other page.
  'a whole collection with links': {
    items: members,
    totalItems: 2,
    paginated: false,
    self: {},
    first: { page: 1 },
    last: { page: 1 },
  },
  'a middle page of full paging': {
    items: members,
    totalItems: 9,
    paginated: true,
    self: { page: 2 },
    first: { page: 1 },
    last: { page: 5 },
    previous: { page: 1 },
    next: { page: 3 },
  },
  'the first page of partial paging': {
    items: members,
    paginated: true,
    self: { page: 1 },
    next: { page: 2 },
  },
  'a cursor page': {
    items: members,
    paginated: true,
    self: { overrides: [['after', 'b']] },
    previous: { overrides: [['before', 'a']] },
    next: { overrides: [['after', 'z z']] },
  },
  'an estimated total': {
    items: members,
    totalItems: 120,
    totalItemsAccuracy: 'estimated',
    paginated: true,
    self: { page: 1 },
    first: { page: 1 },
    last: { page: 40 },
    next: { page: 2 },
  },
  'a cached total of an empty collection': {
    items: [],
    totalItems: 0,
    totalItemsAccuracy: 'cached',
    paginated: true,
    self: { page: 1 },
    first: { page: 1 },
    last: { page: 1 },
  },
}

/** Requested paths and queries: a mount prefix, characters JSON escapes, a query or none. */
const REQUESTS = [
  { path: '/books', query: '' },
  { path: '/api/books', query: 'title=a&order%5Btitle%5D=desc&page=2' },
  { path: '/shelf "A"/b\\c/é', query: 'itemsPerPage=2' },
]

/** The writer's text and renderCollection's for one page, request and key style. */
function bothTexts(
  page: CollectionPage<unknown>,
  request: { path: string; query: string },
  prefix: boolean,
  search: (path: string) => Record<string, unknown> | undefined
) {
  const options: RenderOptions = {
    path: request.path,
    query: parseQuery(request.query),
    parameters: defaultParameterNames,
    context: `/contexts/Book"${prefix}`,
    hydraPrefix: prefix,
    search: pageSearch(search(request.path), request.path, request.query === ''),
  }
  const at: PageAt = {
    path: request.path,
    context: options.context,
    view: viewLinks(page, options),
    entry: request.query === '',
  }
  return {
    written: pageDocument(prefix, search)(page, page.items, at),
    rendered: JSON.stringify(renderCollection(page, options)),
  }
}

describe('pageDocument', () => {
  for (const prefix of [true, false]) {
    for (const withSearch of [true, false]) {
      const style = `${prefix ? 'hydra:' : 'unprefixed'} keys, ${withSearch ? 'a' : 'no'} search block`
      for (const [name, page] of Object.entries(PAGES)) {
        it(`writes ${name} as renderCollection renders it (${style})`, () => {
          const search = withSearch ? searchOf(prefix) : noSearch
          for (const request of REQUESTS) {
            const { written, rendered } = bothTexts(page, request, prefix, search)
            expect(written).toBe(rendered)
          }
        })
      }
    }
  }

  it('writes each path into the search block, the writer made once for every path', () => {
    const write = pageDocument(true, searchOf(true))
    const page = PAGES['a single page, no view'] as CollectionPage<unknown>
    for (const path of ['/books', '/api/v2/books', '/q"u\\o/te', '/tab\tpath']) {
      const document = JSON.parse(
        write(page, members, { path, context: '/c', view: undefined, entry: true })
      )
      expect(document['@id']).toBe(path)
      expect(document['hydra:search']).toEqual(searchOf(true)(path))
      expect(document['hydra:search']['hydra:template'].startsWith(`${path}{?`)).toBe(true)
    }
  })

  it('writes the template on the entry page only, a reference to it on every other page', () => {
    const write = pageDocument(true, searchOf(true))
    const page = PAGES['a middle page of full paging'] as CollectionPage<unknown>
    for (const path of ['/books', '/api/v2/books', '/q"u\\o/te']) {
      const entry = JSON.parse(
        write(page, members, { path, context: '/c', view: undefined, entry: true })
      )
      expect(entry['hydra:search']['@id']).toBe(`${path}#search`)
      expect(entry['hydra:search']['hydra:template'].startsWith(`${path}{?`)).toBe(true)
      const other = JSON.parse(
        write(page, members, { path, context: '/c', view: undefined, entry: false })
      )
      expect(other['hydra:search']).toStrictEqual({ '@id': `${path}#search` })
    }
    const none = pageDocument(true, noSearch)(page, members, {
      path: '/languages',
      context: '/c',
      view: undefined,
      entry: false,
    })
    expect(JSON.parse(none)).not.toHaveProperty('hydra:search')
  })

  it('takes the members as given, not the page’s items', () => {
    const page = PAGES['a middle page of full paging'] as CollectionPage<unknown>
    const shown = [{ '@id': '/books/1' }]
    const document = JSON.parse(
      pageDocument(false, noSearch)(page, shown, {
        path: '/books',
        context: '/c',
        view: undefined,
        entry: true,
      })
    )
    expect(document.member).toEqual(shown)
    expect(document).not.toHaveProperty('view')
  })

  it('writes a search block whose text holds the path more than once, the path at each place', () => {
    const twice = (path: string) => ({ '@type': 'IriTemplate', template: path, also: path })
    const write = pageDocument(false, twice)
    const page = PAGES['a single page, no view'] as CollectionPage<unknown>
    for (const path of ['/books', '/x"y']) {
      const document = JSON.parse(
        write(page, [], { path, context: '/c', view: undefined, entry: true })
      )
      expect(document.search).toEqual(twice(path))
    }
  })

  it('writes a search block that does not hold the path as it is', () => {
    const fixed = () => ({ '@type': 'IriTemplate', template: '/elsewhere{?q}' })
    const page = PAGES['a single page, no view'] as CollectionPage<unknown>
    const text = pageDocument(true, fixed)(page, [], {
      path: '/a',
      context: '/c',
      view: undefined,
      entry: true,
    })
    expect(JSON.parse(text)['hydra:search']).toEqual(fixed())
  })
})
