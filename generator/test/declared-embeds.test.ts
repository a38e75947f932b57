/**
 * `@property(embed: [...])` (docs/member-shape.md, "Declared embeds"): the relations a resource
 * shows embedded, and the problems `prisma generate` reports for one that cannot be.
 */
import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { formatProblem, GenerationError } from '../src/problems.js'
import { loadDatamodel } from './dmmf.js'

const MODELS = `
/// @pagination
model Author {
  id      Int     @id
  name    String
  country String?
  /// @hidden
  email   String
  publisherId Int
  publisher Publisher @relation(fields: [publisherId], references: [id])
  books   Book[]
}
/// @pagination
model Publisher {
  id      Int     @id
  name    String
  authors Author[]
}
model Shelf {
  id    Int    @id
  books Book[]
}
/// @pagination
model Book {
  id       Int      @id
  title    String
  authorId Int
  /// AUTHOR
  author   Author   @relation(fields: [authorId], references: [id])
  shelfId  Int
  /// SHELF
  shelf    Shelf    @relation(fields: [shelfId], references: [id])
  /// REVIEWS
  reviews  Review[]
}
/// @pagination
model Review {
  id     Int    @id
  stars  Int
  bookId Int
  book   Book   @relation(fields: [bookId], references: [id])
}
`

/** Book with an extra collection operation: its operations are collection, recent and item. */
const WITH_RECENT = MODELS.replace(
  '/// @pagination\nmodel Book {',
  '/// @pagination\n/// @operation(name: "recent", path: "/books/recent")\nmodel Book {'
)

async function build(
  field: 'AUTHOR' | 'SHELF' | 'REVIEWS',
  annotation: string,
  models = WITH_RECENT
) {
  return buildHydra({
    datamodel: await loadDatamodel(models.replace(`/// ${field}`, `/// ${annotation}`)),
    provider: 'sqlite',
    clientModule: '../prisma/client.js',
  })
}

async function problems(field: 'AUTHOR' | 'SHELF' | 'REVIEWS', annotation: string) {
  try {
    return (await build(field, annotation)).warnings.map(formatProblem).join('\n')
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error
    return error.problems.map(formatProblem).join('\n')
  }
}

describe('@property(embed: [...])', () => {
  it('declares the relation embedded with the fields it names, in their order', async () => {
    const built = await build('AUTHOR', '@property(name: "writer", embed: [country, name])')
    const book = built.model.resources.find((resource) => resource.name === 'Book')
    expect(book?.embedded).toStrictEqual([
      {
        name: 'writer',
        field: 'author',
        embed: {
          model: 'Author',
          delegate: 'author',
          key: ['id'],
          fields: [
            { name: 'country', type: 'String', required: false },
            { name: 'name', type: 'String' },
          ],
        },
      },
    ])
    const other = built.model.resources.find((resource) => resource.name === 'Review')
    expect(other?.embedded).toBeUndefined()
  })

  it.each([
    [
      'AUTHOR',
      '@property(embed: [nme])',
      'names no field "nme" of Author. Did you mean "name"? Fields: id, name, country',
    ],
    ['AUTHOR', '@property(embed: [email])', 'names "email", which Author hides (@hidden)'],
    ['AUTHOR', '@property(embed: [publisher])', 'names "publisher", a relation of Author'],
    [
      'AUTHOR',
      '@property(embed: [publisherId])',
      `names "publisherId", the foreign key of Author's relation "publisher"`,
    ],
    ['AUTHOR', '@property(embed: [name, name])', 'names "name" twice'],
    ['AUTHOR', '@property(embed: [])', "must be a list of the related model's field names"],
    ['AUTHOR', '@property(embed: name)', "must be a list of the related model's field names"],
    ['AUTHOR', '@hidden\n  /// @property(embed: [name])', 'embeds a hidden relation'],
    ['SHELF', '@property(embed: [id])', 'embeds a relation to Shelf, which is not served'],
    [
      'REVIEWS',
      '@property(embed: [stars])',
      'embeds a to-many relation without first: say how many of its related items to show (embed: [...], first: 3, at most 100); the rest page at its sub-collection (/books/{id}/reviews)',
    ],
    [
      'REVIEWS',
      '@property(embed: [strs], first: 3)',
      'names no field "strs" of Review. Did you mean "stars"?',
    ],
    ['REVIEWS', '@property(embed: [book], first: 3)', 'names "book", a relation of Review'],
    [
      'REVIEWS',
      '@property(embed: [stars], first: 0)',
      'must be a whole number from 1 to 100 (the related items shown), got 0',
    ],
    ['REVIEWS', '@property(embed: [stars], first: 101)', 'must be a whole number from 1 to 100'],
    ['REVIEWS', '@property(embed: [stars], first: 2.5)', 'must be a whole number from 1 to 100'],
    ['REVIEWS', '@property(embed: [stars], first: "3")', 'must be a whole number from 1 to 100'],
    [
      'REVIEWS',
      '@property(first: 3)',
      'caps a to-many relation declared embedded; write it beside embed',
    ],
    ['AUTHOR', '@property(embed: [name], first: 3)', 'gives first to a to-one relation'],
    [
      'SHELF',
      '@property(embed: [id], first: 3)',
      'embeds a relation to Shelf, which is not served',
    ],
  ] as const)('%s %s: %s', async (field, annotation, message) => {
    const text = await problems(field, annotation)
    expect(text).toContain(`Model "Book", field "${field.toLowerCase()}"`)
    expect(text).toContain(message)
  })

  it.each([
    [
      'REVIEWS',
      '@property(embed: [stars], first: 101)',
      'error: Model "Book", field "reviews", @property, option "first": must be a whole number from 1 to 100 (the related items shown), got 101',
    ],
    [
      'AUTHOR',
      '@property(embed: [name], first: 101)',
      [
        'error: Model "Book", field "author", @property, option "first": must be a whole number from 1 to 100 (the related items shown), got 101',
        'error: Model "Book", field "author", @property, option "embed": gives first to a to-one relation: first caps a to-many relation; a to-one relation embeds its one item',
      ].join('\n'),
    ],
  ] as const)(
    '%s %s: says what is wrong with first, and nothing more',
    async (field, annotation, expected) => {
      const errors = (await problems(field, annotation))
        .split('\n')
        .filter((line) => line.startsWith('error'))
      expect(errors.join('\n')).toBe(expected)
    }
  )

  it('declares a to-many relation embedded with its cap (first)', async () => {
    const built = await build('REVIEWS', '@property(embed: [stars], first: 3)')
    const book = built.model.resources.find((resource) => resource.name === 'Book')
    expect(book?.embedded).toStrictEqual([
      {
        name: 'reviews',
        embed: {
          model: 'Review',
          delegate: 'review',
          key: ['id'],
          fields: [{ name: 'stars', type: 'Int' }],
          first: 3,
          condition: { field: 'bookId', kind: 'column', relation: 'book' },
          page: { page: 'page', size: 30 },
        },
      },
    ])
  })

  it('refuses an embed on a scalar field, with its operations too', async () => {
    const datamodel = MODELS.replace(
      '  title    String',
      '  /// @property(embed: [x])\n  title    String'
    )
    let text = ''
    try {
      await buildHydra({
        datamodel: await loadDatamodel(datamodel),
        provider: 'sqlite',
        clientModule: '../prisma/client.js',
      })
    } catch (error) {
      if (!(error instanceof GenerationError)) throw error
      text = error.problems.map(formatProblem).join('\n')
    }
    expect(text).toContain('embeds relations only')
  })
})

