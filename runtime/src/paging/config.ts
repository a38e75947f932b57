import type { CursorKey } from './cursor.js'

/** The query parameter names of spec 8.3, after renaming by configuration. */
export interface ParameterNames {
  page: string
  enabled: string
  itemsPerPage: string
  partial: string
}

/** The paging settings of one collection operation, resolved at generation time (spec 8.2). */
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
  /** Cursor paging (D4): the key of the collection's order, unique together. Overrides offsets. */
  cursor?: readonly CursorKey[]
}

export const defaultParameterNames: ParameterNames = {
  page: 'page',
  enabled: 'pagination',
  itemsPerPage: 'itemsPerPage',
  partial: 'partial',
}

/** The spec's defaults (8.1), with the reference's maximum of 30. */
export const defaultPagingConfig: PagingConfig = {
  enabled: true,
  clientEnabled: false,
  itemsPerPage: 30,
  clientItemsPerPage: false,
  maximumItemsPerPage: 30,
  partial: false,
  clientPartial: false,
  parameters: defaultParameterNames,
}
