/**
 * @module
 * The cache hint of a result read from one HTTP answer of the API: how long a client may reuse
 * it (`ttlMs`) and whether it may hand it to another caller (`cacheScope`), from the answer's
 * `Cache-Control` and `Vary`, the rules HTTP caches read (docs/hydra.md#http-caching). MCP's
 * 2026-07-28 revision gives the results it makes cacheable (`resources/read`) fields of their own
 * for it, which the SDK writes for that revision's clients; every result, those of tool calls and
 * of the 2025 revisions included, also carries it in its `_meta`, under `CACHE_HINT_KEY`.
 */

import { CALLER_HEADERS } from '../data/caller-view.js'
import type { ApiDescription } from '../hydra/documentation.js'

/** The `_meta` key of a result's cache hint. */
const CACHE_HINT_KEY = 'prisma-hydra/cache'

/** A result's cache hint. */
export interface CacheHint {
  /** How many milliseconds a client may reuse the result without asking again; 0: none. */
  ttlMs: number
  /** `private`: the caller's alone; `public`: the same for every caller. */
  cacheScope: 'public' | 'private'
}

/** Request headers a `Vary` may name that do not tell one caller from another. */
const NOT_THE_CALLER = new Set(['accept', 'accept-encoding', 'accept-language', 'prefer'])

/**
 * `Origin` is the page a browser's request comes from, which CORS answers with its own headers:
 * it names no caller, unless the app knows its callers by it (`authentication.vary`).
 */
const ORIGIN = 'origin'

/** The request headers the app knows its callers by: `authentication.vary`, or its default. */
export const callersOf = (description: ApiDescription): readonly string[] =>
  description.authentication?.vary ?? CALLER_HEADERS

/** The seconds of a `Cache-Control` directive (`max-age=30`), if it is there. */
function seconds(directives: Map<string, string | undefined>, name: string): number | undefined {
  const value = directives.get(name)
  if (value === undefined || !/^[0-9]+$/.test(value)) return undefined
  return Number(value)
}

/**
 * The cache hint of `response`: `private` where its `Cache-Control` says so or its `Vary` names
 * a header the caller is known by (an answer every anonymous caller shares is not every
 * caller's), `callers` the app's (callersOf); reused for its `max-age` (`s-maxage` first, for a
 * public one), never where it is `no-store` or `no-cache` or says no age.
 */
export function cacheHintOf(response: Response, callers: readonly string[]): CacheHint {
  const directives = new Map<string, string | undefined>()
  for (const directive of (response.headers.get('Cache-Control') ?? '').split(',')) {
    const [name, value] = directive.trim().split('=', 2) as [string, string | undefined]
    if (name !== '') directives.set(name.toLowerCase(), value?.replace(/^"|"$/g, ''))
  }
  const vary = (response.headers.get('Vary') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '')
  const originNamesCaller = callers.some((name) => name.toLowerCase() === ORIGIN)
  const byCaller = vary.some(
    (name) => name === '*' || !(NOT_THE_CALLER.has(name) || (name === ORIGIN && !originNamesCaller))
  )
  const cacheScope = directives.has('private') || byCaller ? 'private' : 'public'
  if (directives.has('no-store') || directives.has('no-cache')) return { ttlMs: 0, cacheScope }
  const age =
    (cacheScope === 'public' ? seconds(directives, 's-maxage') : undefined) ??
    seconds(directives, 'max-age') ??
    0
  return { ttlMs: age * 1000, cacheScope }
}

/** `result` with the cache hint of `response` in its `_meta` (`callers`: cacheHintOf's). */
export function withCacheHint<T extends Record<string, unknown>>(
  result: T,
  response: Response,
  callers: readonly string[]
): T {
  const meta = (result._meta ?? {}) as Record<string, unknown>
  return { ...result, _meta: { ...meta, [CACHE_HINT_KEY]: cacheHintOf(response, callers) } }
}
