import { describe, expect, it } from 'vitest'
import { keyText } from '../../values/key-text.js'
import type { RowIris } from '../written-rows.js'
import { contractModels, type StatementAst, statementTags } from './statement-tags.js'

// A contract as `prisma contract emit` writes it (example-prisma8/test/purges/generated/ holds a
// real one): an order's lines, keyed by two fields stored under other column names.
const contract = {
  domain: {
    namespaces: {
      public: {
        models: {
          Order: {
            relations: { lines: { to: { model: 'Line', namespace: 'public' } } },
            storage: { table: 'orders', namespaceId: 'public', fields: { id: { column: 'id' } } },
          },
          Line: {
            relations: { order: { to: { model: 'Order', namespace: 'public' } } },
            storage: {
              table: 'order_lines',
              namespaceId: 'public',
              fields: {
                orderId: { column: 'order_id' },
                product: { column: 'product_code' },
                quantity: { column: 'quantity' },
              },
            },
          },
        },
      },
    },
  },
}

const line: RowIris = {
  name: 'Line',
  id: {
    name: 'orderId_product',
    kind: 'Composite',
    fields: [
      { name: 'orderId', kind: 'Int' },
      { name: 'product', kind: 'String' },
    ],
  },
  iriOf: (row) => `/lines/${Reflect.get(row, 'orderId')};${Reflect.get(row, 'product')}`,
  valueFields: new Set(['orderId', 'product', 'quantity']),
}

const models = contractModels(contract)
const served = new Map([['Line', line]])
const table = { kind: 'table-source', name: 'order_lines', namespaceId: 'public' }
const column = (name: string) => ({ kind: 'column-ref', table: 'order_lines', column: name })
const returning = [
  { kind: 'projection-item', alias: 'orderId', expr: column('order_id') },
  { kind: 'projection-item', alias: 'product', expr: column('product_code') },
  { kind: 'projection-item', alias: 'quantity', expr: column('quantity') },
]

const tags = (ast: StatementAst, rows?: Record<string, unknown>[], resources = served) =>
  [...(statementTags(models, resources, ast, rows)?.tags ?? [])].sort()

// Snapshots, keyed by the time each was taken, stored in `taken_at`.
const snapshots = contractModels({
  domain: {
    namespaces: {
      public: {
        models: {
          Snapshot: {
            storage: { table: 'snapshots', fields: { takenAt: { column: 'taken_at' } } },
          },
        },
      },
    },
  },
})

// The item IRI as the generated resource writes it (hydra/item-key.ts): a Date's ISO text.
const snapshot: RowIris = {
  name: 'Snapshot',
  id: { name: 'takenAt', kind: 'DateTime' },
  iriOf: (row) => `/snapshots/${keyText('DateTime', Reflect.get(row, 'takenAt'))}`,
}

/** The tags of a delete of snapshots that returned `rows`, sorted. */
function snapshotTags(rows: Record<string, unknown>[], valueFields?: ReadonlySet<string>) {
  const ast = {
    kind: 'delete',
    table: { kind: 'table-source', name: 'snapshots' },
    returning: [
      {
        kind: 'projection-item',
        alias: 'takenAt',
        expr: { kind: 'column-ref', table: 'snapshots', column: 'taken_at' },
      },
    ],
  }
  const served = new Map([['Snapshot', { ...snapshot, valueFields }]])
  const written = statementTags(snapshots, served, ast, rows)
  return [...(written?.tags ?? [])].sort()
}

