import { describe, expect, it } from 'vitest'
import { iriBuilder } from '../iri/iri-builder.js'
import { parseQuery } from '../iri/query-string.js'
import { fromFullPaginator } from '../paging/page.js'
import type { CollectionPage } from '../paging/types.js'
import { viewLinkHeader } from './view-link-header.js'

const ORIGIN = 'https://api.example'
const view = iriBuilder('/api/books', parseQuery('itemsPerPage=5&page=2'), 'page')

describe('viewLinkHeader', () => {
  it("writes every view link, absolute, under RFC 8288's relation types", () => {
    const page = fromFullPaginator({
      items: [],
      currentPage: 2,
      itemsPerPage: 5,
      totalItems: 20,
      lastPage: 4,
    })
    expect(viewLinkHeader(page, view, ORIGIN)).toBe(
      [
        '<https://api.example/api/books?itemsPerPage=5&page=1>; rel="first"',
        '<https://api.example/api/books?itemsPerPage=5&page=4>; rel="last"',
        '<https://api.example/api/books?itemsPerPage=5&page=1>; rel="prev"',
        '<https://api.example/api/books?itemsPerPage=5&page=3>; rel="next"',
      ].join(', ')
    )
  })

  it('writes the cursor links a keyset page has, as its view writes them', () => {
    const cursor = iriBuilder('/activities', parseQuery(''), 'page')
    const page: CollectionPage<unknown> = {
      items: [],
      paginated: true,
      self: {},
      previous: { overrides: [['id', new Map([['gt', '7']])]] },
      next: { overrides: [['id', new Map([['lt', '3']])]] },
    }
    expect(viewLinkHeader(page, cursor, ORIGIN)).toBe(
      '<https://api.example/activities?id%5Bgt%5D=7>; rel="prev", <https://api.example/activities?id%5Blt%5D=3>; rel="next"'
    )
  })

  it('writes nothing for a view without links: a single page asked with parameters', () => {
    const page: CollectionPage<unknown> = { items: [], paginated: false, self: {} }
    expect(viewLinkHeader(page, view, ORIGIN)).toBe('')
  })
})
