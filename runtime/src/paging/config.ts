import {
  defaultParameterNames,
  type PagingConfig,
  type ParameterNames,
} from '../contract/paging.js'

/**
 * The built-in defaults, with the reference's maximum of 30
 * (docs/annotations.md#options-at-every-level).
 */
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

/** Paging settings of a custom collection: the built-in defaults for whatever is left out. */
export type CustomPagingOptions = {
  [K in keyof Omit<PagingConfig, 'cursor' | 'parameters' | 'clientTotals'>]?:
    | PagingConfig[K]
    | undefined
} & {
  /**
   * The names of the paging parameters, each defaulting to the built-in one (`page`, `pagination`,
   * `itemsPerPage`, `partial`).
   */
  parameters?: { [K in keyof ParameterNames]?: string | undefined } | undefined
}

/**
 * The paging settings of a custom collection: the given ones over the built-in defaults, checked
 * (a TypeError naming `who` and the option when one is invalid).
 */
export function customPaging(options: CustomPagingOptions = {}, who = 'paging'): PagingConfig {
  const { parameters, ...settings } = options
  const config: PagingConfig = {
    ...defaultPagingConfig,
    parameters: { ...defaultPagingConfig.parameters },
  }
  for (const [key, value] of Object.entries(settings)) {
    if (value !== undefined) Object.assign(config, { [key]: value })
  }
  for (const [key, value] of Object.entries(parameters ?? {})) {
    if (value !== undefined) Object.assign(config.parameters, { [key]: value })
  }
  checkPaging(config, who)
  return config
}

/** A custom collection's settings are checked when it is defined, not on its first request. */
function checkPaging(config: PagingConfig, who: string): void {
  const problems: string[] = []
  if (!Number.isSafeInteger(config.itemsPerPage) || config.itemsPerPage < 0) {
    problems.push(`itemsPerPage must be an integer of at least 0, ${config.itemsPerPage} given`)
  }
  const maximum = config.maximumItemsPerPage
  if (maximum !== null && (!Number.isSafeInteger(maximum) || maximum < 1)) {
    problems.push(`maximumItemsPerPage must be a positive integer or null, ${maximum} given`)
  }
  const names = Object.values(config.parameters)
  if (names.some((name) => typeof name !== 'string' || name.trim() === '')) {
    problems.push('parameter names must be non-empty strings')
  } else if (new Set(names).size !== names.length) {
    problems.push(`parameter names must be distinct, ${names.join(', ')} given`)
  }
  if (problems.length > 0) {
    throw new TypeError(`${who}: invalid paging options: ${problems.join('; ')}.`)
  }
}
