import { describe, expect, it } from 'vitest'
import type { PagingConfig } from '../contract/paging.js'
import { HydraError, PROBLEM_JSON } from '../errors.js'
import { parseQuery } from '../iri/query-string.js'
import { defaultPagingConfig } from './config.js'
import { readPagingRequest } from './request.js'
import type { PagingRequest } from './types.js'

/**
 * Reference sections 1.3-1.5, with our differences D1 (page and itemsPerPage are decimal integers)
 * and D2 (booleans are one of `1 true on yes` / `0 false off no`, anything else is a 400).
 */

/** The reference's test kernel: every client option on, 3 per page, and the bundle's maximum 30. */
const kernel: PagingConfig = {
  ...defaultPagingConfig,
  clientEnabled: true,
  clientItemsPerPage: true,
  clientPartial: true,
  itemsPerPage: 3,
  maximumItemsPerPage: 30,
}

/** Nothing the client can change: the spec's defaults with 3 per page. */
const serverOnly: PagingConfig = { ...defaultPagingConfig, itemsPerPage: 3 }

const PAGE_BELOW_ONE = 'Page should not be less than 1'
const LIMIT_BELOW_ZERO = 'Limit should not be less than 0'
const PAGE_WITH_ZERO_LIMIT = 'Page should not be greater than 1 if limit is equal to 0'
const PAGE_TOO_LARGE = 'Page parameter is too large.'

const notDecimal = (name: string, raw: string): string =>
  `The "${name}" parameter must be a decimal integer, "${raw}" given.`
const notBoolean = (name: string, raw: string): string =>
  `The "${name}" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "${raw}" given.`
const notSingle = (name: string): string =>
  `The "${name}" parameter must be given once, as a single value.`

function read(raw: string, config: PagingConfig = kernel): PagingRequest {
  return readPagingRequest(parseQuery(raw), config)
}

function errorOf(raw: string, config: PagingConfig = kernel): HydraError {
  try {
    read(raw, config)
  } catch (error) {
    if (error instanceof HydraError) return error
    throw error
  }
  throw new Error(`?${raw} was accepted`)
}

/** Expects `?raw` to be refused with a 400 whose detail is exactly `detail`. */
function expectRefused(raw: string, detail: string, config: PagingConfig = kernel): void {
  const error = errorOf(raw, config)
  expect({ status: error.status, detail: error.detail, message: error.message }).toStrictEqual({
    status: 400,
    detail,
    message: detail,
  })
}

function paged(page: number, itemsPerPage = 3, partial = false): PagingRequest {
  return { paged: true, partial, page, itemsPerPage, offset: (page - 1) * itemsPerPage }
}

const unpaged: PagingRequest = { paged: false }

type Row = { raw: string; expected: PagingRequest | string }

/** A row expects either the request read from `?raw`, or the detail of the 400 it gets. */
function check({ raw, expected }: Row, config: PagingConfig = kernel): void {
  if (typeof expected === 'string') expectRefused(raw, expected, config)
  else expect(read(raw, config)).toStrictEqual(expected)
}

