import { describe, expect, it } from 'vitest'
import { countReads, whereModels } from './read-models.js'

/** Loans of books by authors, books of many genres, and a model no relation reaches. */
const targets = new Map([
  ['Loan', new Map([['book', 'Book']])],
  [
    'Book',
    new Map([
      ['loans', 'Loan'],
      ['author', 'Author'],
      ['genres', 'Genre'],
    ]),
  ],
  ['Author', new Map([['books', 'Book']])],
  ['Genre', new Map([['books', 'Book']])],
  ['Setting', new Map()],
])

describe('the models a where reads', () => {
  it('is its own model without a relation filter', () => {
    expect(whereModels(targets, 'Loan', undefined)).toEqual(['Loan'])
    expect(whereModels(targets, 'Loan', { borrower: { contains: 'book' } })).toEqual(['Loan'])
  })

  it('follows relation filters at any depth, in AND, OR and NOT, and their shorthand', () => {
    const where = {
      AND: [
        { returnedAt: null },
        { OR: [{ book: { is: { author: { name: 'Ann' } } } }, { id: { in: [1, 2] } }] },
      ],
    }
    expect(whereModels(targets, 'Loan', where)).toEqual(['Loan', 'Book', 'Author'])
    expect(whereModels(targets, 'Book', { NOT: { genres: { some: { name: 'Poetry' } } } })).toEqual(
      ['Book', 'Genre']
    )
  })

  it('reads no model from values: dates, byte arrays, a field named as a relation elsewhere', () => {
    const where = { loanedAt: { gte: new Date(0) }, data: new Uint8Array(4), books: 1 }
    expect(whereModels(targets, 'Loan', where)).toEqual(['Loan'])
  })
})

describe('the reads of counts of a client’s model', () => {
  const client = {
    _runtimeDataModel: {
      models: {
        Loan: { fields: [{ name: 'book', kind: 'object', type: 'Book' }] },
        Book: { fields: [{ name: 'title', kind: 'scalar', type: 'String' }] },
        URLAlias: { fields: [] },
      },
    },
  }

  it('names the model by its delegate, with the relations of the client’s data model', () => {
    expect(countReads(client, 'loan')({ book: { title: 'X' } })).toEqual(['Loan', 'Book'])
    expect(countReads(client, 'uRLAlias')(undefined)).toEqual(['URLAlias'])
  })

  it('reads the model alone, named from its delegate, when the client holds no data model', () => {
    expect(countReads({}, 'bookReview')({ book: { title: 'X' } })).toEqual(['BookReview'])
  })
})
