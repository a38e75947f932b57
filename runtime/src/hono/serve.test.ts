import { describe, expect, it } from 'vitest'
import { paginateArray } from '../paging/paginators.js'
import { hydraCollection } from './serve.js'

describe('hydraCollection: paging options are checked when the collection is defined', () => {
  const define = (paging: Parameters<typeof hydraCollection>[0]['paging']) => () =>
    hydraCollection({ context: '/contexts/Item', paging }, (request) => paginateArray([], request))

  it.each([
    [{ itemsPerPage: -1 }, 'itemsPerPage must be an integer of at least 0, -1 given'],
    [{ itemsPerPage: 2.5 }, 'itemsPerPage must be an integer of at least 0, 2.5 given'],
    [{ maximumItemsPerPage: 0 }, 'maximumItemsPerPage must be a positive integer or null, 0 given'],
    [{ parameters: { page: '' } }, 'parameter names must be non-empty strings'],
    [
      { parameters: { page: 'p', itemsPerPage: 'p' } },
      'parameter names must be distinct, p, pagination, p, partial given',
    ],
  ])('%o', (paging, message) => {
    expect(define(paging)).toThrow(`hydraCollection: invalid paging options: ${message}.`)
  })

  it('accepts the defaults, a null maximum and renamed parameters', () => {
    expect(define(undefined)).not.toThrow()
    expect(define({ maximumItemsPerPage: null, parameters: { page: 'p' } })).not.toThrow()
  })
})
