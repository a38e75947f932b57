/**
 * @module
 * What the Workers cache adapter (hono/response/workers-cache.ts) and its purge
 * (data/workers-purge.ts) share in a Cloudflare Cache API cache (docs/caching.md#cloudflare-workers):
 * the Cache API has no purge by tag and no listing of its keys, so a purge cannot find the answers
 * a tag names. Instead it leaves, for each tag, a mark in the same cache holding when the tag was
 * last purged; an answer is stored with the time its request began and the model tags it shows,
 * and is served only while no mark of its tags is later than that time. Every isolate of a data
 * centre reads the same cache, so a purge from one is seen by the others.
 */

import { AsyncLocalStorage } from 'node:async_hooks'

/** The part of a Cache API cache (`caches.default`, `await caches.open(name)`) the adapter uses. */
export interface EdgeCache {
  /** The stored answer to `request` (by its URL), if any. */
  match(request: Request): Promise<Response | undefined>
  /** Stores `response` as the answer to `request`. */
  put(request: Request, response: Response): Promise<void>
}

/** Where the marks live: a host no request reaches, so that no answer's URL is a mark's. */
const MARKS = 'https://prisma-hydra-purges.invalid/'

/**
 * How long a mark is kept (a year): longer than any answer lives. The cache may still evict it
 * early, like any entry (docs/caching.md, limits).
 */
const MARK_SECONDS = 31_536_000

/**
 * How far the clocks of two machines of a data centre may differ: an answer whose request began
 * less than this before a purge of its tags is taken as older than the purge.
 */
export const CLOCK_SKEW_MS = 1_000

/** The Cache API cache of a Worker: `caches.default`. */
export function defaultEdgeCache(): EdgeCache {
  const storage = (globalThis as { caches?: { default?: EdgeCache } }).caches
  if (!storage?.default)
    throw new Error('caches.default is missing: the Cache API is a Cloudflare Workers one')
  return storage.default
}

const markRequest = (tag: string) => new Request(`${MARKS}${encodeURIComponent(tag)}`)

/** When `tag` was last purged, in ms since the epoch; 0 when no mark of it is stored. */
export async function purgedAt(cache: EdgeCache, tag: string): Promise<number> {
  const mark = await cache.match(markRequest(tag))
  if (!mark) return 0
  const time = Number(await mark.text())
  return Number.isFinite(time) ? time : 0
}

/** Marks `tags` purged at `time` (ms since the epoch). */
export async function markPurged(
  cache: EdgeCache,
  tags: readonly string[],
  time: number
): Promise<void> {
  await Promise.all(
    tags.map((tag) =>
      cache.put(
        markRequest(tag),
        new Response(String(time), {
          headers: { 'Cache-Control': `public, max-age=${MARK_SECONDS}` },
        })
      )
    )
  )
}

/**
 * The work a request leaves behind (its purges), which the adapter hands to the Worker's
 * `waitUntil`: a Worker may stop once its answer left, and its purges would be lost with it.
 */
export const requestWork = new AsyncLocalStorage<Promise<unknown>[]>()
