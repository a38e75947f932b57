import { describe, expect, it } from 'vitest'
import { prismaOrderBy as orderByOf, prismaWhere } from '../data/prisma7/where.js'
import { readWhere } from '../plan/scope-reader.js'
import { type FilterConditionOptions, filterCondition } from './filter-conditions.js'

/** A where as the writer writes what it means (its parts on distinct fields in one object). */
const written = (where: Record<string, unknown>) => prismaWhere(readWhere(where))

/** The filters' condition, as the `prisma` engine writes it. */
const filterWhere = (
  filters: Parameters<typeof filterCondition>[0],
  options: Omit<FilterConditionOptions, 'scopeOf'> & {
    scopeOf?: (relation: string) => Record<string, unknown> | undefined
  } = {}
) => {
  const { scopeOf, ...rest } = options
  const read =
    scopeOf &&
    ((relation: string) => {
      const scope = scopeOf(relation)
      return scope && readWhere(scope)
    })
  return prismaWhere(filterCondition(filters, read ? { ...rest, scopeOf: read } : rest))
}

describe('the filters as the prisma engine writes them', () => {
  it('matches conditions through a relation against the related rows the caller sees', () => {
    const scopes: Record<string, Record<string, unknown>> = {
      author: { country: 'AR' },
      reviews: { published: true },
      parent: { tenant: 7 },
    }
    const scopeOf = (relation: string) => scopes[relation]
    const through = (relation: string, field: string, many?: boolean) => ({
      relation,
      field,
      ...(many ? { many } : {}),
    })
    // A related field, to-one and to-many: the scope joins the conditions inside the relation.
    expect(
      filterWhere(
        [
          {
            kind: 'search',
            field: 'author.name',
            strategy: 'exact',
            values: ['Ann'],
            through: through('author', 'name'),
          },
          {
            kind: 'range',
            field: 'reviews.stars',
            operator: 'gte',
            value: 4,
            through: through('reviews', 'stars', true),
          },
        ],
        { scopeOf }
      )
    ).toEqual(
      written({
        AND: [
          { author: { is: { AND: [{ country: 'AR' }, { name: 'Ann' }] } } },
          { reviews: { some: { AND: [{ published: true }, { stars: { gte: 4 } }] } } },
        ],
      })
    )
    // A relation by IRI: its key, and a visible related row.
    expect(
      filterWhere(
        [
          {
            kind: 'search',
            field: 'author',
            strategy: 'exact',
            values: [3],
            foreignKey: 'authorId',
          },
        ],
        { scopeOf }
      )
    ).toEqual(written({ AND: [{ authorId: 3 }, { author: { is: { country: 'AR' } } }] }))
    // A relation by a composite key's IRI: its foreign keys, and a visible related row.
    expect(
      filterWhere(
        [
          {
            kind: 'search',
            field: 'author',
            strategy: 'exact',
            values: [{ orderId: 3, productId: 7 }],
            composite: { foreignKeys: { orderId: 'lineOrderId', productId: 'lineProductId' } },
          },
        ],
        { scopeOf }
      )
    ).toEqual(
      written({
        AND: [{ lineOrderId: 3, lineProductId: 7 }, { author: { is: { country: 'AR' } } }],
      })
    )
    // exists: a visible related row, or none the caller can see (null or invisible).
    const exists = (value: boolean) =>
      filterWhere([{ kind: 'exists', field: 'parent', value, relation: true }], { scopeOf })
    expect(exists(true)).toEqual({ parent: { is: { tenant: 7 } } })
    expect(exists(false)).toEqual({ NOT: { parent: { is: { tenant: 7 } } } })
    // No scope: as before.
    expect(
      filterWhere([{ kind: 'exists', field: 'parent', value: false, relation: true }])
    ).toEqual({ parent: { is: null } })
  })

  it('is undefined without conditions, the condition alone with one, AND of several', () => {
    expect(filterWhere([])).toBeUndefined()
    expect(filterWhere([{ kind: 'boolean', field: 'available', value: true }])).toEqual({
      available: true,
    })
    expect(
      filterWhere([
        { kind: 'boolean', field: 'available', value: false },
        { kind: 'exists', field: 'returnedAt', value: true },
      ])
    ).toEqual(written({ AND: [{ available: false }, { returnedAt: { not: null } }] }))
  })

  it('writes each search strategy as Prisma string filters, several values as OR', () => {
    const search = (strategy: never, values: unknown[]) =>
      filterWhere([{ kind: 'search', field: 'title', strategy, values }])
    expect(search('exact' as never, ['a'])).toEqual({ title: 'a' })
    expect(search('exact' as never, ['a', 'b'])).toEqual({ title: { in: ['a', 'b'] } })
    expect(search('partial' as never, ['a'])).toEqual({ title: { contains: 'a' } })
    expect(search('start' as never, ['a', 'b'])).toEqual({
      OR: [{ title: { startsWith: 'a' } }, { title: { startsWith: 'b' } }],
    })
    expect(search('end' as never, ['a'])).toEqual({ title: { endsWith: 'a' } })
    expect(search('word_start' as never, ['du'])).toEqual({
      OR: [{ title: { startsWith: 'du' } }, { title: { contains: ' du' } }],
    })
    expect(search('iexact' as never, ['a'])).toEqual({
      title: { equals: 'a', mode: 'insensitive' },
    })
    expect(search('ipartial' as never, ['a'])).toEqual({
      title: { contains: 'a', mode: 'insensitive' },
    })
  })

  it('tests a Json field’s exists as its null, which Prisma compares with its own sentinel', () => {
    const anyNull = Symbol('AnyNull')
    const exists = (value: boolean) =>
      filterCondition([{ kind: 'exists', field: 'payload', value, json: true }], {
        likeEscape: 'none',
      })
    const isNull = { op: 'jsonNull' }
    expect(exists(false)).toEqual({ kind: 'field', field: 'payload', test: isNull })
    expect(exists(true)).toEqual({
      kind: 'field',
      field: 'payload',
      test: { op: 'not', test: isNull },
    })
    expect(prismaWhere(exists(true), { jsonNull: anyNull })).toEqual({ payload: { not: anyNull } })
    expect(prismaWhere(exists(false), { jsonNull: anyNull })).toEqual({
      payload: { equals: anyNull },
    })
    // Never a plain null, which Prisma refuses for a Json field.
    expect(() => prismaWhere(exists(true))).toThrow(/Prisma\.AnyNull/)
  })

  it('writes a relation to composite keys on the foreign keys, or through the relation', () => {
    const values = [
      { orderId: 1, sku: 'x' },
      { orderId: 2, sku: 'y' },
    ]
    const foreignKeys = { orderId: 'lineOrderId', sku: 'lineSku' }
    const line = (composite: object, given: unknown[]) =>
      filterWhere([{ kind: 'search', field: 'line', strategy: 'exact', values: given, composite }])
    expect(line({ foreignKeys }, values.slice(0, 1))).toEqual({ lineOrderId: 1, lineSku: 'x' })
    expect(line({ foreignKeys }, values)).toEqual({
      OR: [
        { lineOrderId: 1, lineSku: 'x' },
        { lineOrderId: 2, lineSku: 'y' },
      ],
    })
    expect(line({}, values)).toEqual({
      OR: [{ line: { is: values[0] } }, { line: { is: values[1] } }],
    })
  })

  it('writes conditions through a relation inside it, one join per relation', () => {
    const author = { relation: 'author', field: 'name' }
    const stars = { relation: 'reviews', field: 'stars', many: true }
    const text = { relation: 'reviews', field: 'text', many: true }
    expect(
      filterWhere([
        { kind: 'boolean', field: 'available', value: true },
        {
          kind: 'search',
          field: 'author.name',
          strategy: 'partial',
          values: ['an'],
          through: author,
        },
        { kind: 'range', field: 'reviews.stars', operator: 'gte', value: 4, through: stars },
        {
          kind: 'search',
          field: 'reviews.text',
          strategy: 'exact',
          values: ['a', 'b'],
          through: text,
        },
      ])
    ).toEqual(
      written({
        AND: [
          { available: true },
          { author: { is: { name: { contains: 'an' } } } },
          // One review matches both: API Platform's filters share their join.
          { reviews: { some: { AND: [{ stars: { gte: 4 } }, { text: { in: ['a', 'b'] } }] } } },
        ],
      })
    )
    expect(
      filterWhere([
        {
          kind: 'date',
          field: 'author.born',
          operator: 'after',
          value: new Date(0),
          nulls: 'exclude_null',
          through: { relation: 'author', field: 'born' },
        },
      ])
    ).toEqual(
      written({
        author: { is: { AND: [{ born: { not: null } }, { born: { gte: new Date(0) } }] } },
      })
    )
  })

  it('goes through every relation of a longer path, each under its own model scope', () => {
    const scopes: Record<string, Record<string, unknown>> = {
      book: { shelved: true },
      'book.author': { country: 'AR' },
      'book.author.agent': { active: true },
    }
    const scopeOf = (path: string) => scopes[path]
    const name = {
      relation: 'book',
      field: 'name',
      model: 'Book',
      next: [{ relation: 'author', model: 'Author' }],
    }
    const stars = { relation: 'book', field: 'stars', next: [{ relation: 'reviews', many: true }] }
    expect(
      filterWhere(
        [
          {
            kind: 'search',
            field: 'book.author.name',
            strategy: 'exact',
            values: ['Ann'],
            through: name,
          },
          { kind: 'range', field: 'book.reviews.stars', operator: 'gt', value: 3, through: stars },
          {
            kind: 'boolean',
            field: 'book.available',
            value: true,
            through: { relation: 'book', field: 'available' },
          },
        ],
        { scopeOf }
      )
    ).toEqual(
      written({
        // One join per relation: the book's conditions share it, each deeper relation nests.
        book: {
          is: {
            AND: [
              { shelved: true },
              {
                AND: [
                  { available: true },
                  { author: { is: { AND: [{ country: 'AR' }, { name: 'Ann' }] } } },
                  { reviews: { some: { stars: { gt: 3 } } } },
                ],
              },
            ],
          },
        },
      })
    )
    // A middle relation whose scope holds no row (its guard refuses the caller): no row at all.
    expect(
      filterWhere(
        [
          {
            kind: 'search',
            field: 'book.author.name',
            strategy: 'exact',
            values: ['Ann'],
            through: name,
          },
        ],
        { scopeOf: (path) => (path === 'book' ? { OR: [] } : undefined) }
      )
    ).toEqual({ book: { is: { OR: [] } } })
    // Three relations deep, the last one's scope by its own path.
    const agent = { ...name, next: [...name.next, { relation: 'agent' }] }
    expect(
      filterWhere(
        [{ kind: 'boolean', field: 'book.author.agent.name', value: false, through: agent }],
        { scopeOf }
      )
    ).toEqual(
      written({
        book: {
          is: {
            AND: [
              { shelved: true },
              {
                author: {
                  is: {
                    AND: [
                      { country: 'AR' },
                      { agent: { is: { AND: [{ active: true }, { name: false }] } } },
                    ],
                  },
                },
              },
            ],
          },
        },
      })
    )
  })

  it('writes a relation search on its foreign key', () => {
    expect(
      filterWhere([
        {
          kind: 'search',
          field: 'author',
          strategy: 'exact',
          values: [3, 4],
          foreignKey: 'authorId',
        },
      ])
    ).toEqual({ authorId: { in: [3, 4] } })
  })

  it('writes ranges, between inclusive, and numeric values', () => {
    expect(
      filterWhere([
        { kind: 'range', field: 'price', operator: 'gt', value: '1' },
        { kind: 'range', field: 'price', operator: 'between', value: ['2', '3'] },
        { kind: 'numeric', field: 'pages', values: [1] },
      ])
    ).toEqual(
      written({
        AND: [{ price: { gt: '1' } }, { price: { gte: '2', lte: '3' } }, { pages: 1 }],
      })
    )
  })

  it('writes dates with API Platform’s null handling', () => {
    const value = new Date('2024-01-01Z')
    const date = (operator: never, nulls?: never) =>
      filterWhere([{ kind: 'date', field: 'at', operator, value, nulls }])
    expect(date('before' as never)).toEqual({ at: { lte: value } })
    expect(date('strictly_after' as never)).toEqual({ at: { gt: value } })
    expect(date('before' as never, 'include_null_before' as never)).toEqual({
      OR: [{ at: { lte: value } }, { at: null }],
    })
    expect(date('after' as never, 'include_null_before' as never)).toEqual({ at: { gte: value } })
    expect(date('after' as never, 'include_null_after' as never)).toEqual({
      OR: [{ at: { gte: value } }, { at: null }],
    })
    expect(date('strictly_before' as never, 'include_null_before_and_after' as never)).toEqual({
      OR: [{ at: { lt: value } }, { at: null }],
    })
    expect(date('after' as never, 'exclude_null' as never)).toEqual(
      written({
        AND: [{ at: { not: null } }, { at: { gte: value } }],
      })
    )
  })
})

