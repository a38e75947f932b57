import { defaultParameterNames } from '@prisma-hydra/runtime/defaults'
import { describe, expect, it } from 'vitest'
import type { PagingOptions } from '../schema/options.js'
import { embeddedPage } from './embedded-page.js'

const global = { defaults: {}, parameters: defaultParameterNames }
const pageOf = (options: PagingOptions, first = 3, defaults: PagingOptions = {}) =>
  embeddedPage({ options }, first, { ...global, defaults })

describe("the sub-collection's page a capped to-many embed names", () => {
  it('asks for first items a page where clients choose the page size, up to its maximum', () => {
    expect(pageOf({ clientItemsPerPage: true })).toStrictEqual({
      page: 'page',
      itemsPerPage: 'itemsPerPage',
      size: 3,
    })
    expect(pageOf({ clientItemsPerPage: true, maximumItemsPerPage: 2 })).toStrictEqual({
      page: 'page',
      size: 30,
    })
    expect(pageOf({ clientItemsPerPage: true, maximumItemsPerPage: null }, 100).size).toBe(100)
  })

  it("is the sub-collection's own first page when clients may not choose, or first is its size", () => {
    expect(pageOf({})).toStrictEqual({ page: 'page', size: 30 })
    expect(pageOf({ clientItemsPerPage: true, itemsPerPage: 3 })).toStrictEqual({
      page: 'page',
      size: 3,
    })
    expect(pageOf({ itemsPerPage: 10, partial: true })).toStrictEqual({
      page: 'page',
      size: 10,
      partial: true,
    })
  })

  it('takes platform defaults and renamed parameters, and gives no size when unpaged', () => {
    expect(pageOf({}, 3, { clientItemsPerPage: true, itemsPerPage: 5 })).toStrictEqual({
      page: 'page',
      itemsPerPage: 'itemsPerPage',
      size: 3,
    })
    const renamed = { ...defaultParameterNames, page: 'p', itemsPerPage: 'size' }
    expect(
      embeddedPage({ options: { clientItemsPerPage: true } }, 3, {
        defaults: {},
        parameters: renamed,
      })
    ).toStrictEqual({ page: 'p', itemsPerPage: 'size', size: 3 })
    expect(pageOf({ enabled: false, clientItemsPerPage: true })).toStrictEqual({ page: 'page' })
  })
})