describe('readPagingRequest: page (reference 1.3, D1)', () => {
  const rows: Row[] = [
    { raw: '', expected: paged(1) },
    { raw: 'page=1', expected: paged(1) },
    { raw: 'page=7', expected: paged(7) },
    { raw: 'page=12', expected: paged(12) },
    { raw: 'page=007', expected: paged(7) },
    { raw: 'page=%32', expected: paged(2) },
    { raw: 'page=1&page=3', expected: notSingle('page') },
    { raw: 'page=1&page[]=3', expected: notSingle('page') },
    { raw: 'page=0', expected: PAGE_BELOW_ONE },
    { raw: 'page=-1', expected: PAGE_BELOW_ONE },
    { raw: 'page=-0', expected: PAGE_BELOW_ONE },
    { raw: 'page=-9223372036854775808', expected: PAGE_BELOW_ONE },
    { raw: 'page=-99999999999999999999999', expected: PAGE_BELOW_ONE },
    // D1: the reference casts these with PHP (int); we refuse them, naming the parameter.
    { raw: 'page=abc', expected: notDecimal('page', 'abc') },
    { raw: 'page=', expected: notDecimal('page', '') },
    { raw: 'page', expected: notDecimal('page', '') },
    { raw: 'page=2.7', expected: notDecimal('page', '2.7') },
    { raw: 'page=2.0', expected: notDecimal('page', '2.0') },
    { raw: 'page=2abc', expected: notDecimal('page', '2abc') },
    { raw: 'page=%202', expected: notDecimal('page', ' 2') },
    { raw: 'page=+2', expected: notDecimal('page', ' 2') },
    { raw: 'page=2%20', expected: notDecimal('page', '2 ') },
    { raw: 'page=%2B2', expected: notDecimal('page', '+2') },
    { raw: 'page=1e1', expected: notDecimal('page', '1e1') },
    { raw: 'page=0x1A', expected: notDecimal('page', '0x1A') },
    { raw: 'page=1&page=x', expected: notSingle('page') },
    { raw: 'page[]=5', expected: notSingle('page') },
    { raw: 'page[]=', expected: notSingle('page') },
    { raw: 'page%5B%5D=5', expected: notSingle('page') },
    { raw: 'page[a]=5', expected: notSingle('page') },
    { raw: 'page=2&page[]=5', expected: notSingle('page') },
    // The offset (page - 1) × 3 overflows: the reference's 64-bit limit, ours the safe integers.
    { raw: 'page=9223372036854775807', expected: PAGE_TOO_LARGE },
    { raw: 'page=99999999999999999999999', expected: PAGE_TOO_LARGE },
    { raw: 'page=3002399751580332', expected: PAGE_TOO_LARGE },
    {
      raw: 'page=3002399751580331',
      expected: {
        paged: true,
        partial: false,
        page: 3002399751580331,
        itemsPerPage: 3,
        offset: 9007199254740990,
      },
    },
  ]

  it.each(rows)('?$raw', (row) => check(row))

  it('reads the page even when the client may change nothing', () => {
    expect(read('page=4', serverOnly)).toStrictEqual(paged(4))
    expectRefused('page=0', PAGE_BELOW_ONE, serverOnly)
    expectRefused('page=2abc', notDecimal('page', '2abc'), serverOnly)
    expectRefused('page[]=5', notSingle('page'), serverOnly)
    expectRefused('page=9223372036854775807', PAGE_TOO_LARGE, serverOnly)
  })

  it('gives a HydraError whose problem+json response carries the detail', async () => {
    const error = errorOf('page=0')
    expect(error).toBeInstanceOf(HydraError)
    const response = error.getResponse()
    expect(response.status).toBe(400)
    expect(response.headers.get('Content-Type')).toBe(PROBLEM_JSON)
    const body = (await response.json()) as Record<string, unknown>
    expect({ detail: body.detail, status: body.status, type: body['@type'] }).toStrictEqual({
      detail: PAGE_BELOW_ONE,
      status: 400,
      type: 'hydra:Error',
    })
  })
})