describe('LIKE escapes', () => {
  it('escapes % and _ as the database reads them, never for exact matches', () => {
    const search = (strategy: never, likeEscape: never) =>
      filterWhere([{ kind: 'search', field: 't', strategy, values: ['50%_a\\b[c'] }], {
        likeEscape,
      })
    expect(search('partial' as never, 'backslash' as never)).toEqual({
      t: { contains: '50\\%\\_a\\\\b[c' },
    })
    expect(search('start' as never, 'brackets' as never)).toEqual({
      t: { startsWith: '50[%][_]a\\b[[]c' },
    })
    expect(search('exact' as never, 'backslash' as never)).toEqual({ t: '50%_a\\b[c' })
    // Prisma writes `equals` with `mode: 'insensitive'` as ILIKE: a pattern too.
    expect(search('iexact' as never, 'backslash' as never)).toEqual({
      t: { equals: '50\\%\\_a\\\\b[c', mode: 'insensitive' },
    })
  })
})

describe('case-insensitive strategies', () => {
  const search = (strategy: string, caseless: 'mode' | 'like', likeEscape = 'backslash') =>
    filterWhere([{ kind: 'search', field: 't', strategy: strategy as never, values: ['a_b'] }], {
      likeEscape: likeEscape as never,
      caseless,
    })

  it('match with mode: insensitive where Prisma has it (ILIKE)', () => {
    expect(search('ipartial', 'mode')).toEqual({ t: { contains: 'a\\_b', mode: 'insensitive' } })
    expect(search('iword_start', 'mode')).toEqual({
      OR: [
        { t: { startsWith: 'a\\_b', mode: 'insensitive' } },
        { t: { contains: ' a\\_b', mode: 'insensitive' } },
      ],
    })
  })

  it('match with the plain LIKE elsewhere, an exact match as a start followed by nothing', () => {
    expect(search('istart', 'like')).toEqual({ t: { startsWith: 'a\\_b' } })
    expect(search('iend', 'like')).toEqual({ t: { endsWith: 'a\\_b' } })
    expect(search('iexact', 'like')).toEqual({
      t: { startsWith: 'a\\_b', not: { startsWith: 'a\\_b_' } },
    })
    // A custom provider on SQLite: its values hold no % or _ (refused when read); none escaped.
    expect(search('iexact', 'like', 'none')).toEqual({
      t: { startsWith: 'a_b', not: { startsWith: 'a_b_' } },
    })
  })

  it('take the plain LIKE by default where it has no escape character (SQLite)', () => {
    const where = filterWhere(
      [{ kind: 'search', field: 't', strategy: 'ipartial', values: ['ann'] }],
      { likeEscape: 'none' }
    )
    expect(where).toEqual({ t: { contains: 'ann' } })
  })
})

describe('orderByOf', () => {
  it('writes an order, and its reverse', () => {
    const order = [
      { field: 'title', direction: 'asc' as const },
      { field: 'id', direction: 'desc' as const },
    ]
    expect(orderByOf(order)).toEqual([{ title: 'asc' }, { id: 'desc' }])
    expect(orderByOf(order, true)).toEqual([{ title: 'desc' }, { id: 'asc' }])
    const related = [{ field: 'author.name', direction: 'asc' as const }, ...order]
    expect(orderByOf(related, true)).toEqual([
      { author: { name: 'desc' } },
      { title: 'desc' },
      { id: 'asc' },
    ])
    const deep = [{ field: 'book.author.name', direction: 'desc' as const }]
    expect(orderByOf(deep)).toEqual([{ book: { author: { name: 'desc' } } }])
  })
})
