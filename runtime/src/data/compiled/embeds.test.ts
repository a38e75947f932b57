import { describe, expect, it } from 'vitest'
import type { ModelSource } from '../../contract/model-source.js'
import type { OrderField } from '../../contract/order.js'
import { readWhere } from '../../plan/scope-reader.js'
import { embeddedReads } from './embeds.js'

const by = (field: string, direction: 'asc' | 'desc' = 'asc'): OrderField => ({ field, direction })

/** Loans, each embedding its book (`bookId` to `Book.id`), on `provider`. */
const loans = (provider: string): ModelSource => ({
  delegate: 'loan',
  provider,
  table: { name: 'Loan', schema: null },
  key: { name: 'id' },
  select: { id: true, bookId: true, due: true },
  compiled: {
    select: 'SELECT "id", "bookId", "due_at" AS "due" FROM "Loan"',
    columns: { id: ['id', 'Int'], bookId: ['bookId', 'Int'], due: ['due_at', 'DateTime'] },
    joins: {
      book: {
        table: { name: 'Book', schema: null },
        on: ['bookId', 'id'],
        columns: { id: ['id', 'Int'], title: ['title', 'String'] },
      },
    },
  },
})

const reads = (provider: string, fields = ['id', 'bookId']) => {
  const model = loans(provider)
  const shape = { fields, joined: [{ relation: 'book', fields: ['title'] }] }
  const found = model.compiled && embeddedReads(model, model.compiled, shape, false)
  if (!found) throw new Error('not joined')
  return found
}

/** The derived table of the page's books, joined to its loans. */
const BOOK =
  'LEFT JOIN (SELECT "id" AS "__e0_k", "title" AS "__e0_0" FROM "Book") AS "__e0" ON "__e0"."__e0_k" = "Loan"."bookId"'

describe('embedded to-one relations on the compiled engine', () => {
  it('joins the related rows in the page’s statement, its order on its own columns', () => {
    const args = { order: [by('due', 'desc'), by('id')], take: 30 }
    const page = reads('postgresql').statements.rows(args)
    expect(page?.sql).toBe(
      `SELECT "id", "bookId", "__e0"."__e0_k", "__e0"."__e0_0" FROM "Loan" ${BOOK} ORDER BY "due_at" DESC, "id" ASC LIMIT $1`
    )
    expect(page?.args).toEqual([30])
  })

  it('reads the keys of a page past an offset first on MariaDB, its rows and relations joined to them', () => {
    const args = { order: [by('due', 'desc'), by('id')], skip: 30, take: 30 }
    const page = reads('mysql').statements.rows(args)
    const book = BOOK.replaceAll('"', '`')
    expect(page?.sql).toBe(
      `SELECT \`id\`, \`bookId\`, \`__e0\`.\`__e0_k\`, \`__e0\`.\`__e0_0\` FROM (SELECT \`id\` AS \`__k0\` FROM \`Loan\` ORDER BY \`due_at\` DESC, \`id\` ASC LIMIT ? OFFSET ?) AS \`__p\` JOIN \`Loan\` ON \`Loan\`.\`id\` = \`__p\`.\`__k0\` ${book} ORDER BY \`due_at\` DESC, \`id\` ASC`
    )
    expect(page?.args).toEqual([30, 30])
    // PostgreSQL and SQLite read the page's rows at once.
    expect(reads('postgresql').statements.rows(args)?.sql).toBe(
      `SELECT "id", "bookId", "__e0"."__e0_k", "__e0"."__e0_0" FROM "Loan" ${BOOK} ORDER BY "due_at" DESC, "id" ASC LIMIT $1 OFFSET $2`
    )
  })

  it('reads the count beside the joined rows, its parameters before the page’s', () => {
    const condition = readWhere({ due: { lt: '2026-01-01T00:00:00.000Z' } })
    const args = { condition, order: [by('id')], take: 10 }
    const page = reads('sqlite', ['due']).statements.pageAndCount(args, condition)
    expect(page?.sql).toBe(
      `SELECT "due_at" AS "due", "__e0"."__e0_k", "__e0"."__e0_0", (SELECT COUNT(*) FROM "Loan" WHERE "due_at" < ?) AS "total" FROM "Loan" ${BOOK} WHERE "due_at" < ? ORDER BY "id" ASC LIMIT ?`
    )
    expect(page?.args).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 10])
  })

  it('reads a joined row into its member, and a missing one as null', () => {
    const { read, width } = reads('mysql')
    expect(width).toBe(4)
    expect(read([1, 7, 7, 'Dune'])).toEqual({ id: 1, bookId: 7, book: { title: 'Dune' } })
    expect(read([2, null, null, null])).toEqual({ id: 2, bookId: null, book: null })
  })

  it('joins a link only the related rows key, on every column of a composite key', () => {
    // A bin's shelf, keyed by (aisle, slot) through two foreign-key columns; a bin's label, whose
    // foreign key is the label's (`binId`, unique), keyed by its own id.
    const bins: ModelSource = {
      delegate: 'bin',
      provider: 'postgresql',
      table: { name: 'Bin', schema: null },
      key: { name: 'id' },
      select: {
        id: true,
        shelf: { select: { aisle: true, slot: true } },
        label: { select: { id: true } },
      },
      compiled: {
        select: 'SELECT "id" FROM "Bin"',
        columns: {
          id: ['id', 'Int'],
          shelfAisle: ['shelf_aisle', 'String'],
          shelfSlot: ['shelfSlot', 'Int'],
        },
        joins: {
          shelf: {
            table: { name: 'Shelf', schema: null },
            on: ['shelf_aisle', 'aisle'],
            alsoOn: [['shelfSlot', 'slot']],
            columns: { aisle: ['aisle', 'String'], slot: ['slot', 'Int'] },
          },
          label: {
            table: { name: 'Label', schema: null },
            on: ['id', 'binId'],
            columns: { id: ['label_id', 'Int'], binId: ['binId', 'Int'] },
          },
        },
      },
    }
    const shape = {
      fields: ['id'],
      joined: [
        { relation: 'shelf', fields: ['aisle', 'slot'] },
        { relation: 'label', fields: ['id'] },
      ],
    }
    const found = bins.compiled && embeddedReads(bins, bins.compiled, shape, false)
    expect(found?.statements.rows({ order: [by('id')], take: 2 })?.sql).toBe(
      'SELECT "id", "__e0"."__e0_k", "__e0"."__e0_0", "__e0"."__e0_1", "__e1"."__e1_k", "__e1"."__e1_0" FROM "Bin"' +
        ' LEFT JOIN (SELECT "aisle" AS "__e0_k", "slot" AS "__e0_k1", "aisle" AS "__e0_0", "slot" AS "__e0_1" FROM "Shelf") AS "__e0"' +
        ' ON "__e0"."__e0_k" = "Bin"."shelf_aisle" AND "__e0"."__e0_k1" = "Bin"."shelfSlot"' +
        ' LEFT JOIN (SELECT "binId" AS "__e1_k", "label_id" AS "__e1_0" FROM "Label") AS "__e1"' +
        ' ON "__e1"."__e1_k" = "Bin"."id" ORDER BY "id" ASC LIMIT $1'
    )
    expect(found?.read([3, 'C/d', 'C/d', 1, 3, 30])).toEqual({
      id: 3,
      shelf: { aisle: 'C/d', slot: 1 },
      label: { id: 30 },
    })
    expect(found?.read([4, null, null, null, null, null])).toEqual({
      id: 4,
      shelf: null,
      label: null,
    })
  })
})
