/**
 * `@filter` and `@order` (docs/filters.md): what they resolve to for each operation, and the
 * problems `prisma generate` reports for declarations that do not fit the model.
 */
import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { formatProblem, GenerationError } from '../src/problems.js'
import { loadDatamodel } from './dmmf.js'

const MODELS = `
enum Genre {
  FICTION
  POETRY
}
/// @pagination
model Author {
  id         Int        @id
  name       String
  born       DateTime?
  rating     Int
  /// @hidden
  email      String
  books      Book[]
  activities Activity[]
  /// @property
  shelfId    Int?
  shelf      Shelf?     @relation(fields: [shelfId], references: [id])
}
model Shelf {
  id      Int      @id
  books   Book[]
  authors Author[]
}
model Book {
  id          Int       @id
  title       String
  genre       Genre
  pages       Int
  price       Decimal
  available   Boolean
  publishedAt DateTime
  returnedAt  DateTime?
  data        Json?
  /// @hidden
  secret      String
  authorId    Int
  author      Author    @relation(fields: [authorId], references: [id])
  /// @property
  shelfId     Int
  shelf       Shelf     @relation(fields: [shelfId], references: [id])
  reviews     Review[]
  @@index([publishedAt])
}
/// @pagination(viaCursor: [{ field: "occurredAt", direction: "DESC" }])
model Activity {
  id         Int      @id
  occurredAt DateTime
  kind       String
  note       String?
  authorId   Int?
  author     Author?  @relation(fields: [authorId], references: [id])
  @@index([occurredAt, id])
}
/// @pagination
model Review {
  id     Int    @id
  stars  Int
  text   String
  bookId Int
  book   Book   @relation(fields: [bookId], references: [id])
}
`

