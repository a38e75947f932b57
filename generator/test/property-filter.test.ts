/**
 * `@filter(properties: ...)` (docs/member-shape.md): the property filter each operation offers,
 * and the problems `prisma generate` reports for one that does not fit the model.
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
  /// @hidden
  email   String
  books   Book[]
}
model Shelf {
  id    Int    @id
  books Book[]
}
model Book {
  id       Int      @id
  title    String
  price    Decimal
  /// @hidden
  secret   String
  authorId Int
  /// @property(name: "writer")
  author   Author   @relation(fields: [authorId], references: [id])
  shelfId  Int
  shelf    Shelf    @relation(fields: [shelfId], references: [id])
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

async function build(annotations: string[]) {
  const doc = annotations.map((line) => `/// ${line}`).join('\n')
  return buildHydra({
    datamodel: await loadDatamodel(
      MODELS.replace('model Book {', `/// @pagination\n${doc}\nmodel Book {`)
    ),
    provider: 'sqlite',
    clientModule: '../prisma/client.js',
  })
}

async function problems(annotations: string[]): Promise<string> {
  try {
    return (await build(annotations)).warnings.map(formatProblem).join('\n')
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error
    return error.problems.map(formatProblem).join('\n')
  }
}

const queryOf = async (annotations: string[], operation = 0) =>
  (await build(annotations)).model.resources.find((resource) => resource.name === 'Book')
    ?.operations[operation]?.query

const writer = {
  name: 'writer',
  field: 'author',
  embed: {
    model: 'Author',
    delegate: 'author',
    key: ['id'],
    fields: [
      { name: 'id', type: 'Int' },
      { name: 'name', type: 'String' },
    ],
  },
}

describe('@filter(properties: ...)', () => {
  it('offers every shown field and link, to-one links to served models embeddable', async () => {
    expect((await queryOf(['@filter(properties: true)']))?.properties).toEqual({
      parameter: 'properties',
      properties: [
        { name: 'id' },
        { name: 'title' },
        { name: 'price' },
        { name: 'shelfId' },
        writer,
        { name: 'reviews' },
      ],
    })
  })

  it('renames the parameter and keeps what the whitelist names, in the model order', async () => {
    const query = await queryOf([
      '@filter(properties: { parameterName: "fields", whitelist: ["writer.name", title] })',
    ])
    expect(query?.properties).toEqual({
      parameter: 'fields',
      properties: [
        { name: 'title' },
        { ...writer, embed: { ...writer.embed, fields: [{ name: 'name', type: 'String' }] } },
      ],
    })
  })

  it("follows an operation's own @filter, else the model's", async () => {
    const annotations = [
      '@operation(name: "recent", path: "/books/recent")',
      '@operation(name: "cheap", path: "/books/cheap")',
      '@filter(properties: { whitelist: [title] })',
      '@filter(operation: "cheap", range: [price])',
    ]
    expect((await queryOf(annotations, 1))?.properties?.properties).toEqual([{ name: 'title' }])
    expect((await queryOf(annotations, 2))?.properties).toBeUndefined()
  })

  it.each([
    ['a value of another kind', '@filter(properties: [title])', 'must be true or {'],
    [
      'an unknown option',
      '@filter(properties: { whitelis: [title] })',
      'Did you mean "whitelist"?',
    ],
    ['a hidden field', '@filter(properties: { whitelist: [secret] })', 'no property "secret"'],
    ['a misspelt field', '@filter(properties: { whitelist: [titel] })', 'Did you mean "title"?'],
    [
      'a link by its Prisma field',
      '@filter(properties: { whitelist: ["author.name"] })',
      'the relation of the link "writer"',
    ],
    [
      'a hidden field of the target',
      '@filter(properties: { whitelist: ["writer.email"] })',
      'no field "email" of Author',
    ],
    [
      'a to-many link embedded',
      '@filter(properties: { whitelist: ["reviews.stars"] })',
      '"reviews" is not a to-one link to a served model',
    ],
    [
      'two relations deep',
      '@filter(properties: { whitelist: ["writer.name.x"] })',
      'only one relation deep embeds',
    ],
    [
      'a parameter of another meaning',
      '@filter(properties: { parameterName: "page" })',
      'the property filter\'s parameter "page" is also the parameter of the page number (page=…)',
    ],
    [
      'a parameter that is no name',
      '@filter(properties: { parameterName: "a b" })',
      "parameterName must be a query parameter's name",
    ],
  ])('refuses %s', async (_, annotation, message) => {
    expect(await problems([annotation])).toContain(message)
  })
})