describe('readPagingRequest: itemsPerPage (reference 1.4, D1)', () => {
  const rows: Row[] = [
    { raw: 'itemsPerPage=10', expected: paged(1, 10) },
    { raw: 'itemsPerPage=1', expected: paged(1, 1) },
    { raw: 'itemsPerPage=30', expected: paged(1, 30) },
    { raw: 'page=3&itemsPerPage=10', expected: paged(3, 10) },
    { raw: 'page=2&itemsPerPage=10', expected: paged(2, 10) },
    // Above the maximum: clamped, never an error (the IRIs still say what was sent).
    { raw: 'itemsPerPage=31', expected: paged(1, 30) },
    { raw: 'page=2&itemsPerPage=40', expected: paged(2, 30) },
    { raw: 'itemsPerPage=99999999999999999999', expected: paged(1, 30) },
    // Zero is "only the count"; only page 1 exists.
    { raw: 'itemsPerPage=0', expected: paged(1, 0) },
    { raw: 'itemsPerPage=0&page=1', expected: paged(1, 0) },
    { raw: 'itemsPerPage=000', expected: paged(1, 0) },
    { raw: 'itemsPerPage=0&page=2', expected: PAGE_WITH_ZERO_LIMIT },
    { raw: 'itemsPerPage=0&page=9223372036854775807', expected: PAGE_WITH_ZERO_LIMIT },
    // Negative: refused, not clamped.
    { raw: 'itemsPerPage=-1', expected: LIMIT_BELOW_ZERO },
    { raw: 'itemsPerPage=-99999999999999999999', expected: LIMIT_BELOW_ZERO },
    { raw: 'page=2&itemsPerPage=-1', expected: LIMIT_BELOW_ZERO },
    { raw: 'page=9223372036854775807&itemsPerPage=-1', expected: LIMIT_BELOW_ZERO },
    // Check order of getPagination: page < 1, then limit < 0, then limit 0 with page > 1.
    { raw: 'page=0&itemsPerPage=-1', expected: PAGE_BELOW_ONE },
    { raw: 'page=0&itemsPerPage=0', expected: PAGE_BELOW_ONE },
    { raw: 'page=-1&itemsPerPage=abc', expected: PAGE_BELOW_ONE },
    { raw: 'page=abc&itemsPerPage=abc', expected: notDecimal('page', 'abc') },
    { raw: 'page=2&itemsPerPage=abc', expected: notDecimal('itemsPerPage', 'abc') },
    // D1: the reference reads `abc` and `` as 0 and `1e1` as 10; we refuse them.
    { raw: 'itemsPerPage=abc', expected: notDecimal('itemsPerPage', 'abc') },
    { raw: 'itemsPerPage=', expected: notDecimal('itemsPerPage', '') },
    { raw: 'itemsPerPage', expected: notDecimal('itemsPerPage', '') },
    { raw: 'itemsPerPage=2abc', expected: notDecimal('itemsPerPage', '2abc') },
    { raw: 'itemsPerPage=1e1', expected: notDecimal('itemsPerPage', '1e1') },
    { raw: 'itemsPerPage=2.7', expected: notDecimal('itemsPerPage', '2.7') },
    { raw: 'itemsPerPage=%202', expected: notDecimal('itemsPerPage', ' 2') },
    { raw: 'itemsPerPage=0x1A', expected: notDecimal('itemsPerPage', '0x1A') },
    { raw: 'itemsPerPage=-', expected: notDecimal('itemsPerPage', '-') },
    { raw: 'itemsPerPage[]=5', expected: notSingle('itemsPerPage') },
    { raw: 'itemsPerPage[x]=5', expected: notSingle('itemsPerPage') },
  ]

  it.each(rows)('?$raw (maximum 30)', (row) => check(row))

  describe('with no maximum', () => {
    const unbounded: PagingConfig = { ...kernel, maximumItemsPerPage: null }
    const rows: Row[] = [
      { raw: '', expected: paged(1) },
      { raw: 'itemsPerPage=1000', expected: paged(1, 1000) },
      { raw: 'page=4&itemsPerPage=1000', expected: paged(4, 1000) },
      { raw: 'itemsPerPage=9007199254740991', expected: paged(1, 9007199254740991) },
      {
        raw: 'page=2&itemsPerPage=9007199254740991',
        expected: {
          paged: true,
          partial: false,
          page: 2,
          itemsPerPage: 9007199254740991,
          offset: 9007199254740991,
        },
      },
      { raw: 'page=3&itemsPerPage=9007199254740991', expected: PAGE_TOO_LARGE },
      {
        raw: 'itemsPerPage=99999999999999999999',
        expected: 'The "itemsPerPage" parameter is too large.',
      },
      { raw: 'itemsPerPage=-1', expected: LIMIT_BELOW_ZERO },
      { raw: 'itemsPerPage=0&page=2', expected: PAGE_WITH_ZERO_LIMIT },
    ]
    it.each(rows)('?$raw', (row) => check(row, unbounded))
  })

  describe('clamping the server default (reference 1.4 step 2, run)', () => {
    it('clamps the default to the maximum when the client may set the page size', () => {
      const config: PagingConfig = { ...kernel, itemsPerPage: 50, maximumItemsPerPage: 30 }
      expect(read('', config)).toStrictEqual(paged(1, 30))
      expect(read('page=2', config)).toStrictEqual(paged(2, 30))
      expect(read('itemsPerPage=10', config)).toStrictEqual(paged(1, 10))
    })

    it('keeps the default when the maximum is equal to it or absent', () => {
      expect(read('', { ...kernel, itemsPerPage: 30, maximumItemsPerPage: 30 })).toStrictEqual(
        paged(1, 30)
      )
      expect(read('', { ...kernel, itemsPerPage: 50, maximumItemsPerPage: null })).toStrictEqual(
        paged(1, 50)
      )
    })

    it('never applies the maximum, and ignores the parameter, when the client may not', () => {
      const config: PagingConfig = {
        ...kernel,
        clientItemsPerPage: false,
        itemsPerPage: 50,
        maximumItemsPerPage: 30,
      }
      const rows: Row[] = [
        { raw: '', expected: paged(1, 50) },
        { raw: 'itemsPerPage=10', expected: paged(1, 50) },
        { raw: 'itemsPerPage=40', expected: paged(1, 50) },
        { raw: 'page=2&itemsPerPage=0', expected: paged(2, 50) },
        { raw: 'itemsPerPage=-1', expected: paged(1, 50) },
        { raw: 'itemsPerPage=abc', expected: paged(1, 50) },
        { raw: 'itemsPerPage=', expected: paged(1, 50) },
        { raw: 'itemsPerPage[]=5', expected: paged(1, 50) },
        { raw: 'page=0&itemsPerPage=10', expected: PAGE_BELOW_ONE },
      ]
      for (const row of rows) check(row, config)
    })

    it('accepts a configured page size of 0 on page 1 only', () => {
      const config: PagingConfig = { ...serverOnly, itemsPerPage: 0 }
      expect(read('', config)).toStrictEqual(paged(1, 0))
      expectRefused('page=2', PAGE_WITH_ZERO_LIMIT, config)
    })
  })
})