describe('statementTags', () => {
  it('names the rows an update returned by their composite keys, read through column names', () => {
    const ast = { kind: 'update', table, set: { quantity: {} }, returning }
    expect(tags(ast, [{ orderId: 3, product: 'AB-1', quantity: 2 }])).toEqual([
      '/lines/3;AB-1',
      'Line',
    ])
  })

  it('purges the rows tag when an update sets a key column, stored under another name', () => {
    const ast = { kind: 'update', table, set: { product_code: {} }, returning }
    expect(tags(ast, [{ orderId: 3, product: 'AB-2', quantity: 2 }])).toEqual(['Line', 'Line:rows'])
  })

  it('purges the rows tag when the rows returned lack a key field', () => {
    const ast = { kind: 'update', table, set: { quantity: {} }, returning: returning.slice(1) }
    expect(tags(ast, [{ product: 'AB-1', quantity: 2 }])).toEqual(['Line', 'Line:rows'])
  })

  it('purges the rows tag of a model no resource serves', () => {
    const ast = { kind: 'update', table, set: { quantity: {} }, returning }
    expect(tags(ast, [{ orderId: 3, product: 'AB-1', quantity: 2 }], new Map())).toEqual([
      'Line',
      'Line:rows',
    ])
  })

  it('purges no row of an upsert that does nothing on conflict', () => {
    const ast = { kind: 'insert', table, onConflict: { action: { kind: 'do-nothing' } }, returning }
    expect(tags(ast, [])).toEqual(['Line'])
  })

  it('purges the models a delete reaches by their relations', () => {
    const ast = { kind: 'delete', table, returning }
    expect(tags(ast, [{ orderId: 3, product: 'AB-1', quantity: 2 }])).toEqual([
      '/lines/3;AB-1',
      'Line:any',
      'Line:orderId=3',
      'Line:product=ab-1',
      'Line:quantity=2',
      'Order',
      'Order:rows',
    ])
  })

  it('purges an insert or a delete of one row by the values it returned, else its model', () => {
    const insert = { kind: 'insert', table, returning }
    expect(tags(insert, [{ orderId: 3, product: 'AB 1', quantity: 2 }])).toEqual([
      'Line:any',
      'Line:orderId=3',
      'Line:product=ab%201',
      'Line:quantity=2',
    ])
    // A field not returned, several rows, no row: which pages it meets is not known.
    const partial = { kind: 'insert', table, returning: returning.slice(0, 2) }
    expect(tags(partial, [{ orderId: 3, product: 'AB-1' }])).toEqual(['Line'])
    const two = [
      { orderId: 3, product: 'AB-1', quantity: 2 },
      { orderId: 3, product: 'AB-2', quantity: 2 },
    ]
    expect(tags(insert, two)).toEqual(['Line'])
    expect(tags({ kind: 'delete', table, returning }, [])).toEqual(['Line', 'Order', 'Order:rows'])
  })

  it("tags an enum's stored value by its member's name", () => {
    const tickets = contractModels({
      domain: {
        namespaces: {
          public: {
            enum: { Status: { members: [{ name: 'OPEN', value: 'open_db' }] } },
            models: {
              Ticket: {
                fields: { id: {}, status: { valueSet: { entityName: 'Status' } } },
                storage: {
                  table: 'tickets',
                  fields: { id: { column: 'id' }, status: { column: 'status' } },
                },
              },
            },
          },
        },
      },
    })
    const column = (name: string) => ({ kind: 'column-ref', table: 'tickets', column: name })
    const ast = {
      kind: 'insert',
      table: { name: 'tickets' },
      returning: [
        { alias: 'id', expr: column('id') },
        { alias: 'status', expr: column('status') },
      ],
    }
    const ticket: RowIris = {
      name: 'Ticket',
      id: { name: 'id', kind: 'Int' },
      iriOf: (row) => `/tickets/${Reflect.get(row, 'id')}`,
      valueFields: new Set(['id', 'status']),
    }
    const served = new Map([['Ticket', ticket]])
    const tagsOf = (status: string) =>
      [...(statementTags(tickets, served, ast, [{ id: 1, status }])?.tags ?? [])].sort()
    expect(tagsOf('open_db')).toEqual(['Ticket:any', 'Ticket:id=1', 'Ticket:status=open'])
    expect(tagsOf('unknown')).toEqual(['Ticket'])
  })

  it('reads a table without namespace as the model stored under its name', () => {
    const ast = { kind: 'insert', table: { name: 'orders' } }
    expect(tags(ast)).toEqual(['Order'])
  })

  it('names a row keyed by a DateTime by the text its item IRI writes', () => {
    // PostgreSQL's text of a timestamp, as Prisma 8's driver returns it, with and without a zone.
    const rows = [{ takenAt: '2024-01-31 12:00:00.5+00' }, { takenAt: '2024-02-01 08:30:00' }]
    expect(snapshotTags(rows)).toEqual([
      '/snapshots/2024-01-31T12:00:00.500Z',
      '/snapshots/2024-02-01T08:30:00.000Z',
      'Snapshot',
    ])
  })

  it("purges a DateTime key no Date holds by its model's rows tag", () => {
    // The one row's values are known: the pages of snapshots are purged by `Snapshot:any`. No
    // page is tagged by a DateTime, whose text the row holds: it has no value tag.
    expect(snapshotTags([{ takenAt: 'infinity' }], new Set())).toEqual([
      'Snapshot:any',
      'Snapshot:rows',
    ])
    // A resource naming no tagged fields (no compiled description): its model tag.
    expect(snapshotTags([{ takenAt: 'infinity' }])).toEqual(['Snapshot', 'Snapshot:rows'])
  })

  it('purges nothing of a table no model is stored in', () => {
    expect(statementTags(models, served, { kind: 'insert', table: { name: 'audit' } }, [])).toBe(
      undefined
    )
  })
})
