import { describe, expect, it } from 'vitest'
import { modelFields, nestedModels, ownForeignKeys, type ResourceLinks } from './written-models.js'

/** A Prisma client's runtime data model of `models` (name to fields). */
const clientOf = (models: Record<string, { name: string; kind: string; type: string }[]>) => ({
  _runtimeDataModel: {
    models: Object.fromEntries(Object.entries(models).map(([name, fields]) => [name, { fields }])),
  },
})

const relation = (name: string, type: string, relationName: string) => ({
  name,
  kind: 'object',
  type,
  relationName,
})
const scalar = (name: string, type = 'String') => ({ name, kind: 'scalar', type })

/** Books and their loans, the loans' relation as `loanLinks` gives it. */
const described = (loanLinks: ResourceLinks['links']) =>
  modelFields(
    clientOf({
      Book: [scalar('id', 'Int'), scalar('isbn'), relation('loans', 'Loan', 'BookToLoan')],
      Loan: [scalar('id', 'Int'), scalar('bookRef'), relation('book', 'Book', 'BookToLoan')],
    }),
    new Map<string, ResourceLinks>([
      ['Book', { links: [{ name: 'loans', kind: 'many' }] }],
      ['Loan', { links: loanLinks }],
    ])
  )

describe('the models whose updates name their fields', () => {
  it('describes a model every relation of which references a key', () => {
    const fields = described([{ name: 'book', kind: 'one', from: 'bookRef' }])
    expect([...(fields.get('Book')?.scalars ?? [])]).toEqual(['id', 'isbn'])
    expect([...(fields.get('Loan')?.foreignKeys ?? [])]).toEqual(['bookRef'])
  })

  it('leaves out a model another relation may reference by another unique field', () => {
    // A link read through the relation: its foreign key may reference `isbn`, not the key.
    const fields = described([{ name: 'book', kind: 'one', from: ['book', 'id'] }])
    expect(fields.has('Book')).toBe(false)
  })
})

describe('the models a delete changes', () => {
  const targets = new Map([
    [
      'Book',
      new Map([
        ['author', 'Author'],
        ['loans', 'Loan'],
      ]),
    ],
    ['Author', new Map([['books', 'Book']])],
    ['Loan', new Map([['book', 'Book']])],
  ])
  const links = new Map<string, ResourceLinks>([
    [
      'Book',
      {
        links: [
          { name: 'author', kind: 'one', from: 'authorId' },
          { name: 'loans', kind: 'many' },
        ],
      },
    ],
    ['Loan', { links: [{ name: 'book', kind: 'one', from: 'bookId' }] }],
  ])

  it('reaches the models referencing its rows, not those its own foreign keys reference', () => {
    const owned = ownForeignKeys(links, targets)
    expect([...nestedModels(targets, 'Book', 'delete', {}, owned)]).toEqual(['Loan'])
    expect([...nestedModels(targets, 'Author', 'deleteMany', {}, owned)].sort()).toEqual([
      'Book',
      'Loan',
    ])
    expect([...nestedModels(targets, 'Loan', 'delete', {}, owned)]).toEqual([])
    // Links unknown: every relation may cascade.
    expect([...nestedModels(targets, 'Book', 'delete', {})].sort()).toEqual(['Author', 'Loan'])
  })

  it('reaches the target of its own foreign key where that target links back to it as to-one', () => {
    // An article's answers write `body` from its body's row, whose key the body holds.
    const oneToOne = new Map([
      ['Article', new Map([['body', 'ArticleBody']])],
      ['ArticleBody', new Map([['article', 'Article']])],
    ])
    const bodies = new Map<string, ResourceLinks>([
      ['Article', { links: [{ name: 'body', kind: 'one' }] }],
      ['ArticleBody', { links: [{ name: 'article', kind: 'one', from: 'articleId' }] }],
    ])
    const owned = ownForeignKeys(bodies, oneToOne)
    expect([...nestedModels(oneToOne, 'ArticleBody', 'delete', {}, owned)]).toEqual(['Article'])
  })
})
