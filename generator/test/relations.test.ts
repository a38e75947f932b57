import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { formatProblem, GenerationError } from '../src/problems.js'
import { loadDatamodel } from './dmmf.js'

async function build(models: string) {
  const datamodel = await loadDatamodel(models)
  try {
    const result = buildHydra({
      datamodel,
      provider: 'sqlite',
      clientModule: '../prisma/client.js',
    })
    return { result, problems: result.warnings.map(formatProblem) }
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error
    return { result: undefined, problems: error.problems.map(formatProblem) }
  }
}

/** An author with books: `book` is Book's documentation and its fields' annotations. */
const library = ({
  book = '@pagination',
  author = '',
  title = '',
  authorId = '',
  authorName = '',
  books = '',
  authorServed = true,
} = {}) => `
${authorServed ? '/// @pagination' : ''}
model Author {
  id    Int    @id
  name  String
  ${books ? `/// ${books}\n  ` : ''}books Book[]
}

${book
  .split('\n')
  .map((line) => `/// ${line}`)
  .join('\n')}
model Book {
  id       Int    @id
  ${title ? `/// ${title}\n  ` : ''}title    String
  ${authorId ? `/// ${authorId}\n  ` : ''}authorId Int
  ${author ? `/// ${author}\n  ` : ''}author   Author @relation(fields: [authorId], references: [id])
  ${authorName ? `/// ${authorName}\n  ` : ''}editorId Int?
}
`

describe('relations as links', () => {
  it('a relation to a served model is a link; its foreign key is not a field', async () => {
    const { result, problems } = await build(library())
    expect(problems).toEqual([])
    const book = result?.model.resources.find((resource) => resource.name === 'Book')
    expect(book?.fields.map((field) => field.name)).toEqual(['id', 'title', 'editorId'])
    expect(book?.links.map(({ name, kind, from }) => ({ name, kind, from }))).toEqual([
      { name: 'author', kind: 'one', from: 'authorId' },
    ])
    // Read to build the link, though not shown.
    expect(book?.selected).toContain('authorId')
    const author = result?.model.resources.find((resource) => resource.name === 'Author')
    expect(author?.links.map(({ name, kind, condition }) => ({ name, kind, condition }))).toEqual([
      {
        name: 'books',
        kind: 'many',
        condition: { field: 'authorId', kind: 'column', relation: 'author' },
      },
    ])
    expect(result?.files.get('book.ts')).toContain(
      '.get(\'/authors/:id/books\', (c: Context<Env, "/authors/:id/books", QueryInput<BookCollectionQuery>>) =>'
    )
  })

  it('a relation to a model that is not served is never shown; its key stays a field, with a warning', async () => {
    const { result, problems } = await build(library({ authorServed: false }))
    expect(problems).toEqual([
      'warning: Model "Book", field "authorId": is the foreign key of relation "author" to Author, which is not served: it is shown as a plain field holding Author\'s key. Hide it (/// @hidden), serve Author (/// @pagination) to show the relation as a link, or keep it as a field of the API with /// @property',
    ])
    const book = result?.model.resources[0]
    expect(book?.fields.map((field) => field.name)).toEqual(['id', 'title', 'authorId', 'editorId'])
    expect(book?.links).toEqual([])
  })

  it('a foreign key to a model that is not served, hidden or declared a property, warns no more', async () => {
    for (const authorId of [
      '@hidden',
      '@property',
      '@property(iri: "https://schema.org/author")',
    ]) {
      const { result, problems } = await build(library({ authorServed: false, authorId }))
      expect(problems).toEqual([])
      const fields = result?.model.resources[0]?.fields.map((field) => field.name)
      expect(fields).toEqual(
        authorId === '@hidden'
          ? ['id', 'title', 'editorId']
          : ['id', 'title', 'authorId', 'editorId']
      )
    }
  })

  it('@hidden turns a relation off: its foreign key is a field again, filterable', async () => {
    const { result, problems } = await build(
      library({ author: '@hidden', book: '@pagination\n@filter(search: { authorId: "exact" })' })
    )
    expect(problems).toEqual([])
    const book = result?.model.resources.find((resource) => resource.name === 'Book')
    expect(book?.fields.map((field) => field.name)).toContain('authorId')
    expect(book?.links).toEqual([])
    // The other side is its own relation field: still a link.
    const author = result?.model.resources.find((resource) => resource.name === 'Author')
    expect(author?.links.map((link) => link.name)).toEqual(['books'])
  })

  it('@hidden on the relation and on its key shows neither', async () => {
    const { result } = await build(library({ author: '@hidden', authorId: '@hidden' }))
    const book = result?.model.resources.find((resource) => resource.name === 'Book')
    expect(book?.fields.map((field) => field.name)).toEqual(['id', 'title', 'editorId'])
    expect(book?.links).toEqual([])
  })

  it('a one-to-one on the primary key keeps the key; the side without a key reads it through the relation', async () => {
    const { result, problems } = await build(`
/// @pagination
model Author {
  id      Int      @id
  profile Profile?
}