const TRUE_SPELLINGS = ['1', 'true', 'on', 'yes', 'TRUE', 'True', 'ON', 'Yes', 'yEs', '%20true%20']
const FALSE_SPELLINGS = ['0', 'false', 'off', 'no', 'FALSE', 'False', 'OFF', 'No', 'nO', 'off%20']
/** D2: the reference reads every one of these as false. */
const NOT_BOOLEANS: Array<[raw: string, value: string]> = [
  ['foo', 'foo'],
  ['', ''],
  ['2', '2'],
  ['-1', '-1'],
  ['y', 'y'],
  ['n', 'n'],
  ['t', 't'],
  ['null', 'null'],
  ['truee', 'truee'],
  ['tru%C3%A9', 'trué'],
]

describe('readPagingRequest: pagination (reference 1.5, D2)', () => {
  it.each(TRUE_SPELLINGS)('?pagination=%s pages', (value) => {
    expect(read(`pagination=${value}`)).toStrictEqual(paged(1))
    expect(read(`pagination=${value}&page=2&itemsPerPage=5`)).toStrictEqual(paged(2, 5))
  })

  it.each(FALSE_SPELLINGS)('?pagination=%s does not page', (value) => {
    expect(read(`pagination=${value}`)).toStrictEqual(unpaged)
  })

  it.each(NOT_BOOLEANS)('?pagination=%s is refused', (raw, value) => {
    expectRefused(`pagination=${raw}`, notBoolean('pagination', value))
  })

  it('refuses the parameter without a value and as an array', () => {
    expectRefused('pagination', notBoolean('pagination', ''))
    expectRefused('pagination[]=0', notSingle('pagination'))
    expectRefused('pagination[]=1', notSingle('pagination'))
  })

  it('refuses a value sent twice rather than taking one of them (the reference takes the last)', () => {
    expectRefused('pagination=1&pagination=0', notSingle('pagination'))
    expectRefused('pagination=0&pagination=0', notSingle('pagination'))
  })

  it('reads no other parameter of an unpaged request', () => {
    for (const raw of [
      'pagination=0&page=abc',
      'pagination=false&page=0',
      'pagination=off&itemsPerPage=-1',
      'pagination=no&itemsPerPage=0&page=2',
      'pagination=0&partial=foo',
      'pagination=0&page[]=1',
    ]) {
      expect(read(raw)).toStrictEqual(unpaged)
    }
  })

  it('uses the configured default when the parameter is absent', () => {
    expect(read('')).toStrictEqual(paged(1))
    const off: PagingConfig = { ...kernel, enabled: false }
    expect(read('', off)).toStrictEqual(unpaged)
    expect(read('page=2', off)).toStrictEqual(unpaged)
    expect(read('pagination=1', off)).toStrictEqual(paged(1))
    expect(read('pagination=true&page=3', off)).toStrictEqual(paged(3))
  })

  it('ignores the parameter, even an invalid one, when the client has no control', () => {
    const config: PagingConfig = { ...kernel, clientEnabled: false }
    for (const raw of ['pagination=0', 'pagination=false', 'pagination=foo', 'pagination=']) {
      expect(read(raw, config)).toStrictEqual(paged(1))
    }
    expect(read('pagination[]=0', config)).toStrictEqual(paged(1))
    const off: PagingConfig = { ...config, enabled: false }
    for (const raw of ['', 'pagination=1', 'pagination=true', 'pagination=foo', 'page=abc']) {
      expect(read(raw, off)).toStrictEqual(unpaged)
    }
  })
})

