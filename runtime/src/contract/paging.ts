/**
 * @module
 * The paging settings of a collection operation, resolved at generate time, and how its full
 * paging counts.
 */
import type { CursorKey } from './order.js'

/** The query parameter names (docs/paging.md#parameters), after renaming by configuration. */
export interface ParameterNames {
  page: string
  enabled: string
  itemsPerPage: string
  partial: string
}

/** The built-in names of the paging parameters. */
export const defaultParameterNames: ParameterNames = {
  page: 'page',
  enabled: 'pagination',
  itemsPerPage: 'itemsPerPage',
  partial: 'partial',
}

/**
 * The paging settings of one collection operation, resolved at generation time
 * (docs/annotations.md#options-at-every-level).
 */
export interface PagingConfig {
  enabled: boolean
  clientEnabled: boolean
  itemsPerPage: number
  clientItemsPerPage: boolean
  /** `null`: no maximum. Applies only when clients may set the page size (as in the reference). */
  maximumItemsPerPage: number | null
  partial: boolean
  clientPartial: boolean
  parameters: ParameterNames
  /**
   * Cursor paging (docs/paging.md#d4): the key of the collection's order, unique together.
   * Overrides offsets.
   */
  cursor?: readonly CursorKey[]
}

/**
 * How full paging counts (docs/paging.md, "Totals"): an exact count with the page (the default),
 * PostgreSQL's planner estimate, or an exact count reused for `seconds`.
 */
export type TotalsSetting =
  | { mode: 'exact' }
  | { mode: 'estimated' }
  | { mode: 'cached'; seconds: number }
