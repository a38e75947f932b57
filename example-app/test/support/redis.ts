/**
 * Redis for the shared totals tests (docs/deployment.md#shared-totals): the server at REDIS_URL
 * (default 127.0.0.1:6379), whether it answers, and clients configured as an app configures one.
 */
import { execFileSync } from 'node:child_process'
import { createClient } from 'redis'

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

export type Redis = ReturnType<typeof createClient>

/**
 * A client as an app configures one: commands fail at once while disconnected, bounded anyway
 * (1 s here rather than the documented 250 ms: a loaded CI machine must not look like an outage).
 */
export function redisClient(url: string = REDIS_URL): Redis {
  return createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: 1000 },
    socket: { connectTimeout: 1000, reconnectStrategy: () => 100 },
  })
}

/** Whether Redis answers at REDIS_URL. */
export async function redisAnswers(): Promise<boolean> {
  const client = createClient({
    url: REDIS_URL,
    socket: { connectTimeout: 1000, reconnectStrategy: false },
  })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.ping()
    await client.close()
    return true
  } catch {
    return false
  }
}

/** Whether `redis-server` is installed, for tests starting a Redis of their own. */
export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Deletes every key under `prefix` (a test's own), then closes the client. */
export async function removeKeys(redis: Redis, prefix: string): Promise<void> {
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*` })) {
    if (keys.length > 0) await redis.del(keys)
  }
  await redis.close()
}
