import { describe, expect, it } from 'vitest'
import type { CursorKey } from '../contract/order.js'
import type { QuerySpec } from '../contract/query.js'
import { parseQuery } from '../iri/query-string.js'
import { defaultPagingConfig } from '../paging/config.js'
import { keepFilterOperators } from '../paging/cursor-links.js'
import { fieldEquals, onField } from '../plan/condition.js'
import { selectRows } from './selection.js'
import { defaultFilterParameterNames } from './spec.js'

const spec: QuerySpec = {
  filters: [
    { kind: 'search', field: 'kind', strategy: 'exact', type: 'String' },
    { kind: 'date', field: 'occurredAt' },
  ],
  order: [
    { field: 'occurredAt', type: 'DateTime' },
    { field: 'note', type: 'String', nullable: true },
  ],
  id: { field: 'id', type: 'Int' },
  parameters: defaultFilterParameterNames,
  likeEscape: 'backslash',
}
const cursor: CursorKey[] = [
  { field: 'occurredAt', direction: 'desc', type: 'DateTime' },
  { field: 'id', direction: 'desc', type: 'Int' },
]
const offsetKey: CursorKey[] = [{ field: 'id', direction: 'asc', type: 'Int' }]
const offset = { paging: defaultPagingConfig, query: spec, orderKey: offsetKey }
const feed = { paging: { ...defaultPagingConfig, cursor }, query: spec }

describe('selectRows', () => {
  it('keeps the operation’s own order and key without a client order', () => {
    const selection = selectRows(parseQuery('kind=loan'), offset, '')
    expect(selection.rows).toEqual({ condition: fieldEquals('kind', 'loan') })
    expect(selection.orderKey).toBe(offsetKey)
    expect(selectRows(parseQuery(''), feed, '').cursor).toBe(cursor)
  })

  it('orders by the client’s order, a keyset only when every field is comparable', () => {
    const byDate = selectRows(parseQuery('order[occurredAt]=asc'), offset, '')
    expect(byDate.rows).toEqual({
      order: [
        { field: 'occurredAt', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ],
    })
    expect(byDate.orderKey).toEqual([
      { field: 'occurredAt', direction: 'asc', type: 'DateTime' },
      { field: 'id', direction: 'asc', type: 'Int' },
    ])
    expect(selectRows(parseQuery('order[note]=asc'), offset, '').orderKey).toBeUndefined()
  })

  it('makes a client order the keyset order of a cursor operation', () => {
    expect(selectRows(parseQuery('order[occurredAt]=asc'), feed, '').cursor).toEqual([
      { field: 'occurredAt', direction: 'asc', type: 'DateTime' },
      { field: 'id', direction: 'asc', type: 'Int' },
    ])
  })

  it('leaves cursor positions of key fields to the cursor, date operators to the filter', () => {
    const selection = selectRows(
      parseQuery('occurredAt[after]=2024-01-01&occurredAt[lt]=2024-06-01&id[lt]=5'),
      feed,
      ''
    )
    expect(selection.rows.condition).toEqual(
      onField('occurredAt', { op: 'gte', value: new Date('2024-01-01Z') })
    )
    expect(selection.filterOperators?.get('occurredAt')).toContain('after')
  })
})

describe('keepFilterOperators', () => {
  it('keeps a date bound of a key field in cursor links, before the position', () => {
    const query = parseQuery('occurredAt[after]=2024-01-01&occurredAt[lt]=2024-06-01&kind=x')
    const page = keepFilterOperators(
      {
        items: [],
        paginated: true,
        self: {},
        next: {
          overrides: [
            ['occurredAt', new Map([['lt', '2024-05-01T00:00:00.000Z']])],
            ['id', new Map([['lt', '7']])],
          ],
        },
      },
      query
    )
    expect(page.next?.overrides).toEqual([
      [
        'occurredAt',
        new Map([
          ['after', '2024-01-01'],
          ['lt', '2024-05-01T00:00:00.000Z'],
        ]),
      ],
      ['id', new Map([['lt', '7']])],
    ])
    expect(page.previous).toBeUndefined()
  })
})
