import { describe, expect, it } from 'vitest'
import type { ModelSource } from '../contract/model-source.js'
import type { DeclaredEmbed } from '../contract/properties.js'
import type { HydraLogRecord } from '../observe/logger.js'
import { reportHandoffs } from './compiled-handoffs.js'

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

/** The loan's book, declared embedded with its title. */
const book: DeclaredEmbed = {
  name: 'book',
  embed: {
    model: 'Book',
    delegate: 'book',
    key: ['id'],
    fields: [{ name: 'title', type: 'String' }],
  },
}

describe('the handoffs reported when the app is made', () => {
  it('names an item route’s by its items, a collection’s by its pages', () => {
    const records: HydraLogRecord[] = []
    const logger = (record: HydraLogRecord) => {
      records.push(record)
    }
    reportHandoffs(loans, { name: 'GET /loans', embedded: [book] }, logger)
    reportHandoffs(loans, { name: 'GET /loans/{id}', embedded: [book], item: true }, logger)
    expect(records.map(({ fields }) => [fields.operation, fields.reasons])).toEqual([
      ['GET /loans', ['every page: it declares book embedded']],
      ['GET /loans/{id}', ['every item: it declares book embedded']],
    ])
  })
})
