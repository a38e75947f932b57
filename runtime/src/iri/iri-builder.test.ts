import { describe, expect, it } from 'vitest'
import { type BuildIriOptions, buildIri, buildQuery, sortQuery } from './iri-builder.js'
import { compareQueryKeys } from './query-keys.js'
import { parseQuery, type QueryMap, type QueryValue } from './query-string.js'

/** Entries in order, all levels, to check ordering (object key order puts integer keys first). */
type Entries = string | Array<[string, Entries]>

function entries(value: QueryValue): Entries {
  if (typeof value === 'string') return value
  return [...value].map(([key, child]): [string, Entries] => [key, entries(child)])
}

function map(...pairs: Array<[string, QueryValue]>): QueryMap {
  return new Map(pairs)
}
/** Builds a view IRI from a raw request query, as the renderer does. */
function iri(path: string, raw: string, options: Partial<BuildIriOptions> = {}): string {
  return buildIri(path, parseQuery(raw), { pageParameterName: 'page', ...options })
}
describe('buildQuery', () => {
  it.each<[string, QueryMap, string]>([
    ['empty', map(), ''],
    ['empty value', map(['k', '']), 'k='],
    ['space', map(['name', 'Dummy #8']), 'name=Dummy%20%238'],
    ['reserved characters', map(['v', '/:+#[]&=?']), 'v=%2F%3A%2B%23%5B%5D%26%3D%3F'],
    ['unreserved characters', map(['v', 'a-b_c.d~e']), 'v=a-b_c.d~e'],
    ['UTF-8', map(['name', 'café']), 'name=caf%C3%A9'],
    ['encoded keys', map(['a b', '1'], ['é', '2']), 'a%20b=1&%C3%A9=2'],
    ['nested', map(['a', map(['b', map(['c', '1'])])]), 'a%5Bb%5D%5Bc%5D=1'],
    [
      'leaf numeric index collapsed, order kept',
      map(['tags', map(['1', 'b'], ['0', 'a'])]),
      'tags%5B%5D=b&tags%5B%5D=a',
    ],
    ['non-leaf numeric index kept', map(['f', map(['0', map(['a', '1'])])]), 'f%5B0%5D%5Ba%5D=1'],
    [
      'nested leaf index collapsed',
      map(['f', map(['0', map(['a', map(['3', 'x'])])])]),
      'f%5B0%5D%5Ba%5D%5B%5D=x',
    ],
    ['negative index is not collapsed', map(['a', map(['-1', 'x'])]), 'a%5B-1%5D=x'],
    ['top-level numeric key kept', map(['5', 'x']), '5=x'],
    ['empty arrays are omitted', map(['a', map()], ['b', '1'], ['c', map(['d', map()])]), 'b=1'],
  ])('%s', (_, params, expected) => {
    expect(buildQuery(params)).toBe(expected)
  })
})

describe('compareQueryKeys / sortQuery', () => {
  const sorted = (...keys: string[]) => [
    ...sortQuery(new Map(keys.map((key): [string, string] => [key, '']))).keys(),
  ]

  it('sorts by byte order: digits < upper case < "_" < lower case', () => {
    expect(sorted('z', 'a', '_x', 'Z', 'page', 'itemsPerPage', '1x')).toEqual([
      '1x',
      'Z',
      '_x',
      'a',
      'itemsPerPage',
      'page',
      'z',
    ])
  })

  it('sorts on UTF-8 bytes, not UTF-16 code units', () => {
    // U+FF01 is EF BC 81 in UTF-8 and U+1F600 is F0 9F 98 80; in UTF-16 the surrogate D83D is lower.
    expect(sorted('😀', '\uFF01')).toEqual(['\uFF01', '😀'])
    expect(compareQueryKeys('é', 'z')).toBe(1)
  })

  it('compares numeric keys as numbers, like PHP 8 ksort', () => {
    expect(sorted('10', '9', 'b', '1e1', '2.5')).toEqual(['2.5', '9', '10', '1e1', 'b'])
  })

  it('keeps nested order and does not touch the input', () => {
    const query = parseQuery('z[b]=1&z[a]=2&a=3')
    const result = sortQuery(query)
    expect(entries(result)).toEqual([
      ['a', '3'],
      [
        'z',
        [
          ['b', '1'],
          ['a', '2'],
        ],
      ],
    ])
    expect([...query.keys()]).toEqual(['z', 'a'])
  })
})

