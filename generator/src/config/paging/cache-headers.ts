/**
 * @module
 * `cacheHeaders` (docs/annotations.md#http-caching): the `Cache-Control` of a resource's items and
 * collections, API Platform's `cache_headers` in this project's spelling. Written on
 * `@resource(...)` (items and every collection of the model), on `@operation(...)` (that
 * collection) or in the platform file (`platform.defaults.cache_headers`, snake_case keys);
 * operation > resource > global, each level replacing the whole setting; `null` turns an inherited
 * one off. Checked here, emitted as the header's text.
 */
import type { AnnotationValue } from '../../annotations/parse.js'
import { didYouMean, type Report, show } from '../../problems.js'

/** The seconds a directive may hold: up to a year (RFC 9111 caches need no more). */
export const CACHE_SECONDS = { min: 0, max: 31_536_000 }

/** Each key: its platform-file name, its directive and what it takes. */
export const cacheHeaderKeys = {
  maxAge: { globalKey: 'max_age', directive: 'max-age', kind: 'seconds' },
  sharedMaxAge: { globalKey: 'shared_max_age', directive: 's-maxage', kind: 'seconds' },
  staleWhileRevalidate: {
    globalKey: 'stale_while_revalidate',
    directive: 'stale-while-revalidate',
    kind: 'seconds',
  },
  staleIfError: { globalKey: 'stale_if_error', directive: 'stale-if-error', kind: 'seconds' },
  mustRevalidate: { globalKey: 'must_revalidate', directive: 'must-revalidate', kind: 'flag' },
  public: { globalKey: 'public', directive: 'public', kind: 'flag' },
} as const

/**
 * A key of the `cacheHeaders` setting.
 *
 * @useDeclaredType
 */
export type CacheHeaderKey = keyof typeof cacheHeaderKeys
/**
 * The `cacheHeaders` setting (docs/annotations.md#http-caching): each key one directive of
 * `Cache-Control`.
 *
 * @interface
 * @property maxAge - `max-age`, in seconds.
 * @property sharedMaxAge - `s-maxage`, in seconds: shared caches' `max-age`.
 * @property staleWhileRevalidate - `stale-while-revalidate`, in seconds.
 * @property staleIfError - `stale-if-error`, in seconds.
 * @property mustRevalidate - `must-revalidate` when true.
 * @property public - `public` when true, `private` when false.
 */
export type CacheHeaders = { [K in CacheHeaderKey]?: number | boolean | undefined }

const KEYS = Object.keys(cacheHeaderKeys) as CacheHeaderKey[]
const SECONDS_ALLOWED = `a whole number of seconds from ${CACHE_SECONDS.min} to ${CACHE_SECONDS.max}`
export const CACHE_HEADERS_ALLOWED = `an object of ${KEYS.join(', ')} (e.g. { maxAge: 60, public: true }), or null for none`

/** What a key's value must be, in a message. */
export function cacheHeaderAllowed(key: CacheHeaderKey): string {
  return cacheHeaderKeys[key].kind === 'seconds' ? SECONDS_ALLOWED : 'true or false'
}

/** Whether `value` is what `key` takes. */
export function isCacheHeaderValue(key: CacheHeaderKey, value: unknown): value is number | boolean {
  if (cacheHeaderKeys[key].kind === 'flag') return typeof value === 'boolean'
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= CACHE_SECONDS.min &&
    value <= CACHE_SECONDS.max
  )
}

/**
 * A setting that contradicts itself, or undefined: `s-maxage` addresses shared caches, which
 * `public: false` (`private`) forbids to store the response.
 */
export function cacheHeadersConflict(headers: CacheHeaders): string | undefined {
  if (headers.public === false && headers.sharedMaxAge !== undefined)
    return 'sharedMaxAge addresses shared caches, which public: false (private) keeps from storing the response; drop one of them'
  return undefined
}

/**
 * Reads `cacheHeaders` of an annotation: the setting, `null` (none, overriding an inherited one),
 * or undefined when it is not written or is wrong (reported).
 */
export function readCacheHeaders(
  value: AnnotationValue | undefined,
  source: string,
  report: Report
): CacheHeaders | null | undefined {
  if (value === undefined || value === null) return value
  const option = 'cacheHeaders'
  if (typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0) {
    report({ source, option, message: `must be ${CACHE_HEADERS_ALLOWED}, got ${show(value)}` })
    return undefined
  }
  const headers: CacheHeaders = {}
  let valid = true
  for (const [key, entry] of Object.entries(value)) {
    if (!Object.hasOwn(cacheHeaderKeys, key)) {
      report({
        source,
        option: `cacheHeaders.${key}`,
        message: `unknown key.${didYouMean(key, KEYS)} Allowed: ${KEYS.join(', ')}`,
      })
      valid = false
      continue
    }
    const known = key as CacheHeaderKey
    if (!isCacheHeaderValue(known, entry)) {
      report({
        source,
        option: `cacheHeaders.${key}`,
        message: `must be ${cacheHeaderAllowed(known)}, got ${show(entry)}`,
      })
      valid = false
      continue
    }
    headers[known] = entry
  }
  const conflict = cacheHeadersConflict(headers)
  if (conflict) {
    report({ source, option, message: conflict })
    valid = false
  }
  return valid ? headers : undefined
}

/** The `Cache-Control` text of a setting: `public`/`private` first, then the durations. */
export function cacheControlText(headers: CacheHeaders | null | undefined): string | undefined {
  if (!headers) return undefined
  const directives: string[] = []
  if (headers.public !== undefined) directives.push(headers.public ? 'public' : 'private')
  for (const key of KEYS) {
    const { directive, kind } = cacheHeaderKeys[key]
    const value = headers[key]
    if (key === 'public' || value === undefined || value === false) continue
    directives.push(kind === 'seconds' ? `${directive}=${value}` : directive)
  }
  return directives.length > 0 ? directives.join(', ') : undefined
}
