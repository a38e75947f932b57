/**
 * @module
 * A shared cache for an app on Cloudflare Workers (docs/caching.md#cloudflare-workers): a Hono
 * middleware keeping, in the Worker's Cache API cache, the answers the runtime marks shareable
 * (`s-maxage`, or `public` with `max-age`) to anonymous GET requests, and answering later
 * anonymous requests with them while they are fresh. Requests with credentials never read or fill
 * it. The Cache API keys on the URL alone and has no purge by tag, so the middleware does both
 * itself: an answer is served only to a request whose headers it varies by (`Vary`) are the
 * stored ones, and while no purge of its model tags (data/edge-cache-marks.ts) came after the
 * request it answered began.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AuthenticationSettings } from '../../contract/access-rules.js'
import { type CacheTagHeader, tagModel } from '../../contract/cache-tags.js'
import { CALLER_HEADERS } from '../../data/caller-view.js'
import {
  CLOCK_SKEW_MS,
  type EdgeCache,
  purgedAt,
  requestWork,
} from '../../data/edge-cache-marks.js'
import { edgeCacheOf, type WorkersCachePurgeOptions } from '../../data/workers-purge.js'
import { isAnonymous } from '../access/request-caller.js'
import { isTextSearch } from '../request/text-search.js'

/** Options of {@link workersCache}. */
export interface WorkersCacheOptions {
  /** The cache answers are kept in (default `caches.default`), as `workersCachePurge` names it. */
  cache?: WorkersCachePurgeOptions['cache']
  /** The app's `authentication` (createHydraApp's): which requests carry credentials. */
  authentication?: AuthenticationSettings | undefined
  /** The app's cache tag header (createHydraApp's `cacheTags.header`, default `Cache-Tag`). */
  tagHeader?: CacheTagHeader | undefined
  /** The header telling `HIT`, `MISS` or `BYPASS` (default `X-Cache`); `false`: none. */
  statusHeader?: string | false | undefined
}

/** Headers of a stored answer that only the middleware reads: when and for what it was kept. */
const STORED_AT = 'x-prisma-hydra-stored-at'
const EXPIRES_AT = 'x-prisma-hydra-expires-at'
const MODELS = 'x-prisma-hydra-models'
const VARIED = 'x-prisma-hydra-varied'
const CACHE_CONTROL = 'x-prisma-hydra-cache-control'
const OWN = [STORED_AT, EXPIRES_AT, MODELS, VARIED, CACHE_CONTROL]

/** A `Cache-Control` header's directives, by lower-case name. */
function directives(header: string | null): Map<string, string> {
  const out = new Map<string, string>()
  for (const part of (header ?? '').split(',')) {
    const [name, value = ''] = part.trim().split('=', 2)
    if (name) out.set(name.toLowerCase(), value.replace(/^"|"$/g, ''))
  }
  return out
}

/**
 * For how many seconds a shared cache may keep `response` as the runtime marked it: its
 * `s-maxage`, or its `max-age` when `public`; 0 when it may not keep it.
 */
function sharedSeconds(response: Response): number {
  if (response.status === 206 || response.status === 304) return 0
  if (response.headers.has('set-cookie') || response.headers.get('vary')?.includes('*')) return 0
  const cc = directives(response.headers.get('cache-control'))
  if (cc.has('private') || cc.has('no-store') || cc.has('no-cache')) return 0
  const seconds = Number(cc.get('s-maxage') ?? (cc.has('public') ? cc.get('max-age') : undefined))
  return Number.isInteger(seconds) && seconds > 0 ? seconds : 0
}

/**
 * The request headers an answer varies by, with the request's values, less the credentials'
 * headers: only anonymous requests read or fill the cache.
 */
function variedValues(response: Response, request: Request, credentials: Set<string>): string {
  const names = (response.headers.get('vary') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && !credentials.has(name))
    .sort()
  return JSON.stringify(names.map((name) => [name, request.headers.get(name)]))
}

/** Whether the stored `varied` values are `request`'s. */
function sameVaried(varied: string, request: Request): boolean {
  const pairs = JSON.parse(varied) as [string, string | null][]
  return pairs.every(([name, value]) => request.headers.get(name) === value)
}

/** The key of a request's answer: its URL, without the request's own headers. */
const keyOf = (request: Request) => new Request(request.url, { method: 'GET' })

/** The stored answer to `request` if it is fresh, varies alike and no purge came after it. */
async function lookup(cache: EdgeCache, request: Request, now: number) {
  const stored = await cache.match(keyOf(request))
  if (!stored) return undefined
  const storedAt = Number(stored.headers.get(STORED_AT))
  const fresh = now < Number(stored.headers.get(EXPIRES_AT))
  if (!(fresh && sameVaried(stored.headers.get(VARIED) ?? '[]', request))) {
    await stored.body?.cancel()
    return undefined
  }
  const models = (stored.headers.get(MODELS) ?? '').split(' ').filter(Boolean)
  const purges = await Promise.all(models.map((model) => purgedAt(cache, model)))
  if (purges.some((time) => time >= storedAt - CLOCK_SKEW_MS)) {
    await stored.body?.cancel()
    return undefined
  }
  return { stored, age: Math.max(0, Math.floor((now - storedAt) / 1000)) }
}