/// @pagination
model Profile {
  authorId Int    @id
  author   Author @relation(fields: [authorId], references: [id])
}
`)
    expect(problems).toEqual([])
    const [author, profile] = result?.model.resources ?? []
    expect(profile?.fields.map((field) => field.name)).toEqual(['authorId'])
    expect(profile?.links.map(({ name, from }) => ({ name, from }))).toEqual([
      { name: 'author', from: 'authorId' },
    ])
    expect(author?.links.map(({ name, from, required }) => ({ name, from, required }))).toEqual([
      { name: 'profile', from: ['profile', 'authorId'], required: false },
    ])
    expect(result?.files.get('author.ts')).toContain('profile: { select: { authorId: true } }')
  })

  it('@property(name: ...) renames a relation: its property and its sub-collection', async () => {
    const { result, problems } = await build(
      library({ author: '@property(name: "writer")', books: '@property(name: "works")' })
    )
    expect(problems).toEqual([])
    const book = result?.model.resources.find((resource) => resource.name === 'Book')
    expect(book?.links.map((link) => [link.field, link.name])).toEqual([['author', 'writer']])
    expect(result?.files.get('book.ts')).toContain(
      '.get(\'/authors/:id/works\', (c: Context<Env, "/authors/:id/works", QueryInput<BookCollectionQuery>>) =>'
    )
  })

  it.each([
    [
      'a name another property has',
      library({ author: '@property(name: "title")' }),
      [
        'error: Model "Book", field "author", @property, option "name": the relation\'s property "title" is already the name of field "title"; give the relation another name (@property(name: "...")) or hide one of them (@hidden)',
      ],
    ],
    [
      'a name that is not a JSON-LD term and a path segment as it is',
      library({ author: '@property(name: "the author")', books: '@property(name: 3)' }),
      [
        'error: Model "Author", field "books", @property, option "name": must be a name of letters, digits, _ and - starting with a letter or _ (a JSON key and a path segment as it is), got 3',
        'error: Model "Book", field "author", @property, option "name": must be a name of letters, digits, _ and - starting with a letter or _ (a JSON key and a path segment as it is), got "the author"',
      ],
    ],
    [
      'a name on a scalar field',
      library({ title: '@property(name: "heading")' }),
      [
        'error: Model "Book", field "title", @property, option "name": renames relations only; rename a scalar field in the schema (@map keeps the column name)',
      ],
    ],
    [
      'a filter on the foreign key behind a link',
      library({ book: '@pagination\n@filter(search: { authorId: "exact" })' }),
      [
        'error: Model "Book", @filter, option "search": field "authorId" is the foreign key of relation "author", which is served as a link: it is not a field of the API; filter by the relation instead: @filter(search: { author: "exact" }) (by IRI or id)',
      ],
    ],
    [
      'an order on the foreign key behind a link',
      library({ book: '@pagination\n@order(fields: [authorId])' }),
      [
        'error: Model "Book", @order, option "fields": field "authorId" is the foreign key of relation "author", which is served as a link: it is not a field of the API, so clients cannot order by it; to serve the key as a field, turn the relation off (@hidden on "author")',
      ],
    ],
    [
      'a Hydra term as a link name without the prefix',
      library({
        book: '@pagination\n@resource(hydraPrefix: false)',
        author: '@property(name: "next")',
      }),
      [
        'error: Model "Book", @resource, option "hydraPrefix": is false, but relation "author" is shown as "next", the name of a Hydra term (member, totalItems, view, Collection, PartialCollectionView, first, last, previous, next, search); keep the prefix, turn the relation off (@hidden) or rename it (@property(name: "..."))',
      ],
    ],
  ])('%s is a generation error', async (_, models, expected) => {
    expect((await build(models)).problems).toEqual(expected)
  })
})

describe('exists on a relation', () => {
  const tree = (filter: string) => `
/// @pagination
/// @filter(${filter})
model Category {
  id       Int        @id
  parentId Int?
  parent   Category?  @relation("Tree", fields: [parentId], references: [id])
  children Category[] @relation("Tree")
  ownerId  Int
  owner    Owner      @relation(fields: [ownerId], references: [id])
}

/// @pagination
model Owner {
  id         Int        @id
  categories Category[]
}
`

  it('takes an optional to-one relation served as a link', async () => {
    const { result, problems } = await build(tree('exists: [parent]'))
    expect(problems).toEqual([])
    expect(result?.files.get('category.ts')).toContain(
      '"kind": "exists", "field": "parent", "relation": true, "model": "Category" }'
    )
  })

  it('refuses its foreign key, a to-many and a required relation, naming the fix', async () => {
    const { problems } = await build(tree('exists: [parentId, children, owner]'))
    expect(problems).toEqual([
      'error: Model "Category", @filter, option "exists": field "parentId" is the foreign key of relation "parent", which is served as a link: test the relation instead: exists: [parent]',
      'error: Model "Category", @filter, option "exists": field "children" is to-many: exists filters take optional to-one relations (filter its sub-collection instead)',
      'error: Model "Category", @filter, option "exists": field "owner" is required, so it always exists: exists filters take optional relations',
    ])
  })
})
