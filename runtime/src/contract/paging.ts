/**
 * @module
 * The paging settings of a collection operation, resolved at generate time, and how its full
 * paging counts.
 */
import type { CursorKey } from './order.js'

/** The query parameter names (docs/paging.md#parameters), after renaming by configuration. */
export interface ParameterNames {
  /** The page number's (default `page`). */
  page: string
  /** The one turning paging on or off (default `pagination`). */
  enabled: string
  /** The page size's (default `itemsPerPage`). */
  itemsPerPage: string
  /** The one asking for a partial page (default `partial`). */
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
  /** Whether collections are paged (`paginationEnabled`). */
  enabled: boolean
  /** Whether clients may turn paging off or on (`paginationClientEnabled`). */
  clientEnabled: boolean
  /** The page size (`paginationItemsPerPage`). */
  itemsPerPage: number
  /** Whether clients may choose the page size (`paginationClientItemsPerPage`). */
  clientItemsPerPage: boolean
  /** `null`: no maximum. Applies only when clients may set the page size (as in the reference). */
  maximumItemsPerPage: number | null
  /** Whether pages are partial: no count, no last page (`paginationPartial`). */
  partial: boolean
  /** Whether clients may ask for partial pages (`paginationClientPartial`). */
  clientPartial: boolean
  /**
   * The totals a client may ask for with `Prefer: count=…` (`paginationClientTotals`,
   * docs/paging.md#client-totals); absent or empty: the preference is ignored.
   */
  clientTotals?: readonly CountPreference[] | undefined
  /** The names of the paging parameters. */
  parameters: ParameterNames
  /**
   * Cursor paging (docs/paging.md#d4): the key of the collection's order, unique together.
   * Overrides offsets.
   */
  cursor?: readonly CursorKey[]
}

/** Every total a client may ask for with `Prefer: count=…`, in the documentation's order. */
export const countPreferences = ['exact', 'estimated', 'planned', 'none'] as const

/**
 * A total a client asks for with `Prefer: count=…` (docs/paging.md#client-totals): an exact
 * count, the database's estimate (`estimated`: exact below a threshold; `planned`: the estimate
 * alone), or none (a partial page).
 */
export type CountPreference = (typeof countPreferences)[number]

/**
 * How full paging counts (docs/paging.md, "Totals"): an exact count with the page (the default),
 * PostgreSQL's planner estimate, or an exact count reused for `seconds`.
 */
export type TotalsSetting =
  | {
      /** An exact count with each page. */
      mode: 'exact'
    }
  | {
      /** PostgreSQL's planner estimate. */
      mode: 'estimated'
    }
  | {
      /** An exact count reused for `seconds`. */
      mode: 'cached'
      /** How long a count is reused. */
      seconds: number
    }
