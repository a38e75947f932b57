/**
 * @module @prisma-hydra/runtime/invalidation
 * Purge on write (docs/caching.md): `hydraInvalidation`, the Prisma client extension purging the
 * answers a write changes from the app's shared caches after commit (`hydraPrisma8Invalidation`:
 * the same for a Prisma 8 client, by its middleware), and `httpPurge`, its purge
 * over HTTP (Varnish with xkey, Fastly, an endpoint of the app's); on Cloudflare Workers,
 * `workersCache`, a shared cache in the Worker's Cache API, and `workersCachePurge`, its purge.
 */

export type { EdgeCache } from './data/edge-cache-marks.js'
export { type HttpPurgeOptions, httpPurge } from './data/http-purge.js'
export {
  type HydraInvalidation,
  hydraInvalidation,
  type InvalidationOptions,
  type PurgeTags,
} from './data/prisma7/purge-extension.js'
export {
  hydraPrisma8Invalidation,
  type Prisma8Invalidation,
  type Prisma8InvalidationOptions,
  type PurgeMiddleware,
} from './data/prisma8/purge-middleware.js'
export {
  type WorkersCachePurgeOptions,
  workersCachePurge,
} from './data/workers-purge.js'
export type { RowIris } from './data/written-rows.js'
export { type WorkersCacheOptions, workersCache } from './hono/response/workers-cache.js'