describe('@property(embed: [...], operations: [...])', () => {
  const author = (fields: readonly string[], operations?: readonly string[]) => ({
    name: 'author',
    embed: {
      model: 'Author',
      delegate: 'author',
      key: ['id'],
      fields: fields.map((name) =>
        name === 'country'
          ? { name, type: 'String', required: false }
          : { name, type: name === 'id' ? 'Int' : 'String' }
      ),
    },
    ...(operations ? { operations } : {}),
  })

  it('limits a declaration to the operations it names, one line per shape', async () => {
    const built = await build(
      'AUTHOR',
      [
        '@property(embed: [name], operations: [collection, Author.books])',
        '/// @property(embed: [name, country], operations: [item])',
      ].join('\n  ')
    )
    const book = built.model.resources.find((resource) => resource.name === 'Book')
    expect(book?.embedded).toStrictEqual([
      author(['name'], ['collection', 'Author.books']),
      author(['name', 'country'], ['item']),
    ])
  })

  it('keeps a line without operations for every operation the others do not name', async () => {
    const built = await build(
      'AUTHOR',
      '@property(embed: [name])\n  /// @property(embed: [id, name, country], operations: [item, recent])'
    )
    const book = built.model.resources.find((resource) => resource.name === 'Book')
    expect(book?.embedded).toStrictEqual([
      author(['name']),
      author(['id', 'name', 'country'], ['item', 'recent']),
    ])
  })

  it('caps a to-many relation per operation', async () => {
    const built = await build(
      'REVIEWS',
      '@property(embed: [stars], first: 2, operations: [collection])\n  /// @property(embed: [id, stars], first: 10, operations: [item])'
    )
    const book = built.model.resources.find((resource) => resource.name === 'Book')
    expect(book?.embedded?.map(({ embed, operations }) => [embed.first, operations])).toStrictEqual(
      [
        [2, ['collection']],
        [10, ['item']],
      ]
    )
  })

  it.each([
    [
      'AUTHOR',
      '@property(embed: [name], operations: [colection])',
      'names no operation "colection" of Book. Did you mean "collection"? Operations: collection, recent, item, Author.books',
    ],
    [
      'AUTHOR',
      '@property(embed: [name], operations: [Author.book])',
      'names no operation "Author.book" of Book. Did you mean "Author.books"?',
    ],
    [
      'AUTHOR',
      '@property(embed: [name], operations: [Shelf.books])',
      'names no operation "Shelf.books" of Book.',
    ],
    [
      'AUTHOR',
      '@property(embed: [name], operations: [item, item])',
      'names operation "item" twice',
    ],
    [
      'AUTHOR',
      '@property(embed: [name], operations: [])',
      "must be a list of the model's operation names (collection, an @operation's name, item, or a sub-collection as Parent.link), got []",
    ],
    [
      'AUTHOR',
      '@property(embed: [name], operations: item)',
      "must be a list of the model's operation names",
    ],
    [
      'AUTHOR',
      '@property(embed: [name], operations: ["/books"])',
      "must be a list of the model's operation names",
    ],
    [
      'AUTHOR',
      '@property(operations: [item])',
      'limits an embed to some operations; write it beside embed',
    ],
    [
      'AUTHOR',
      '@property(embed: [name], operation: "item")',
      'unknown option. Did you mean "operations"?',
    ],
    [
      'AUTHOR',
      '@property(embed: [name])\n  /// @property(embed: [country])',
      'is declared for every operation by 2 lines: give each line but one the operations it applies to',
    ],
    [
      'AUTHOR',
      '@property(embed: [name], operations: [item, recent])\n  /// @property(embed: [country], operations: [collection, item])',
      'operation "item" is named by two @property(embed: ...) lines (embed: [name] and embed: [country]): one declaration per operation',
    ],
    [
      'AUTHOR',
      '@property(name: "writer")\n  /// @property(embed: [name], operations: [item])',
      'is given more than once; merge the options into one @property(...)',
    ],
    [
      'AUTHOR',
      '@property(name: "writer", embed: [name], operations: [item])\n  /// @property(name: "by", embed: [country], operations: [collection])',
      'option "name": is given on more than one @property line; give it once',
    ],
  ] as const)('%s %s: %s', async (field, annotation, message) => {
    const text = await problems(field, annotation)
    expect(text).toContain(`Model "Book", field "${field.toLowerCase()}"`)
    expect(text).toContain(message)
  })

  it('refuses "item" where an @operation is named item too', async () => {
    const models = MODELS.replace(
      '/// @pagination\nmodel Book {',
      '/// @pagination\n/// @operation(name: "item", path: "/books/items")\nmodel Book {'
    ).replace('/// AUTHOR', '/// @property(embed: [name], operations: [item])')
    let text = ''
    try {
      await buildHydra({
        datamodel: await loadDatamodel(models),
        provider: 'sqlite',
        clientModule: '../prisma/client.js',
      })
    } catch (error) {
      if (!(error instanceof GenerationError)) throw error
      text = error.problems.map(formatProblem).join('\n')
    }
    expect(text).toContain(
      `names "item", which is both Book's items and its @operation(name: "item"): rename the @operation`
    )
  })

  it('names a renamed relation by its Prisma field', async () => {
    const text = await problems(
      'AUTHOR',
      '@property(name: "writer", embed: [name], operations: [itme])'
    )
    expect(text).toContain(
      'error: Model "Book", field "author", @property, option "operations": names no operation "itme" of Book. Did you mean "item"?'
    )
  })

  describe('a capped to-many relation without an index starting with its foreign key', () => {
    const WARNING =
      'warning: Model "Book", field "reviews", @property, option "embed": no index of Review starts with the relation\'s foreign key (bookId): add @@index([bookId, id]) to Review so each member\'s first related rows are found without walking the others'
    /** The warnings of a build of `models` for `provider` about embeds. */
    async function warnings(models: string, provider = 'sqlite') {
      const built = await buildHydra({
        datamodel: await loadDatamodel(models),
        provider,
        clientModule: '../prisma/client.js',
      })
      return built.warnings.map(formatProblem).filter((line) => line.includes('option "embed"'))
    }
    const capped = (models = WITH_RECENT) =>
      models.replace('/// REVIEWS', '/// @property(embed: [stars], first: 3)')
    const indexed = (index: string) =>
      capped().replace(
        '  book   Book   @relation(fields: [bookId], references: [id])\n',
        (line) => `${line}  ${index}\n`
      )

    it('is warned of once, with the index to add', async () => {
      expect(await warnings(capped())).toStrictEqual([WARNING])
      const twoLines = WITH_RECENT.replace(
        '/// REVIEWS',
        '/// @property(embed: [stars], first: 2, operations: [collection])\n  /// @property(embed: [id, stars], first: 10, operations: [item])'
      )
      expect(await warnings(twoLines)).toStrictEqual([WARNING])
    })

    it('is not warned of with an index starting with the key, or on MySQL/MariaDB', async () => {
      expect(await warnings(indexed('@@index([bookId, id])'))).toStrictEqual([])
      expect(await warnings(indexed('@@index([bookId])'))).toStrictEqual([])
      expect(await warnings(indexed('@@unique([bookId, stars])'))).toStrictEqual([])
      expect(await warnings(capped(), 'mysql')).toStrictEqual([])
    })

    it('is a warning of capped to-many embeds alone', async () => {
      expect(await warnings(indexed('@@index([stars, bookId])'))).toStrictEqual([WARNING])
      const toOne = WITH_RECENT.replace('/// AUTHOR', '/// @property(embed: [name])')
      expect(await warnings(toOne)).toStrictEqual([])
    })
  })
})
