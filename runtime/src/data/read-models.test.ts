import { describe, expect, it } from 'vitest'
import type { Condition } from '../plan/condition.js'
import { readWhere } from '../plan/scope-reader.js'
import { EVERYONE } from './caller-view.js'
import { conditionFields, conditionModels, countReads, scopeReads } from './read-models.js'
import { relationTargets } from './written-models.js'

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

/** The models a scope of `model` written as `where` reads. */
const whereModels = (
  targets: Parameters<typeof conditionModels>[0],
  model: string,
  where: Record<string, unknown> | undefined
) => conditionModels(targets, model, where && readWhere(where))

describe('the models a condition reads', () => {
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
    expect(
      countReads(relationTargets(client), 'loan')(readWhere({ book: { title: 'X' } }))
    ).toEqual(['Loan', 'Book'])
    expect(countReads(relationTargets(client), 'uRLAlias')(undefined)).toEqual(['URLAlias'])
  })

  it('reads the model alone, named from its delegate, when the client holds no data model', () => {
    expect(
      countReads(relationTargets({}), 'bookReview')(readWhere({ book: { title: 'X' } }))
    ).toEqual(['BookReview'])
  })
})

describe('the models a request reads', () => {
  const request = { model: 'Loan', operation: 'collection', related: ['Book'], pages: ['Genre'] }

  it('is none when no rule bears on it', () => {
    expect(scopeReads(targets, request, EVERYONE)).toEqual([])
  })

  it('adds every model the scopes of its models reach, its own and its first pages’', () => {
    const view = {
      ...EVERYONE,
      personal: true,
      scope: readWhere({ returnedAt: null }),
      scopeOf: (model: string) =>
        model === 'Book' ? readWhere({ author: { is: { name: 'Ann' } } }) : undefined,
      pageScopeOf: () => readWhere({ books: { some: { loans: { none: {} } } } }),
      pageParentScope: readWhere({ settingId: 1 }),
    }
    expect(scopeReads(targets, request, view).sort()).toEqual(['Author', 'Book', 'Genre', 'Loan'])
    const parent = { model: 'Setting', operation: 'collection', parent: 'Author' }
    const ofParent = {
      ...view,
      scope: undefined,
      scopeOf: () => readWhere({ books: { some: {} } }),
    }
    expect(scopeReads(targets, parent, ofParent).sort()).toEqual(['Author', 'Book'])
  })

  it('adds every model the conditions of fields shown on some rows reach', () => {
    const view = {
      ...EVERYONE,
      personal: true,
      shownWhere: new Map([['borrower', readWhere({ book: { is: { title: 'X' } } }) as Condition]]),
      shownWhereOf: (model: string) =>
        new Map(
          model === 'Book'
            ? [['title', readWhere({ genres: { some: { name: 'Poetry' } } }) as Condition]]
            : []
        ),
    }
    expect(scopeReads(targets, { model: 'Loan', operation: 'collection' }, view)).toEqual(['Book'])
    expect(scopeReads(targets, request, view).sort()).toEqual(['Book', 'Genre'])
  })

  it('adds a related model its scope restricts, though the scope reaches no further', () => {
    // An item links a book its caller may not see and embeds one it may: publishing the book
    // changes the item, so Book is among what it reads; a related model no scope restricts is not.
    const item = { model: 'Loan', operation: 'item', related: ['Book', 'Author'] }
    const view = {
      ...EVERYONE,
      personal: true,
      scopeOf: (model: string) =>
        model === 'Book' ? readWhere({ title: { not: 'Draft' } }) : undefined,
    }
    expect(scopeReads(targets, item, view)).toEqual(['Book'])
  })
})

describe('the fields a condition tests', () => {
  const fieldsOf = (
    targets: Parameters<typeof conditionFields>[0],
    model: string,
    where: Record<string, unknown>
  ) => {
    const fields = new Set<string>()
    conditionFields(targets, model, readWhere(where), fields)
    return [...fields].sort()
  }

  it('names each field on the model it is of, through relations', () => {
    expect(fieldsOf(targets, 'Book', { author: { is: { name: 'a' } }, pages: 3 })).toEqual([
      'Author.name',
      'Book.author',
      'Book.pages',
    ])
  })

  it('reads any field of the model a relation of unknown target is on, and none inside it', () => {
    const where = { author: { is: { name: 'a', books: { some: { title: 'b' } } } }, pages: 3 }
    expect(fieldsOf(new Map(), 'Book', where)).toEqual(['Book.*', 'Book.author', 'Book.pages'])
  })
})