describe('buildIri', () => {
  describe('reference 2.6: examples from Behat and the encoding rules', () => {
    it.each<[string, string, Partial<BuildIriOptions>, string]>([
      [
        'top-level keys sorted',
        'dummyDate[after]=2015-04-28&dummyBoolean=1',
        {},
        '/dummies?dummyBoolean=1&dummyDate%5Bafter%5D=2015-04-28',
      ],
      ['"%20" and "%23" kept', 'name=Dummy%20%238', {}, '/dummies?name=Dummy%20%238'],
      ['"+" becomes "%20"', 'name=Dummy+%238', {}, '/dummies?name=Dummy%20%238'],
      ['upper-case hex', 'id=%2fdummies%2f8', {}, '/dummies?id=%2Fdummies%2F8'],
      ['raw "/" encoded', 'id=/dummies/8', {}, '/dummies?id=%2Fdummies%2F8'],
      [
        '":" and "+" encoded',
        'dummyDate[after]=2015-04-28T00:00:00%2B00:00',
        {},
        '/dummies?dummyDate%5Bafter%5D=2015-04-28T00%3A00%3A00%2B00%3A00',
      ],
      ['empty list item', 'groups[]=', { page: 1 }, '/dummies?groups%5B%5D=&page=1'],
      [
        'list and nested list',
        'properties[]=foo&properties[group][]=baz',
        { page: 1 },
        '/dummies?properties%5B%5D=foo&properties%5Bgroup%5D%5B%5D=baz&page=1',
      ],
      [
        'filter with a page',
        'dummyDate[before]=2015-04-05',
        { page: 1 },
        '/dummies?dummyDate%5Bbefore%5D=2015-04-05&page=1',
      ],
      [
        'exists filter',
        'exists[dummyBoolean]=1',
        { page: 1 },
        '/dummies?exists%5BdummyBoolean%5D=1&page=1',
      ],
      ['filter without a page', 'dummyPrice[gt]=19.99', {}, '/dummies?dummyPrice%5Bgt%5D=19.99'],
      [
        'nested keys keep the client order',
        'dummyDate[before]=2015-04-05&dummyDate[after]=2015-04-28',
        {},
        '/dummies?dummyDate%5Bbefore%5D=2015-04-05&dummyDate%5Bafter%5D=2015-04-28',
      ],
      ['z then a is sorted', 'z=1&a=2', {}, '/dummies?a=2&z=1'],
      ['last value wins', 'x=1&x=2', {}, '/dummies?x=2'],
      ['valueless parameter', 'x', {}, '/dummies?x='],
      ['empty parameter', 'x=', {}, '/dummies?x='],
      ['UTF-8 escapes', 'name=caf%C3%A9', {}, '/dummies?name=caf%C3%A9'],
      ['raw UTF-8', 'name=café', {}, '/dummies?name=caf%C3%A9'],
      ['lower-case escapes', 'name=caf%c3%a9', {}, '/dummies?name=caf%C3%A9'],
      ['malformed escape', 'q=%zz', {}, '/dummies?q=%25zz'],
      ['dots kept', 'a.b=1', {}, '/dummies?a.b=1'],
      ['space in a name', 'a+b=1', {}, '/dummies?a%20b=1'],
      ['unreserved kept', 'q=a-b_c.d~e', {}, '/dummies?q=a-b_c.d~e'],
      ['reserved encoded', 'q=%21%2A%27%28%29', {}, '/dummies?q=%21%2A%27%28%29'],
      [
        'leaf numeric index collapsed',
        'tags[1]=b&tags[0]=a',
        {},
        '/dummies?tags%5B%5D=b&tags%5B%5D=a',
      ],
      ['non-leaf numeric index kept', 'f[0][a]=1', {}, '/dummies?f%5B0%5D%5Ba%5D=1'],
      // IriHelper collapses on the encoded key, so an index that itself contains "[0" collapses too.
      ['collapse works on the encoded key', 'a[b[0]=1', {}, '/dummies?a%5Bb%5B%5D=1'],
      ['empty query', '', {}, '/dummies'],
      ['empty query with a page', '', { page: 3 }, '/dummies?page=3'],
      ['only the page', 'page=2', {}, '/dummies'],
      ['page as an array is removed too', 'page[]=5', {}, '/dummies'],
      [
        'custom page parameter',
        'p=2&page=x',
        { pageParameterName: 'p', page: 3 },
        '/dummies?page=x&p=3',
      ],
    ])('%s: ?%s', (_, raw, options, expected) => {
      expect(iri('/dummies', raw, options)).toBe(expected)
    })

    it('writes the page after every other parameter, whatever its name sorts as', () => {
      expect(iri('/dummies', 'a=1&page=4&z=2', { page: 4 })).toBe('/dummies?a=1&z=2&page=4')
    })

    it('keeps an absolute path or URL as given', () => {
      expect(iri('http://example.com/absolute_url_dummies', 'page=3', { page: 3 })).toBe(
        'http://example.com/absolute_url_dummies?page=3'
      )
    })

    it('does not modify the query it is given', () => {
      const query = parseQuery('z=1&page=2&a=1')
      buildIri('/d', query, { pageParameterName: 'page', page: 3, overrides: [['z', undefined]] })
      expect(entries(query)).toEqual([
        ['z', '1'],
        ['page', '2'],
        ['a', '1'],
      ])
    })
  })

  describe('reference 2.5: scenario matrix', () => {
    it.each<[string, number | undefined, string]>([
      ['', 1, '/dummies?page=1'],
      ['', 2, '/dummies?page=2'],
      ['', 10, '/dummies?page=10'],
      ['page=7', 7, '/dummies?page=7'],
      ['page=7', 6, '/dummies?page=6'],
      ['page=7', 8, '/dummies?page=8'],
      ['page=12', 11, '/dummies?page=11'],
      ['page=2.7', 2, '/dummies?page=2'],
      ['id=999', undefined, '/dummies?id=999'],
      ['name=x&page=1', undefined, '/dummies?name=x'],
      ['itemsPerPage=0', undefined, '/dummies?itemsPerPage=0'],
      ['pagination=false&name=x', undefined, '/dummies?name=x&pagination=false'],
      ['pagination=false', 1, '/dummies?pagination=false&page=1'],
      ['pagination=1', 1, '/dummies?pagination=1&page=1'],
      ['page=7&partial=1', 7, '/dummies?partial=1&page=7'],
      ['page=7&partial=1', 6, '/dummies?partial=1&page=6'],
      ['page=7&partial=1', 8, '/dummies?partial=1&page=8'],
      ['partial=1', 1, '/dummies?partial=1&page=1'],
      ['page=2&itemsPerPage=10', 2, '/dummies?itemsPerPage=10&page=2'],
      ['page=2&itemsPerPage=10', 1, '/dummies?itemsPerPage=10&page=1'],
      ['page=2&itemsPerPage=10', 3, '/dummies?itemsPerPage=10&page=3'],
      ['itemsPerPage=40', 3, '/dummies?itemsPerPage=40&page=3'],
      ['page=2&itemsPerPage=40', 2, '/dummies?itemsPerPage=40&page=2'],
    ])('?%s, page %s → %s', (raw, page, expected) => {
      expect(iri('/dummies', raw, page === undefined ? {} : { page })).toBe(expected)
    })

    it('foos: ?itemsPerPage=10 single page', () => {
      expect(iri('/foos', 'itemsPerPage=10')).toBe('/foos?itemsPerPage=10')
    })

    it('sub-resource: ?name=Hello', () => {
      expect(iri('/dummies/1/related_dummies', 'name=Hello')).toBe(
        '/dummies/1/related_dummies?name=Hello'
      )
    })
  })

  describe('reference 3 with D6: cursor links (overrides merged, keys sorted again, no page)', () => {
    const cursor = (
      raw: string,
      overrides?: ReadonlyArray<readonly [string, QueryValue | undefined]>
    ): string => iri('/so_manies', raw, overrides ? { overrides } : {})

    it.each<[string, string, Array<[string, QueryValue | undefined]> | undefined, string]>([
      ['empty collection', '', undefined, '/so_manies'],
      ['page dropped', 'page=2', undefined, '/so_manies'],
      ['@id', 'order[id]=desc', undefined, '/so_manies?order%5Bid%5D=desc'],
      [
        'next: the new key sorted in (D6: the reference appends it)',
        'order[id]=desc',
        [['id', map(['lt', '8'])]],
        '/so_manies?id%5Blt%5D=8&order%5Bid%5D=desc',
      ],
      [
        'previous: the new key sorted in',
        'order[id]=desc',
        [['id', map(['gt', '10'])]],
        '/so_manies?id%5Bgt%5D=10&order%5Bid%5D=desc',
      ],
      [
        '@id sorted',
        'order[id]=desc&id[lt]=8',
        undefined,
        '/so_manies?id%5Blt%5D=8&order%5Bid%5D=desc',
      ],
      [
        'next replaces in place',
        'order[id]=desc&id[lt]=8',
        [['id', map(['lt', '5'])]],
        '/so_manies?id%5Blt%5D=5&order%5Bid%5D=desc',
      ],
      [
        'previous replaces the whole sub-array in place',
        'order[id]=desc&id[lt]=8',
        [['id', map(['gt', '7'])]],
        '/so_manies?id%5Bgt%5D=7&order%5Bid%5D=desc',
      ],
      [
        'empty page @id',
        'order[id]=desc&id[gt]=10',
        undefined,
        '/so_manies?id%5Bgt%5D=10&order%5Bid%5D=desc',
      ],
      [
        'empty page next',
        'order[id]=desc&id[gt]=10',
        [['id', map(['lt', '10'])]],
        '/so_manies?id%5Blt%5D=10&order%5Bid%5D=desc',
      ],
      [
        'empty page previous',
        'order[id]=desc&id[gt]=10',
        [['id', map(['gt', '13'])]],
        '/so_manies?id%5Bgt%5D=13&order%5Bid%5D=desc',
      ],
      ['ASC next', 'id[gt]=3', [['id', map(['gt', '6'])]], '/so_manies?id%5Bgt%5D=6'],
      ['ASC previous', 'id[gt]=3', [['id', map(['lt', '4'])]], '/so_manies?id%5Blt%5D=4'],
      [
        'page removed before the merge',
        'page=3&order[id]=desc',
        [['id', map(['lt', '8'])]],
        '/so_manies?id%5Blt%5D=8&order%5Bid%5D=desc',
      ],
      [
        'DateTime cursor value (ATOM)',
        '',
        [['createdAt', map(['lt', '2024-01-03T12:00:00+00:00'])]],
        '/so_manies?createdAt%5Blt%5D=2024-01-03T12%3A00%3A00%2B00%3A00',
      ],
      [
        'several fields, sorted with the others',
        'z=1',
        [
          ['id', map(['lt', '8'])],
          ['a', map(['gt', '2'])],
        ],
        '/so_manies?a%5Bgt%5D=2&id%5Blt%5D=8&z=1',
      ],
      ['undefined removes a key', 'a=1&b=2', [['a', undefined]], '/so_manies?b=2'],
      ['undefined for an absent key', 'a=1', [['x', undefined]], '/so_manies?a=1'],
      ['scalar override in place', 'a=1&b=2', [['a', '9']], '/so_manies?a=9&b=2'],
    ])('%s', (_, raw, overrides, expected) => {
      expect(cursor(raw, overrides)).toBe(expected)
    })

    it('sets a page given with overrides last, the other keys sorted', () => {
      expect(iri('/so_manies', 'b=1', { page: 2, overrides: [['a', '1']] })).toBe(
        '/so_manies?a=1&b=1&page=2'
      )
      expect(
        iri('/so_manies', 'b=1', {
          page: 2,
          overrides: [
            ['page', '7'],
            ['a', '1'],
          ],
        })
      ).toBe('/so_manies?a=1&b=1&page=2')
    })
  })
})
