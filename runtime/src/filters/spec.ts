/**
 * @module
 * What a request asks for once its filter and order parameters are read, and the bounds on them.
 */
import type { OrderEntry } from '../contract/order.js'
import type {
  DateNulls,
  DateOperator,
  RangeOperator,
  SearchStrategy,
  Through,
} from '../contract/query.js'

export const defaultFilterParameterNames: { readonly order: string; readonly exists: string } = {
  order: 'order',
  exists: 'exists',
}

/** Bounds on what one request may ask for (docs/filters.md, "Strict values"). */
export const FILTER_LIMITS = { values: 100, orderFields: 10, valueLength: 1000 } as const

/** One condition a request asks for, its value read as the field's type. */
export type FilterCondition = (
  | {
      kind: 'search'
      field: string
      strategy: SearchStrategy
      /** Strings, numbers, bigints, booleans, Dates, or related ids, as the field's type. */
      values: unknown[]
      /** Set for a relation: the condition is on this foreign key. */
      foreignKey?: string | undefined
      /**
       * Set for a relation to a composite key: `values` are the related items' keys
       * (`{ orderId: 3, productId: 7 }`), matched on these foreign keys of this model (by key
       * field), or, without them, through the relation.
       */
      composite?: { foreignKeys?: Readonly<Record<string, string>> | undefined } | undefined
    }
  | { kind: 'range'; field: string; operator: Exclude<RangeOperator, 'between'>; value: unknown }
  | { kind: 'range'; field: string; operator: 'between'; value: [unknown, unknown] }
  | {
      kind: 'date'
      field: string
      operator: DateOperator
      value: Date
      nulls?: DateNulls | undefined
    }
  | { kind: 'boolean'; field: string; value: boolean }
  | { kind: 'numeric'; field: string; values: unknown[] }
  | {
      kind: 'exists'
      field: string
      value: boolean
      relation?: boolean | undefined
      json?: boolean | undefined
    }
) &
  Through

/** What a request asks for besides paging: its conditions (AND) and the client's order. */
export interface CollectionQuery {
  filters: FilterCondition[]
  /** The client's order, the primary key last; empty when the request gives none. */
  order: OrderEntry[]
}