/** The schema with `annotations` on Book (and `activity` on Activity). */
function schema(annotations: string[], activity: string[] = []): string {
  const doc = (lines: string[]) => lines.map((line) => `/// ${line}`).join('\n')
  return MODELS.replace('model Book {', `${doc(['@pagination', ...annotations])}\nmodel Book {`)
    .replace(/\/\/\/ @pagination\(viaCursor/, `${doc(activity)}\n/// @pagination(viaCursor`)
    .replace(/^\n/, '')
}

async function build(annotations: string[], activity: string[] = [], provider = 'sqlite') {
  return buildHydra({
    datamodel: await loadDatamodel(schema(annotations, activity)),
    provider,
    clientModule: '../prisma/client.js',
  })
}

async function problems(
  annotations: string[],
  activity: string[] = [],
  provider = 'sqlite'
): Promise<string[]> {
  try {
    return (await build(annotations, activity, provider)).warnings.map(formatProblem)
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error
    return error.problems.map(formatProblem)
  }
}

describe('@filter and @order', () => {
  it('resolve to the query spec of every operation, relations with their target', async () => {
    const { model } = await build([
      '@filter(search: { title: "partial", genre: "exact", author: "exact" }, range: [price], date: [publishedAt], boolean: [available], numeric: [pages], exists: [returnedAt])',
      '@order(fields: [title, publishedAt])',
      '@operation(name: "recent", path: "/books/recent")',
      '@filter(operation: "recent", date: { returnedAt: "include_null_after", publishedAt: null })',
    ])
    const book = model.resources.find((resource) => resource.name === 'Book')
    const [collection, recent] = book?.operations ?? []
    expect(collection?.query).toEqual({
      filters: [
        { kind: 'search', field: 'title', strategy: 'partial', type: 'String' },
        {
          kind: 'search',
          field: 'genre',
          strategy: 'exact',
          type: 'Enum',
          enumValues: ['FICTION', 'POETRY'],
        },
        {
          kind: 'search',
          field: 'author',
          strategy: 'exact',
          type: 'Int',
          relation: {
            foreignKey: 'authorId',
            collectionPath: '/authors',
            id: { type: 'Int' },
            model: 'Author',
          },
        },
        { kind: 'range', field: 'price', type: 'Decimal' },
        { kind: 'date', field: 'publishedAt' },
        { kind: 'boolean', field: 'available' },
        { kind: 'numeric', field: 'pages', type: 'Int' },
        { kind: 'exists', field: 'returnedAt' },
      ],
      order: [
        { field: 'title', type: 'String' },
        { field: 'publishedAt', type: 'DateTime' },
      ],
      id: { field: 'id', type: 'Int' },
      likeEscape: 'none',
    })
    // An operation's own @filter replaces the model's; the model's @order still applies there.
    expect(recent?.query?.filters).toEqual([
      { kind: 'date', field: 'returnedAt', nulls: 'include_null_after' },
      { kind: 'date', field: 'publishedAt' },
    ])
    expect(recent?.query?.order.map((entry) => entry.field)).toEqual(['title', 'publishedAt'])
    expect(model.filterParameters).toEqual({ order: 'order', exists: 'exists' })
  })

  it('resolve filters and orders one relation away, to-one and to-many', async () => {
    const { model } = await build([
      '@filter(search: { "author.name": "partial", "reviews.text": "exact" }, range: [author.rating, "reviews.stars"], numeric: ["author.rating"], date: { "author.born": "exclude_null" }, exists: [author.born])',
      '@order(fields: [title, "author.name", author.born])',
    ])
    const book = model.resources.find((resource) => resource.name === 'Book')
    // Each names the related model, whose scope decides which related rows a caller sees.
    const author = { relation: 'author', field: 'name', model: 'Author' }
    expect(book?.operations[0]?.query).toMatchObject({
      filters: [
        {
          kind: 'search',
          field: 'author.name',
          strategy: 'partial',
          type: 'String',
          through: author,
        },
        {
          kind: 'search',
          field: 'reviews.text',
          strategy: 'exact',
          type: 'String',
          through: { relation: 'reviews', field: 'text', many: true, model: 'Review' },
        },
        {
          kind: 'range',
          field: 'author.rating',
          type: 'Int',
          through: { relation: 'author', field: 'rating', model: 'Author' },
        },
        {
          kind: 'range',
          field: 'reviews.stars',
          type: 'Int',
          through: { relation: 'reviews', field: 'stars', many: true, model: 'Review' },
        },
        { kind: 'numeric', field: 'author.rating', type: 'Int' },
        { kind: 'date', field: 'author.born', nulls: 'exclude_null' },
        {
          kind: 'exists',
          field: 'author.born',
          through: { relation: 'author', field: 'born', model: 'Author' },
        },
      ],
      order: [
        { field: 'title', type: 'String' },
        { field: 'author.name', type: 'String', through: author },
        { field: 'author.born', type: 'DateTime', nullable: true },
      ],
    })
    // The related item's field is read through the relation, never selected on the row.
    expect(book?.selected).not.toContain('author.name')
  })

  it('take the items’ IRIs in an exact search of the item key (id[]), ids too', async () => {
    const { model } = await build(['@filter(search: { id: "exact", title: "exact" })'])
    const book = model.resources.find((resource) => resource.name === 'Book')
    expect(book?.operations[0]?.query?.filters).toEqual([
      { kind: 'search', field: 'id', strategy: 'exact', type: 'Int', items: '/books' },
      { kind: 'search', field: 'title', strategy: 'exact', type: 'String' },
    ])
  })

  it('resolve filters through more than one relation, each hop with its model', async () => {
    const { model } = await build([
      '@filter(search: { "author.activities.kind": "partial", "reviews.book.title": "exact" })',
    ])
    const book = model.resources.find((resource) => resource.name === 'Book')
    expect(book?.operations[0]?.query?.filters).toEqual([
      {
        kind: 'search',
        field: 'author.activities.kind',
        strategy: 'partial',
        type: 'String',
        through: {
          relation: 'author',
          field: 'kind',
          model: 'Author',
          next: [{ relation: 'activities', many: true, model: 'Activity' }],
        },
      },
      {
        kind: 'search',
        field: 'reviews.book.title',
        strategy: 'exact',
        type: 'String',
        through: {
          relation: 'reviews',
          field: 'title',
          many: true,
          model: 'Review',
          next: [{ relation: 'book', model: 'Book' }],
        },
      },
    ])
  })

  it('resolve a path ending at a relation to the related key through it, by IRI or id', async () => {
    const { model } = await build(['@filter(search: { "author.activities": "exact" })'])
    const book = model.resources.find((resource) => resource.name === 'Book')
    expect(book?.operations[0]?.query?.filters).toEqual([
      {
        kind: 'search',
        field: 'author.activities',
        strategy: 'exact',
        type: 'Int',
        items: '/activities',
        through: {
          relation: 'author',
          field: 'id',
          model: 'Author',
          next: [{ relation: 'activities', many: true, model: 'Activity' }],
        },
      },
    ])
  })

  it.each([
    [
      'an unknown relation',
      ['@filter(search: { "autor.name": "exact" })'],
      'field "autor.name" names no relation "autor". Did you mean "author"? Relations: author, shelf, reviews',
    ],
    [
      'a scalar before the dot',
      ['@filter(search: { "title.name": "exact" })'],
      'field "title.name" does not go through a relation: "title" is a scalar field',
    ],
    [
      'an unknown field of the target',
      ['@filter(search: { "author.nam": "exact" })'],
      'error: Model "Book", @filter, option "search": field "author.nam" names no field "nam" of Author. Did you mean "name"?',
    ],
    [
      'a hidden field of the target',
      ['@filter(search: { "author.email": "exact" })'],
      'field "author.email" names a field Author does not serve (@hidden)',
    ],
    [
      'a hidden order field of the target',
      ['@order(fields: ["author.email"])'],
      'option "fields": field "author.email" names a field Author does not serve (@hidden)',
    ],
    [
      'a target that is not served',
      ['@filter(search: { "shelf.id": "exact" })'],
      'field "shelf.id" goes through "shelf" to Shelf, which is not served: add /// @pagination to Shelf',
    ],
    [
      'a deeper target that is not served',
      ['@filter(search: { "author.shelf.id": "exact" })'],
      'field "author.shelf.id" goes through "shelf" of Author to Shelf, which is not served: add /// @pagination to Shelf',
    ],
    [
      'an unknown deeper relation',
      ['@filter(search: { "reviews.boook.title": "exact" })'],
      'field "reviews.boook.title" names no relation "boook" of Review. Did you mean "book"? Relations of Review: book',
    ],
    [
      'a scalar in the middle of a path',
      ['@filter(search: { "reviews.stars.name": "exact" })'],
      'field "reviews.stars.name" does not go through a relation: "stars" of Review is a scalar field',
    ],
    [
      'an unknown field at the end of a path',
      ['@filter(search: { "reviews.book.titel": "exact" })'],
      'field "reviews.book.titel" names no field "titel" of Book. Did you mean "title"?',
    ],
    [
      'a hidden field at the end of a path',
      ['@filter(search: { "reviews.book.secret": "exact" })'],
      'field "reviews.book.secret" names a field Book does not serve (@hidden)',
    ],
    [
      'an order through a deeper to-many relation',
      ['@order(fields: ["author.activities.kind"])'],
      'field "author.activities.kind" goes through the to-many relation "activities" of Author: an item has many kind values to order by, so only to-one relations order',
    ],
    [
      'an empty step',
      ['@filter(search: { "author..name": "exact" })'],
      'field "author..name" is not a field, nor relations and a field of the last',
    ],
    [
      'a foreign key the target serves as a link',
      ['@filter(search: { "reviews.bookId": "exact" })'],
      'field "reviews.bookId" names the foreign key of Review\'s link "book"',
    ],
    [
      'a relation of the target, tested by exists',
      ['@filter(exists: ["author.books"])'],
      'field "author.books" names the relation "books" of Author, not a field: name one of its fields after it',
    ],
    [
      'a path ending at a relation, searched by a pattern',
      ['@filter(search: { "author.books": "partial" })'],
      'field "author.books" ends at the relation "books": it takes only the "exact" strategy (an IRI or an id), got "partial"',
    ],
    [
      'a path ending at a relation to a model that is not served',
      ['@filter(search: { "author.shelf": "exact" })'],
      'field "author.shelf" goes through "shelf" of Author to Shelf, which is not served: add /// @pagination to Shelf',
    ],
    [
      'a strategy that does not fit the related type',
      ['@filter(search: { "author.rating": "partial" })'],
      'field "author.rating" (Int) takes only the "exact" strategy, not "partial"',
    ],
    [
      'a range on a related String',
      ['@filter(range: ["reviews.text"])'],
      'field "reviews.text" (String) is not a number',
    ],
    [
      'exists on a required related field',
      ['@filter(exists: ["author.name"])'],
      'field "author.name" is required, so it always exists',
    ],
    [
      'an order through a to-many relation',
      ['@order(fields: ["reviews.stars"])'],
      'field "reviews.stars" goes through the to-many relation "reviews": an item has many stars values to order by, so only to-one relations order',
    ],
  ])('refuse %s', async (_, annotations, message) => {
    const found = await problems(annotations)
    expect(found.filter((problem) => problem.startsWith('error')).join('\n')).toContain(message)
  })

  it('refuse an order through a relation on a cursor operation, accept its filters', async () => {
    expect(await problems([], ['@order(fields: [occurredAt, "author.name"])'])).toContain(
      'error: Model "Activity", @order, option "fields": field "author.name" cannot order the cursor-paged operation "collection": a client order becomes its keyset order, and Prisma\'s cursor cannot start past a related item\'s field; order it by its own fields (docs/filters.md, relations)'
    )
    const { model } = await build(
      [],
      ['@filter(search: { "author.name": "exact" }, range: ["author.rating"])']
    )
    const activity = model.resources.find((resource) => resource.name === 'Activity')
    expect(activity?.operations[0]?.query?.filters.map((filter) => filter.field)).toEqual([
      'author.name',
      'author.rating',
    ])
  })

  it('warns for an orderable field no index starts with', async () => {
    expect(await problems(['@order(fields: [title, publishedAt, id])'])).toEqual([
      'warning: Model "Book", @order, option "fields": no index starts with "title": ordering by it sorts every filtered row; add @@index([title]) (docs/filters.md, indexes)',
    ])
  })

  it.each([
    [
      'an unknown field, with a suggestion',
      ['@filter(search: { titel: "partial" })'],
      'field "titel" does not exist or is not a scalar field. Did you mean "title"?',
    ],
    ['a hidden field', ['@filter(exists: [secret])'], 'field "secret" is hidden (@hidden)'],
    ['a hidden order field', ['@order(fields: [secret])'], 'field "secret" is hidden (@hidden)'],
    [
      'a strategy that does not fit the type',
      ['@filter(search: { pages: "partial" })'],
      'field "pages" (Int) takes only the "exact" strategy, not "partial"',
    ],
    [
      'an unknown strategy',
      ['@filter(search: { title: "fuzzy" })'],
      'field "title" needs a strategy, one of exact, partial, start, end, word_start, iexact',
    ],
    [
      'a range on a String',
      ['@filter(range: [title])'],
      'field "title" (String) is not a number: range filters take Int, BigInt, Float or Decimal fields',
    ],
    [
      'a date filter on an Int',
      ['@filter(date: [pages])'],
      'field "pages" (Int) is not a DateTime',
    ],
    [
      'exists on a required field',
      ['@filter(exists: [title])'],
      'field "title" is required, so it always exists',
    ],
    [
      'a Json field',
      ['@filter(search: { data: "exact" })'],
      'field "data" (Json) cannot be filtered',
    ],
    [
      'a relation that is not served',
      ['@filter(search: { shelf: "exact" })'],
      'relation "shelf" leads to Shelf, which is not served',
    ],
    [
      'a relation with another strategy',
      ['@filter(search: { author: "partial" })'],
      'relation "author" takes only the "exact" strategy',
    ],
    [
      'two filters reading one parameter',
      ['@filter(search: { pages: "exact" }, numeric: [pages])'],
      'field "pages" is already a search filter',
    ],
    [
      'an unknown operation',
      ['@filter(operation: "recnet", date: [publishedAt])'],
      'the model has no operation "recnet".',
    ],
    ['an unknown filter kind', ['@filter(serch: { title: "exact" })'], 'unknown filter kind.'],
    ['an order that is not a list', ['@order(fields: title)'], 'must be a list of fields'],
    [
      'an unknown date null handling',
      ['@filter(date: { publishedAt: "nulls_last" })'],
      'null handling must be one of exclude_null',
    ],
    [
      'null handling on a required date',
      ['@filter(date: { publishedAt: "exclude_null" })'],
      'field "publishedAt" is required, so it is never null',
    ],
  ])('refuse %s', async (_, annotations, message) => {
    const found = await problems(annotations)
    expect(found.filter((problem) => problem.startsWith('error')).join('\n')).toContain(message)
  })

  it.each([
    ['postgresql', 'backslash'],
    ['mysql', 'backslash'],
    ['sqlite', 'none'],
  ])('accept the case-insensitive strategies on %s', async (provider, likeEscape) => {
    // The model's collection takes two; an operation of its own each of the three others.
    const others = { starts: 'istart', ends: 'iend', words: 'iword_start' }
    const { model } = await build(
      [
        ...Object.keys(others).map((name) => `@operation(name: "${name}", path: "/${name}")`),
        '@filter(search: { title: "iexact", "author.name": "ipartial" })',
        ...Object.entries(others).map(
          ([name, strategy]) => `@filter(operation: "${name}", search: { title: "${strategy}" })`
        ),
      ],
      [],
      provider
    )
    const strategies = model.resources[1]?.operations.map((operation) =>
      operation.query?.filters.map((filter) => 'strategy' in filter && filter.strategy)
    )
    expect(strategies).toEqual([['iexact', 'ipartial'], ['istart'], ['iend'], ['iword_start']])
    const queries = model.resources[1]?.operations.map((operation) => operation.query)
    expect(queries?.[0]?.likeEscape).toBe(likeEscape)
  })

  it('refuse a case-insensitive strategy on SQL Server, naming the databases that serve them', async () => {
    const found = await problems(['@filter(search: { title: "istart" })'], [], 'sqlserver')
    expect(found.join('\n')).toContain(
      'cannot use "istart": case-insensitive matching is served on PostgreSQL, CockroachDB, MySQL/MariaDB and SQLite, not sqlserver; use "start"'
    )
  })

  it('on a cursor operation, take only keyset-capable order fields and no filter on key fields', async () => {
    expect(
      await problems(
        [],
        [
          '@filter(search: { kind: "exact", id: "exact" }, date: [occurredAt], exists: [note])',
          '@order(fields: [occurredAt, note])',
        ]
      )
    ).toEqual([
      'warning: Model "Activity", @order, option "fields": no index starts with "note": ordering by it sorts every filtered row; add @@index([note]) (docs/filters.md, indexes)',
      'error: Model "Activity", @order, option "fields": field "note" cannot order the cursor-paged operation "collection": a client order becomes its keyset order, whose fields must be required String, Int, BigInt, Float, Decimal or DateTime fields',
      'error: Model "Activity", @filter, option "search": field "id" can be part of the cursor key of "collection" (the model\'s key, which ends every keyset), whose positions are "id[lt]=…"/"id[gt]=…": a search filter there would make one parameter mean two things; drop it from @filter, or give "collection" filters of its own without it: @filter(operation: "collection", ...)',
    ])
    const { model } = await build(
      [],
      ['@filter(search: { kind: "exact" }, date: [occurredAt])', '@order(fields: [occurredAt])']
    )
    expect(
      model.resources.find((resource) => resource.name === 'Activity')?.operations[0]?.query
    ).toMatchObject({ order: [{ field: 'occurredAt', type: 'DateTime' }] })
  })

  it('read the order and exists parameter names from the platform config', async () => {
    const datamodel = await loadDatamodel(schema(['@filter(exists: [returnedAt])']))
    const build = (text: string) =>
      buildHydra({
        datamodel,
        provider: 'sqlite',
        clientModule: '../prisma/client.js',
        globalConfig: { text, label: './platform.yaml' },
      })
    const { model } = build(
      'platform:\n  collection:\n    order_parameter_name: sort\n    exists_parameter_name: has\n'
    )
    expect(model.filterParameters).toEqual({ order: 'sort', exists: 'has' })
    expect(() => build('platform:\n  collection:\n    order_parameter_name: page\n')).toThrow(
      '"page" is already the name of the page parameter'
    )
  })
})
