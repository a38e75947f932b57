import { describe, expect, it } from 'vitest'
import type { ModelSource } from '../../contract/model-source.js'
import { createDataAccess } from '../data-access.js'
import type { Prisma8BackEndClient } from './back-end.js'
import { prisma8BackEnd } from './back-end.js'

/** Loans, whose compiled form joins no relation. */
const loans: ModelSource = {
  delegate: 'loan',
  provider: 'postgresql',
  table: { name: 'Loan', schema: null },
  key: { name: 'id' },
  select: { id: true, bookId: true },
  compiled: {
    select: 'SELECT "id", "bookId" FROM "Loan"',
    columns: { id: ['id', 'Int'], bookId: ['bookId', 'Int'] },
  },
}

/**
 * A Prisma 8 client that is never queried here: what the back end reads of it when an app is
 * made is its contract's relations.
 */
const client: Prisma8BackEndClient = {
  raw: {
    sql: () => {
      throw new Error('no statement is written when an app is made')
    },
  },
  runtime: () => {
    throw new Error('no statement runs when an app is made')
  },
  transaction: () => Promise.reject(new Error('no transaction runs when an app is made')),
  contract: {
    domain: {
      namespaces: {
        public: {
          models: {
            Loan: { relations: { book: { to: { model: 'Book' } } } },
            Book: { relations: { loans: { to: { model: 'Loan' } } } },
          },
        },
      },
    },
  },
}

describe('the Prisma 8 back end when an app is made', () => {
  it('refuses an operation the compiled engine cannot read, naming it and why', () => {
    const access = createDataAccess(prisma8BackEnd(client), loans)
    const book = {
      name: 'book',
      embed: {
        model: 'Book',
        delegate: 'book',
        key: ['id'],
        fields: [{ name: 'title', type: 'String' }],
      },
    }
    expect(() =>
      access.reportHandoffs(undefined, { name: 'GET /loans', embedded: [book] })
    ).toThrow(
      'GET /loans cannot be served on the prisma8 back end, whose only engine is the compiled one: it cannot read every page: it declares book embedded'
    )
  })

  it('serves an operation the compiled engine reads whole, and every operation compiled', () => {
    const access = createDataAccess(prisma8BackEnd(client), loans)
    expect(() => access.reportHandoffs(undefined, { name: 'GET /loans' })).not.toThrow()
    expect(access.engineOf()).toBe('compiled')
  })

  it('refuses a model without a compiled form', () => {
    const { compiled: _, ...uncompiled } = loans
    expect(() => createDataAccess(prisma8BackEnd(client), uncompiled)).toThrow(
      'loan has no compiled form: the prisma8 back end reads through the compiled engine alone'
    )
  })
})
