/**
 * `@prisma-hydra/runtime/redis`: `cached` totals shared between instances through Redis
 * (docs/deployment.md#shared-totals). The app brings its own client (the `redis` package,
 * node-redis 5 or later); this entry imports nothing of it, so an app without Redis installs
 * nothing for it.
 *
 * ```ts
 * import { createClient } from 'redis'
 * import { redisCountStore } from '@prisma-hydra/runtime/redis'
 *
 * const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true })
 * await redis.connect()
 * createHydraApp({ prisma, totalsStore: redisCountStore(redis) })
 * ```
 *
 * @module \@prisma-hydra/runtime/redis
 */
import type { CountStore } from './data/shared-totals.js'

export type { CountStore } from './data/shared-totals.js'

/** What the store uses of a node-redis client (`createClient()` of the `redis` package). */
export interface RedisClientLike {
  /** The string at `key`, or null. */
  get(key: string): PromiseLike<unknown>
  /** Sets `key` to `value` for `expiration.value` seconds, if it is not set (`NX`). */
  set(
    key: string,
    value: string,
    options: { expiration: { type: 'EX'; value: number }; condition: 'NX' }
  ): PromiseLike<unknown>
  /** Listens to the client's errors. */
  on(event: 'error', listener: (error: unknown) => void): unknown
}

/** Options of {@link redisCountStore}: CountStore's `prefix`, `timeout` and `retryAfter`. */
export type RedisCountStoreOptions = Pick<CountStore, 'prefix' | 'timeout' | 'retryAfter'>

/**
 * The counts of `cached` totals in Redis: one string key per count (`SET … EX <seconds> NX`: the
 * first instance to count sets it, and it expires with the operation's `totalsCacheSeconds`).
 * The client's `error` events are listened to: node-redis would otherwise end the process when
 * Redis goes away; the outage is logged once by the totals themselves, on the first command that
 * fails. Give the client `disableOfflineQueue: true`, so that commands fail at once while it is
 * disconnected instead of waiting for the store's timeout.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis'
 * import { redisCountStore } from '@prisma-hydra/runtime/redis'
 *
 * const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true })
 * await redis.connect()
 * const app = createHydraApp({ prisma, totalsStore: redisCountStore(redis) })
 * ```
 */
export function redisCountStore(
  client: RedisClientLike,
  options: RedisCountStoreOptions = {}
): CountStore {
  client.on('error', () => {})
  return {
    ...options,
    async get(key) {
      const value = await client.get(key)
      if (value === null || value === undefined) return undefined
      const count = Number(value)
      // Anything else under the key is not a count: counted again (the key is left to expire).
      return Number.isSafeInteger(count) && count >= 0 ? count : undefined
    },
    set(key, value, seconds) {
      return client.set(key, String(value), {
        expiration: { type: 'EX', value: seconds },
        condition: 'NX',
      })
    },
  }
}
