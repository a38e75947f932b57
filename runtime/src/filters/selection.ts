/**
 * What one request selects from a collection operation: its filters as the plan's condition
 * (plan/condition.ts), the client's order, and the keyset key the order gives (cursor pages and
 * unpaged batches walk it). docs/filters.md, "Every paging mode" and "Cursor paging".
 */

import type { CollectionOperation } from '../contract/operations.js'
import type { CursorKey, OrderField } from '../contract/order.js'
import { DATE_OPERATORS, type OrderFieldSpec } from '../contract/query.js'
import { dialectOf, KEYSET_TYPES } from '../database/dialects.js'
import type { QueryMap } from '../iri/query-string.js'
import type { Condition } from '../plan/condition.js'
import { filterCondition, type RelationScope } from './filter-conditions.js'
import { keyOf } from './id-order.js'
import { type PropertySelection, readProperties } from './properties.js'
import { readCollectionQuery } from './read.js'
import type { CollectionQuery } from './spec.js'

/** Where rows come from for one request, as its plan holds it; `order` absent: the operation's. */
export interface PlannedRows {
  /** The rows' condition: the request's filters (the caller's scope joins them when read). */
  condition?: Condition | undefined
  /** The client's order, its tie-breaker included. */
  order?: readonly OrderField[] | undefined
  /** The properties the request selects and the relations it embeds; absent: every property. */
  properties?: PropertySelection | undefined
  /** The model's columns the rows need not hold (hydra/member-shape.ts); absent: none. */
  omitted?: ReadonlySet<string> | undefined
}

export interface Selection {
  query: CollectionQuery
  rows: PlannedRows
  /** Cursor-paged operations: the key of this request's order. */
  cursor?: readonly CursorKey[] | undefined
  /** The operators filters read on fields that are also key fields (a date filter's `[after]`). */
  filterOperators?: ReadonlyMap<string, readonly string[]> | undefined
  /** Offset-paged operations: the order as a keyset key when every field can be compared. */
  orderKey?: readonly CursorKey[] | undefined
}

/**
 * Reads a request's filters and order (a 400 on a malformed one) and what they select; conditions
 * through a relation match the related rows within `scopeOf` it (docs/security.md).
 */
export function selectRows(
  query: QueryMap,
  operation: Pick<CollectionOperation<unknown>, 'paging' | 'query' | 'orderKey'>,
  base: string,
  database?: string | undefined,
  /** Whether the rows are read by the data-access layer (not a custom provider): see ReadQueryOptions. */
  literalSearch = false,
  scopeOf?: RelationScope | undefined
): Selection {
  const { paging, query: spec } = operation
  if (!spec) {
    return {
      query: { filters: [], order: [] },
      rows: {},
      cursor: paging.cursor,
      orderKey: operation.orderKey,
    }
  }
  const cursorFields = paging.cursor
    ? new Set([
        ...paging.cursor.map((key) => key.field),
        ...spec.order.map((entry) => entry.field),
        ...keyOf(spec).map((field) => field.field),
      ])
    : undefined
  const parsed = readCollectionQuery(query, spec, {
    base,
    cursorFields,
    database,
    literalSearch,
  })
  const condition = filterCondition(parsed.filters, {
    // Where Prisma's LIKE has no escape character (SQLite), the data-access layer's patterns escape
    // with a backslash all the same: it reads those holding one with compiled SQL that names it
    // (`ESCAPE '\'`, data/engines.ts); a custom provider's values hold none (refused when read).
    likeEscape: literalSearch && spec.likeEscape === 'none' ? 'backslash' : spec.likeEscape,
    caseless:
      (database === undefined ? undefined : dialectOf(database).caseless) ??
      (spec.likeEscape === 'none' ? 'like' : 'mode'),
    scopeOf,
  })
  const rows: PlannedRows = condition ? { condition } : {}
  const properties = readProperties(query, spec.properties)
  if (properties) rows.properties = properties
  const filterOperators = new Map(
    spec.filters.flatMap((filter) =>
      filter.kind === 'date' ? [[filter.field, DATE_OPERATORS] as const] : []
    )
  )
  if (parsed.order.length === 0) {
    return {
      query: parsed,
      rows,
      cursor: paging.cursor,
      filterOperators,
      orderKey: operation.orderKey,
    }
  }
  rows.order = parsed.order
  const key = keyOf(spec)
  const fields = parsed.order.map(
    ({ field }) =>
      key.find((entry) => entry.field === field) ??
      (spec.order.find((entry) => entry.field === field) as OrderFieldSpec)
  )
  const cursorKey = parsed.order.map(({ field, direction }, index): CursorKey => {
    const { type, uuid } = fields[index] as OrderFieldSpec
    return { field, direction, type, ...(uuid ? { uuid: true } : {}) }
  })
  // The generator lets cursor operations order only by required, comparable fields.
  if (paging.cursor) return { query: parsed, rows, cursor: cursorKey, filterOperators }
  // A field through a relation is not on the row: unpaged batches then go by offset.
  const comparable = fields.every(
    (field) => !field.nullable && !field.through && KEYSET_TYPES.has(field.type)
  )
  return { query: parsed, rows, orderKey: comparable ? cursorKey : undefined }
}
