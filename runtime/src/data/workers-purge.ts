/**
 * @module
 * A `purge` of hydraInvalidation (data/prisma7/purge-extension.ts) for answers the Workers cache adapter
 * keeps in a Cloudflare Cache API cache (hono/response/workers-cache.ts): it marks the model tags
 * purged now (data/edge-cache-marks.ts), which makes every answer stored before it stale.
 */

import { tagModel } from '../contract/cache-tags.js'
import { defaultEdgeCache, type EdgeCache, markPurged, requestWork } from './edge-cache-marks.js'
import type { PurgeTags } from './prisma7/purge-extension.js'

/** Options of {@link workersCachePurge}. */
export interface WorkersCachePurgeOptions {
  /**
   * The cache the answers are kept in, the same as `workersCache`'s (default `caches.default`):
   * a cache, or a function giving it (`() => caches.open('api')`).
   */
  cache?: EdgeCache | (() => EdgeCache | Promise<EdgeCache>) | undefined
}

/** The cache `option` names, `caches.default` when it names none. */
export async function edgeCacheOf(option: WorkersCachePurgeOptions['cache']): Promise<EdgeCache> {
  if (option === undefined) return defaultEdgeCache()
  return typeof option === 'function' ? option() : option
}

/**
 * Purges the answers `workersCache` keeps in a Worker's Cache API cache: each model tag (`Book`)
 * is marked purged now, and every answer showing that model stored before it is no longer served.
 * IRI tags (`/books/3`) purge nothing here. Inside a request `workersCache` serves, the Worker's
 * `waitUntil` keeps it running until the purge is done.
 *
 * @example
 * ```ts
 * import { hydraInvalidation, workersCachePurge } from '@prisma-hydra/runtime/invalidation'
 *
 * const writes = prisma.$extends(hydraInvalidation({ purge: workersCachePurge() }))
 * ```
 */
export function workersCachePurge(options: WorkersCachePurgeOptions = {}): PurgeTags {
  return (tags) => {
    // Marks are by model: a field tag (`Book.title`) marks its model, as every write of it did.
    const models = [
      ...new Set(tags.map(tagModel).filter((tag): tag is string => tag !== undefined)),
    ]
    const work = edgeCacheOf(options.cache).then((cache) => markPurged(cache, models, Date.now()))
    requestWork.getStore()?.push(work)
    return work
  }
}
