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
import { createHash } from 'node:crypto'
import { type CountStore, DEFAULT_PREFIX } from './data/shared-totals.js'

export type { CountOrigin, CountStore } from './data/shared-totals.js'

/** The keys and arguments of a Lua script (`EVAL`, `EVALSHA`). */
export interface RedisScriptArguments {
  /** The keys the script reads and writes (`KEYS`). */
  keys: string[]
  /** Its other arguments (`ARGV`). */
  arguments: string[]
}

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
  /** Runs the Lua script Redis holds by its SHA-1 (`EVALSHA`); rejects with `NOSCRIPT` else. */
  evalSha(sha1: string, options: RedisScriptArguments): PromiseLike<unknown>
  /** Runs a Lua script (`EVAL`), which Redis then holds by its SHA-1. */
  eval(script: string, options: RedisScriptArguments): PromiseLike<unknown>
  /** Listens to the client's errors. */
  on(event: 'error', listener: (error: unknown) => void): unknown
}

/** Options of {@link redisCountStore}: CountStore's `prefix`, `timeout` and `retryAfter`. */
export type RedisCountStoreOptions = Pick<CountStore, 'prefix' | 'timeout' | 'retryAfter'>

/**
 * How long a drop is remembered, in milliseconds: a count older than this when it is stored is
 * not stored (a drop of its models may be forgotten by then).
 */
const DROP_MEMORY = 600_000

/**
 * Redis's clock in microseconds (`now`) and milliseconds (`ms`): the one clock every instance's
 * scripts share. Numbers go to Redis through `%.0f`, in full (Lua's own form of them rounds).
 */
const NOW = `local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local ms = math.floor(now / 1000)`

/**
 * Stores a count with the models it read. KEYS: the count's key, then each model's index (a sorted
 * set of the keys of counts reading it, scored by their expiry in ms), then each model's last drop
 * (in µs). ARGV: the count, its seconds, its age (µs). Nothing is stored when one of its models was
 * dropped after the count began (its rows may predate the write), nor over a stored count.
 */
const STORE = `${NOW}
local models = (#KEYS - 1) / 2
local begun = now - tonumber(ARGV[3])
if tonumber(ARGV[3]) >= ${DROP_MEMORY * 1000} then return 0 end
for i = 1, models do
  local dropped = redis.call('GET', KEYS[1 + models + i])
  if dropped and tonumber(dropped) >= begun then return 0 end
end
if not redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2], 'NX') then return 0 end
local lifetime = tonumber(ARGV[2]) * 1000
for i = 1, models do
  local index = KEYS[1 + i]
  redis.call('ZREMRANGEBYSCORE', index, '-inf', string.format('%.0f', ms))
  redis.call('ZADD', index, string.format('%.0f', ms + lifetime), KEYS[1])
  if redis.call('PTTL', index) < lifetime then
    redis.call('PEXPIRE', index, string.format('%.0f', lifetime))
  end
end
return 1`

/**
 * Drops the counts of models. KEYS: each model's index, then each model's last drop. Deletes the
 * counts each index holds and the index, and notes the drop's time for the counts under way.
 */
const DROP = `${NOW}
local models = #KEYS / 2
local dropped = 0
for i = 1, models do
  local counts = redis.call('ZRANGE', KEYS[i], 0, -1)
  for first = 1, #counts, 1000 do
    dropped = dropped + redis.call('DEL', unpack(counts, first, math.min(first + 999, #counts)))
  end
  redis.call('DEL', KEYS[i])
  redis.call('SET', KEYS[models + i], string.format('%.0f', now), 'PX', ${DROP_MEMORY})
end
return dropped`

/** A script run by its SHA-1, sent whole once when Redis does not hold it (after a restart). */
function script(client: RedisClientLike, source: string) {
  const sha1 = createHash('sha1').update(source).digest('hex')
  return async (options: RedisScriptArguments) => {
    try {
      return await client.evalSha(sha1, options)
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error
      return client.eval(source, options)
    }
  }
}

/**
 * The counts of `cached` totals in Redis: one string key per count, read with one `GET`. The first
 * instance to count stores it (`SET … EX <seconds> NX`, in a script that also adds its key to a
 * sorted set of each model it read), and it expires with the operation's `totalsCacheSeconds`,
 * unless a write of one of those models drops it first (`hydraInvalidation({ totals })`: one script
 * deleting the counts each written model's set holds). Keys over generations (a per-model number in
 * every key) would make each drop one `INCR`, but every read would then fetch the generations
 * first: a second round trip, or a script, on every request, where writes are the rarer.
 * The scripts read several keys: one Redis server (with its replicas), not a Redis Cluster.
 *
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
  const prefix = options.prefix ?? DEFAULT_PREFIX
  // `#` is in no client property, so no count's key (prefix, model, operation) is one of these.
  const indexOf = (model: string) => `${prefix}#counts:${model}`
  const dropOf = (model: string) => `${prefix}#dropped:${model}`
  const store = script(client, STORE)
  const drop = script(client, DROP)
  return {
    name: 'Redis',
    ...options,
    async get(key) {
      const value = await client.get(key)
      if (value === null || value === undefined) return undefined
      const count = Number(value)
      // Anything else under the key is not a count: counted again (the key is left to expire).
      return Number.isSafeInteger(count) && count >= 0 ? count : undefined
    },
    set(key, value, seconds, origin) {
      if (!origin || origin.models.length === 0)
        return client.set(key, String(value), {
          expiration: { type: 'EX', value: seconds },
          condition: 'NX',
        })
      const { models, age } = origin
      return store({
        keys: [key, ...models.map(indexOf), ...models.map(dropOf)],
        arguments: [String(value), String(seconds), String(Math.ceil(age * 1000))],
      })
    },
    drop(models) {
      return drop({ keys: [...models.map(indexOf), ...models.map(dropOf)], arguments: [] })
    },
  }
}
