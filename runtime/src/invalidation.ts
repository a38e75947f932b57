/**
 * @module @prisma-hydra/runtime/invalidation
 * Purge on write (docs/caching.md): `hydraInvalidation`, the Prisma client extension purging the
 * answers a write changes from the app's shared caches after commit, and `httpPurge`, its purge
 * over HTTP (Varnish with xkey, Fastly, an endpoint of the app's).
 */
export { type HttpPurgeOptions, httpPurge } from './data/http-purge.js'
export {
  hydraInvalidation,
  type InvalidationOptions,
  type PurgeTags,
} from './data/purge-extension.js'
