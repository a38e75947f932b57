import { describe, expect, it } from 'vitest'
import { parseAnnotations } from './parse.js'

/** Comment text, and the annotations read from it. */
const READABLE: Array<[string, object[]]> = [
  ['@pagination', [{ name: 'pagination', args: [], bare: true }]],
  ['@pagination()', [{ name: 'pagination', args: [], bare: false }]],
  [
    '@pagination(itemsPerPage: 10)',
    [{ name: 'pagination', args: [{ key: 'itemsPerPage', value: 10 }] }],
  ],
  [
    '@pagination(enabled: false, partial: true, maximumItemsPerPage: null,)',
    [
      {
        name: 'pagination',
        args: [
          { key: 'enabled', value: false },
          { key: 'partial', value: true },
          { key: 'maximumItemsPerPage', value: null },
        ],
      },
    ],
  ],
  [
    '@pagination(viaCursor: [{ field: "createdAt", direction: DESC }, { field: \'id\', direction: "desc" }])',
    [
      {
        name: 'pagination',
        args: [
          {
            key: 'viaCursor',
            value: [
              { field: 'createdAt', direction: 'DESC' },
              { field: 'id', direction: 'desc' },
            ],
          },
        ],
      },
    ],
  ],
  [
    '@operation(name: "recent", path: "/books/recent", order: { publishedAt: "desc", title: "asc" })',
    [
      {
        name: 'operation',
        args: [
          { key: 'name', value: 'recent' },
          { key: 'path', value: '/books/recent' },
          { key: 'order', value: { publishedAt: 'desc', title: 'asc' } },
        ],
      },
    ],
  ],
  [
    '@pagination(itemsPerPage: -1.5e2)',
    [{ name: 'pagination', args: [{ key: 'itemsPerPage', value: -150 }] }],
  ],
  [
    '@pagination("itemsPerPage": 3)',
    [{ name: 'pagination', args: [{ key: 'itemsPerPage', value: 3 }] }],
  ],
  [
    '@pagination(path: "a \\"quoted\\" \\\\ path")',
    [{ name: 'pagination', args: [{ key: 'path', value: 'a "quoted" \\ path' }] }],
  ],
  [
    'A book.\n@pagination(\n  itemsPerPage: 5,\n  partial: true\n)\nMore prose.',
    [
      {
        name: 'pagination',
        args: [
          { key: 'itemsPerPage', value: 5 },
          { key: 'partial', value: true },
        ],
      },
    ],
  ],
  ['Contact: someone@example.org has @hidden', [{ name: 'hidden', args: [], bare: true }]],
  ['prose without annotations', []],
]

describe('parseAnnotations', () => {
  it.each(READABLE)('%j', (text, expected) => {
    const result = parseAnnotations(text)
    expect(result.problems).toEqual([])
    expect(result.annotations).toMatchObject(expected)
  })

  it.each([
    ['@pagination(itemsPerPage 5)', "expected ':' after 'itemsPerPage' (at column 26)"],
    ['@pagination(itemsPerPage: 5', "unclosed '(': expected ')' (at column 28)"],
    [
      '@pagination(itemsPerPage: 5 partial: true)',
      "expected ',' or ')' after the value of 'itemsPerPage' (at column 29)",
    ],
    [
      '@pagination(itemsPerPage: 5, itemsPerPage: 6)',
      "'itemsPerPage' is given more than once (at column 30)",
    ],
    ['@pagination(itemsPerPage: 10abc)', "'10abc' is not a number (at column 27)"],
    ['@pagination(path: "unterminated)', 'unterminated string (at column 19)'],
    ['@pagination(itemsPerPage: )', "expected a value, found ')' (at column 27)"],
    ['@pagination(viaCursor: [{ field: "id" }, )', "expected a value, found ')' (at column 42)"],
    ['@pagination(order: { a: 1 b: 2 })', "expected ',' or '}' in an object (at column 27)"],
    [
      '@pagination(\n  itemsPerPage: 5\n  partial: true)',
      "expected ',' or ')' after the value of 'itemsPerPage' (at line 3, column 3)",
    ],
    ['@pagination(path: "a\\x")', "unknown escape '\\x' in a string (at column 21)"],
  ])('reports %j', (text, message) => {
    const result = parseAnnotations(text)
    expect(result.problems).toEqual([{ annotation: '@pagination', message }])
  })

  it('keeps going after a broken annotation', () => {
    const result = parseAnnotations(
      '@pagination(itemsPerPage 5)\n@operation(name: "x", path: "/x")'
    )
    expect(result.problems).toHaveLength(1)
    expect(result.annotations.map((annotation) => annotation.name)).toEqual(['operation'])
  })
})
