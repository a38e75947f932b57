import { describe, expect, it } from 'vitest'
import type { ModelSource } from '../../contract/model-source.js'
import type { DeclaredEmbed } from '../../contract/properties.js'
import type { HydraLogRecord } from '../../observe/logger.js'
import { reportHandoffs } from './handoffs.js'

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

  it('names every read of a model showing a link through a relation its compiled form does not join', () => {
    const records: HydraLogRecord[] = []
    const logger = (record: HydraLogRecord) => {
      records.push(record)
    }
    // A user's password, keyed by its `userId`: only the password row holds it.
    const users = (joins?: NonNullable<ModelSource['compiled']>['joins']): ModelSource => ({
      delegate: 'user',
      provider: 'sqlite',
      table: { name: 'User', schema: null },
      key: { name: 'id' },
      select: { id: true, password: { select: { userId: true } } },
      compiled: {
        select: 'SELECT "id" FROM "User"',
        columns: { id: ['id', 'Int'] },
        ...(joins ? { joins } : {}),
      },
    })
    const table = { name: 'Password', schema: null }
    reportHandoffs(users(), { name: 'GET /users' }, logger)
    reportHandoffs(
      users({ password: { table, on: ['id', 'userId'], columns: { hash: ['hash', 'String'] } } }),
      { name: 'GET /users/{id}', item: true },
      logger
    )
    reportHandoffs(
      users({ password: { table, on: ['id', 'userId'], columns: { userId: ['userId', 'Int'] } } }),
      { name: 'GET /users/joined' },
      logger
    )
    expect(records.map(({ fields }) => [fields.operation, fields.reasons])).toEqual([
      ['GET /users', ['every read: the model shows a related id read through its relation']],
      ['GET /users/{id}', ['every read: the model shows a related id read through its relation']],
    ])
  })

  it('names every page of a sub-collection tied through a relation the compiled models lack', () => {
    const records: HydraLogRecord[] = []
    // Followers of a user: an implicit many-to-many relation of users to themselves.
    const users: ModelSource = {
      delegate: 'user',
      provider: 'postgresql',
      table: { name: 'User', schema: null },
      key: { name: 'id' },
      select: { id: true },
      compiled: {
        select: 'SELECT "id" FROM "User"',
        columns: { id: ['id', 'Int'] },
        name: 'User',
        models: { User: { table: { name: 'User', schema: null }, columns: {}, relations: {} } },
      },
    }
    const relation = {
      parent: { name: 'User', delegate: 'user', key: { name: 'id' } },
      condition: { kind: 'some' as const, field: 'following' },
    }
    reportHandoffs(users, { name: 'GET /users/{id}/followers', relation }, (record) => {
      records.push(record)
    })
    expect(records.map(({ message }) => message)).toEqual([
      'GET /users/{id}/followers is configured for the compiled engine; the prisma engine reads every page: its parent is tied through a relation, not a foreign key',
    ])
  })
})
