import type { PagingConfig } from '../contract/paging.js'
import { badRequest } from '../errors.js'
import { getParam, isRepeated, type QueryMap } from '../iri/query-string.js'
import type { PagingRequest } from './types.js'

const TRUE = new Set(['1', 'true', 'on', 'yes'])
const FALSE = new Set(['0', 'false', 'off', 'no'])
const DECIMAL = /^-?[0-9]+$/

/**
 * Reads the paging parameters of a request as docs/paging.md#parameter-parsing says, with the
 * reference's checks and messages, and our stricter parsing: integers must be decimal
 * (docs/paging.md#d1) and booleans one of `1 true on yes` / `0 false off no` (#d2). Throws a 400
 * HydraError on a bad value.
 */
export function readPagingRequest(query: QueryMap, config: PagingConfig): PagingRequest {
  if (!readEnabled(query, config)) return { paged: false }
  const names = config.parameters
  const partial = config.clientPartial
    ? readBoolean(query, names.partial, config.partial)
    : config.partial

  const page = readInteger(query, names.page) ?? 1
  if (page < 1) throw badRequest('Page should not be less than 1')
  const itemsPerPage = readItemsPerPage(query, config)
  if (itemsPerPage === 0 && page > 1) {
    throw badRequest('Page should not be greater than 1 if limit is equal to 0')
  }
  const offset = (page - 1) * itemsPerPage
  if (!Number.isSafeInteger(offset)) throw badRequest('Page parameter is too large.')
  return { paged: true, partial, page, itemsPerPage, offset }
}

/** Whether the request is paged: the configured switch, or the client's when it may choose. */
export function readEnabled(query: QueryMap, config: PagingConfig): boolean {
  return config.clientEnabled
    ? readBoolean(query, config.parameters.enabled, config.enabled)
    : config.enabled
}

/** The page size: the configured one, or the client's (capped by the maximum) when it may choose. */
export function readItemsPerPage(query: QueryMap, config: PagingConfig): number {
  const name = config.parameters.itemsPerPage
  let itemsPerPage = config.itemsPerPage
  if (config.clientItemsPerPage) {
    itemsPerPage = readInteger(query, name) ?? itemsPerPage
    const maximum = config.maximumItemsPerPage
    if (maximum !== null && itemsPerPage > maximum) itemsPerPage = maximum
  }
  if (itemsPerPage < 0) throw badRequest('Limit should not be less than 0')
  if (!Number.isSafeInteger(itemsPerPage)) throw badRequest(`The "${name}" parameter is too large.`)
  return itemsPerPage
}

function single(query: QueryMap, name: string): string | undefined {
  const value = getParam(query, name)
  if ((value === undefined || typeof value === 'string') && !isRepeated(query, name)) return value
  throw badRequest(`The "${name}" parameter must be given once, as a single value.`)
}

function readInteger(query: QueryMap, name: string): number | undefined {
  const raw = single(query, name)
  if (raw === undefined) return undefined
  if (!DECIMAL.test(raw)) {
    throw badRequest(`The "${name}" parameter must be a decimal integer, "${raw}" given.`)
  }
  const value = Number(raw)
  // Too many digits for an exact number: keep the sign, so the range checks still apply.
  if (!Number.isSafeInteger(value)) return raw.startsWith('-') ? -Infinity : Infinity
  return value
}

function readBoolean(query: QueryMap, name: string, fallback: boolean): boolean {
  const raw = single(query, name)
  if (raw === undefined) return fallback
  const value = raw.trim().toLowerCase()
  if (TRUE.has(value)) return true
  if (FALSE.has(value)) return false
  throw badRequest(
    `The "${name}" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "${raw}" given.`
  )
}