/** The copy of `response` the cache keeps: expiring after `seconds`, with what lookup reads. */
function storedCopy(
  response: Response,
  request: Request,
  startedAt: number,
  seconds: number,
  tagHeader: string,
  credentials: Set<string>
): Response {
  const headers = new Headers(response.headers)
  const separator = tagHeader.toLowerCase() === 'cache-tag' ? ',' : ' '
  const tags = (headers.get(tagHeader) ?? '').split(separator).map((tag) => tag.trim())
  headers.set(STORED_AT, String(startedAt))
  headers.set(EXPIRES_AT, String(startedAt + seconds * 1000))
  headers.set(MODELS, storedModels(tags).join(' '))
  headers.set(VARIED, variedValues(response, request, credentials))
  headers.set(CACHE_CONTROL, headers.get('cache-control') ?? '')
  // The Cache API reads how long to keep it from its own Cache-Control.
  headers.set('cache-control', `public, max-age=${seconds}`)
  return new Response(response.body, { status: response.status, headers })
}

/**
 * The model tags an answer is stored with: its model tags, each rows or field tag as its model's
 * (`Book:rows` and `Book.title` as `Book`), since marks are by model and every write of a model
 * marks its tag.
 */
function storedModels(tags: readonly string[]): string[] {
  const models = tags.map(tagModel)
  return [...new Set(models.filter((tag): tag is string => tag !== undefined && tag !== ''))]
}

/** `response` as a client receives it: the middleware's headers out, its status in. */
function delivered(
  response: Response,
  status: string,
  options: WorkersCacheOptions,
  age?: number
): Response {
  const headers = new Headers(response.headers)
  const cacheControl = headers.get(CACHE_CONTROL)
  if (cacheControl !== null)
    if (cacheControl === '') headers.delete('cache-control')
    else headers.set('cache-control', cacheControl)
  for (const name of OWN) headers.delete(name)
  // Tags are for caches only, as Cloudflare's own cache strips them.
  headers.delete(options.tagHeader ?? 'Cache-Tag')
  if (age !== undefined) headers.set('age', String(age))
  if (options.statusHeader !== false) headers.set(options.statusHeader ?? 'X-Cache', status)
  return new Response(response.body, { status: response.status, headers })
}

/** The Worker's execution context, or none outside Workers. */
function waitUntilOf(c: Context): ((work: Promise<unknown>) => void) | undefined {
  try {
    const context = c.executionCtx
    return (work) => context.waitUntil(work)
  } catch {
    return undefined
  }
}

/**
 * A shared cache for a Cloudflare Worker in its Cache API (`caches.default`): answers the runtime
 * marks shareable (`s-maxage`, or `public` with `max-age`) to anonymous GET requests are kept
 * and given to later anonymous requests while fresh and unpurged; requests with credentials (the
 * `authentication` settings' headers and session cookies) never read or fill it. Pair it with
 * `hydraInvalidation({ purge: workersCachePurge() })` and `cacheTags`, so that writes purge it.
 * Answers carry `X-Cache: HIT`, `MISS` or `BYPASS`, and `Age` when from the cache.
 *
 * @example
 * ```ts
 * import { workersCache } from '@prisma-hydra/runtime/invalidation'
 *
 * const app = new Hono()
 *   .use(workersCache())
 *   .route('/', createHydraApp({ prisma, cacheTags: {} }))
 * ```
 */
export function workersCache(options: WorkersCacheOptions = {}): MiddlewareHandler {
  const vary = options.authentication?.vary ?? CALLER_HEADERS
  const credentials = new Set(vary.map((name) => name.toLowerCase()))
  return async (c, next) => {
    const startedAt = Date.now()
    const request = c.req.raw
    // A text search (the MCP endpoint's) has the URL of an HTTP request answered otherwise.
    const cacheable =
      request.method === 'GET' && !isTextSearch(c) && isAnonymous(c, vary, options.authentication)
    const cache = cacheable ? await edgeCacheOf(options.cache) : undefined
    const hit = cache && (await lookup(cache, request, startedAt))
    if (hit) return delivered(hit.stored, 'HIT', options, hit.age)
    const work: Promise<unknown>[] = []
    await requestWork.run(work, next)
    const seconds = cache ? sharedSeconds(c.res) : 0
    if (cache && seconds > 0) {
      const copy = c.res.clone()
      const tagHeader = options.tagHeader ?? 'Cache-Tag'
      const kept = storedCopy(copy, request, startedAt, seconds, tagHeader, credentials)
      work.push(cache.put(keyOf(request), kept))
    }
    const answer = delivered(c.res, cache ? 'MISS' : 'BYPASS', options)
    c.res = undefined
    c.res = answer
    // The purges of the request's writes start once their answer is in (a timer of
    // hydraInvalidation's): the next turn of the timers sees them all.
    const settled = new Promise((resolve) => setTimeout(resolve, 0)).then(() =>
      Promise.allSettled(work)
    )
    waitUntilOf(c)?.(settled)
    return undefined
  }
}