describe('readPagingRequest: partial (reference 1.5, D2)', () => {
  it.each(TRUE_SPELLINGS)('?partial=%s selects partial paging', (value) => {
    expect(read(`partial=${value}`)).toStrictEqual(paged(1, 3, true))
    expect(read(`page=7&partial=${value}`)).toStrictEqual(paged(7, 3, true))
  })

  it.each(FALSE_SPELLINGS)('?partial=%s selects full paging', (value) => {
    expect(read(`partial=${value}`)).toStrictEqual(paged(1))
    expect(read(`partial=${value}`, { ...kernel, partial: true })).toStrictEqual(paged(1))
  })

  it.each(NOT_BOOLEANS)('?partial=%s is refused', (raw, value) => {
    expectRefused(`partial=${raw}`, notBoolean('partial', value))
  })

  it('refuses the parameter without a value and as an array', () => {
    expectRefused('partial', notBoolean('partial', ''))
    expectRefused('partial[]=1', notSingle('partial'))
  })

  it('uses the configured default when the parameter is absent', () => {
    expect(read('page=2', { ...kernel, partial: true })).toStrictEqual(paged(2, 3, true))
    expect(read('partial=0&page=2', { ...kernel, partial: true })).toStrictEqual(paged(2))
  })

  it('combines with itemsPerPage and its checks', () => {
    expect(read('partial=1&itemsPerPage=0')).toStrictEqual(paged(1, 0, true))
    expect(read('partial=1&itemsPerPage=40&page=2')).toStrictEqual(paged(2, 30, true))
    expectRefused('partial=1&itemsPerPage=0&page=2', PAGE_WITH_ZERO_LIMIT)
    expectRefused('partial=1&page=0', PAGE_BELOW_ONE)
  })

  it('ignores the parameter, even an invalid one, when the client has no control', () => {
    const off: PagingConfig = { ...kernel, clientPartial: false }
    for (const raw of ['partial=1', 'partial=true', 'partial=foo', 'partial=', 'partial[]=1']) {
      expect(read(raw, off)).toStrictEqual(paged(1))
    }
    const on: PagingConfig = { ...off, partial: true }
    for (const raw of ['', 'partial=0', 'partial=false', 'partial=foo']) {
      expect(read(raw, on)).toStrictEqual(paged(1, 3, true))
    }
  })
})

describe('readPagingRequest: renamed parameters (spec 8.3, 8.4 rule 7)', () => {
  const renamed: PagingConfig = {
    ...kernel,
    parameters: { page: 'p', enabled: 'paged', itemsPerPage: 'size', partial: 'fast' },
  }

  const rows: Row[] = [
    { raw: 'p=2', expected: paged(2) },
    { raw: 'size=10', expected: paged(1, 10) },
    { raw: 'size=40&p=3', expected: paged(3, 30) },
    { raw: 'paged=0', expected: unpaged },
    { raw: 'paged=yes&p=2', expected: paged(2) },
    { raw: 'fast=1&p=7', expected: paged(7, 3, true) },
    // The old names are ignored, however invalid.
    { raw: 'page=2', expected: paged(1) },
    { raw: 'page=0', expected: paged(1) },
    { raw: 'page=abc', expected: paged(1) },
    { raw: 'page[]=5', expected: paged(1) },
    { raw: 'itemsPerPage=10', expected: paged(1) },
    { raw: 'itemsPerPage=-1', expected: paged(1) },
    { raw: 'itemsPerPage=0&p=2', expected: paged(2) },
    { raw: 'pagination=0', expected: paged(1) },
    { raw: 'pagination=foo', expected: paged(1) },
    { raw: 'partial=1', expected: paged(1) },
    { raw: 'partial=foo', expected: paged(1) },
    { raw: 'page=5&p=2&itemsPerPage=1&size=4', expected: paged(2, 4) },
    // Errors name the parameter as configured.
    { raw: 'p=0', expected: PAGE_BELOW_ONE },
    { raw: 'p=abc', expected: notDecimal('p', 'abc') },
    { raw: 'p[]=1', expected: notSingle('p') },
    { raw: 'size=-1', expected: LIMIT_BELOW_ZERO },
    { raw: 'size=1e1', expected: notDecimal('size', '1e1') },
    { raw: 'size=0&p=2', expected: PAGE_WITH_ZERO_LIMIT },
    { raw: 'p=9223372036854775807', expected: PAGE_TOO_LARGE },
    { raw: 'paged=foo', expected: notBoolean('paged', 'foo') },
    { raw: 'paged[]=0', expected: notSingle('paged') },
    { raw: 'fast=', expected: notBoolean('fast', '') },
  ]

  it.each(rows)('?$raw', (row) => check(row, renamed))
})
