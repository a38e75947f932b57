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

/** The built-in names of the order and exists parameters, as API Platform's. */
export const defaultFilterParameterNames: {
  /** `order`. */
  readonly order: string
  /** `exists`. */
  readonly exists: string
} = {
  order: 'order',
  exists: 'exists',
}

/** Bounds on what one request may ask for (docs/filters.md, "Strict values"). */
export const FILTER_LIMITS = { values: 100, orderFields: 10, valueLength: 1000 } as const

/** One condition a request asks for, its value read as the field's type. */
export type FilterCondition = (
  | {
      /** SearchFilter. */
      kind: 'search'
      /** The field, as the parameter names it. */
      field: string
      /** How a value matches. */
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
      composite?:
        | {
            /** This model's foreign key of each key field. */
            foreignKeys?: Readonly<Record<string, string>> | undefined
          }
        | undefined
    }
  | {
      /** RangeFilter, but `between`. */
      kind: 'range'
      /** The field. */
      field: string
      /** The comparison. */
      operator: Exclude<RangeOperator, 'between'>
      /** The value compared with, as the field's type. */
      value: unknown
    }
  | {
      /** RangeFilter's `between`. */
      kind: 'range'
      /** The field. */
      field: string
      /** `between`. */
      operator: 'between'
      /** The lowest and the highest value, both included. */
      value: [unknown, unknown]
    }
  | {
      /** DateFilter. */
      kind: 'date'
      /** The date field. */
      field: string
      /** The comparison. */
      operator: DateOperator
      /** The date compared with. */
      value: Date
      /** API Platform's null handling; absent: a null date never matches. */
      nulls?: DateNulls | undefined
    }
  | {
      /** BooleanFilter. */
      kind: 'boolean'
      /** The boolean field. */
      field: string
      /** The value asked for. */
      value: boolean
    }
  | {
      /** NumericFilter. */
      kind: 'numeric'
      /** The number field. */
      field: string
      /** The values asked for, any of which matches. */
      values: unknown[]
    }
  | {
      /** ExistsFilter. */
      kind: 'exists'
      /** The optional field or relation. */
      field: string
      /** Whether it must have a value (true) or must not (false). */
      value: boolean
      /** The field is an optional to-one relation. */
      relation?: boolean | undefined
      /** The field is a `Json` field. */
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
