import { describe, expect, it } from 'vitest'
import { embeddedView } from './embedded-view.js'

const sub = '/api/books/1/loans'

describe("a capped to-many embed's view", () => {
  it('names the page of first items, with its first and next pages, in normal form', () => {
    const view = embeddedView({ page: 'page', itemsPerPage: 'itemsPerPage', size: 3 }, 3, true)
    expect(view(sub, 4)).toStrictEqual({
      '@id': `${sub}?itemsPerPage=3&page=1`,
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': `${sub}?itemsPerPage=3&page=1`,
      'hydra:next': `${sub}?itemsPerPage=3&page=2`,
    })
    const renamed = embeddedView({ page: 'p', itemsPerPage: 'size', size: 2 }, 2, false)
    expect(renamed(sub, 3)).toStrictEqual({
      '@id': `${sub}?size=2&p=1`,
      '@type': 'PartialCollectionView',
      first: `${sub}?size=2&p=1`,
      next: `${sub}?size=2&p=2`,
    })
  })

  it("links on from the sub-collection's own first page only when it read past it", () => {
    const view = embeddedView({ page: 'page', size: 30 }, 3, true)
    expect(view(sub, 4)).toStrictEqual({
      '@id': `${sub}?page=1`,
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': `${sub}?page=1`,
    })
    expect(embeddedView({ page: 'page', size: 2 }, 3, true)(sub, 4)['hydra:next']).toBe(
      `${sub}?page=2`
    )
  })

  it('gives no first page on partial pages, and no link on an unpaged sub-collection', () => {
    const partial = embeddedView(
      { page: 'page', size: 3, itemsPerPage: 'n', partial: true },
      3,
      true
    )
    expect(partial(sub, 4)).toStrictEqual({
      '@id': `${sub}?n=3&page=1`,
      '@type': 'hydra:PartialCollectionView',
      'hydra:next': `${sub}?n=3&page=2`,
    })
    expect(embeddedView({ page: 'page' }, 3, true)(sub, 4)).toStrictEqual({
      '@id': `${sub}?page=1`,
      '@type': 'hydra:PartialCollectionView',
    })
  })
})
