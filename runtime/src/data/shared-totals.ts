/**
 * @module
 * `cached` totals shared between instances (docs/deployment.md#shared-totals): a count read by one
 * instance is answered by every instance for the operation's `totalsCacheSeconds`, through a
 * {@link CountStore} the app gives (`redisCountStore` of `@prisma-hydra/runtime/redis` over a Redis
 * client, or any store of its own). Keys name the model, the operation and a digest of the
 * request's `where` (a sub-collection's parent and, with access control, the caller's scope are in
 * it, so its text would put tenants' values at rest in the store), and expire with the count. A
 * count is stored with the models its `where` reads (data/read-models.ts), so that a write of any
 * of them drops it (`hydraInvalidation({ totals })`, data/prisma7/purge-extension.ts) when the store can
 * drop. A store that fails or does not answer within its timeout is left alone for a moment:
 * counts are then exact, counted by the instance for each request, never a 5xx nor a wait past
 * the timeout, with one log line when the outage starts and one when it ends. They are not kept
 * in the instance meanwhile: a write drops its counts through the store, which is what is out of
 * reach, so a kept count would outlive the writes of every other instance (and the purges of a
 * shared cache, which would keep an answer with it).
 */
import { createHash } from 'node:crypto'
import { type OutageLog, outageLogFor } from '../database/outage.js'
import { withinBudget } from '../database/timeouts.js'
import { consoleLogger, type HydraLogger } from '../observe/logger.js'
import type { TotalAccuracy } from '../paging/totals.js'

/** Where counts are shared: a key-value store with expiry (Redis). */
export interface CountStore {
  /** The count stored under `key`, or undefined; rejects when the store cannot answer. */
  get(key: string): PromiseLike<number | undefined>
  /**
   * Stores `value` under `key` for `seconds`, unless a count is stored there already. `origin`
   * says what the count read: a store that drops keeps the key with each of its models, and
   * stores nothing when one of them was dropped since the count began.
   */
  set(key: string, value: number, seconds: number, origin?: CountOrigin): PromiseLike<unknown>
  /**
   * Drops every count that read any of `models` (Prisma's model names): what a committed write of
   * them calls (`hydraInvalidation({ totals })`). A store without it keeps its counts until they
   * expire, whatever is written, and `hydraInvalidation` refuses it.
   */
  drop?(models: readonly string[]): PromiseLike<unknown>
  /** Prepended to every key (default `prisma-hydra:totals:`): apps sharing a store each have theirs. */
  prefix?: string | undefined
  /** How long a command may take, in milliseconds (default 250); past it the store is down. */
  timeout?: number | undefined
  /** What the app's log calls the store when it fails (`Redis`; default `the store`). */
  name?: string | undefined
  /** How long a store that failed is left alone before it is asked again, in ms (default 1,000). */
  retryAfter?: number | undefined
}

/** What a count read, handed to the store with it (`CountStore.set`). */
export interface CountOrigin {
  /** Prisma's names of every model the count's `where` reads, its own model first. */
  models: readonly string[]
  /**
   * Milliseconds since the store was asked for the count, before it was counted: a drop of one of
   * `models` within them may have come after the rows were counted.
   */
  age: number
}

export const DEFAULT_PREFIX = 'prisma-hydra:totals:'
const DEFAULT_TIMEOUT = 250
const DEFAULT_RETRY = 1000
/** A store's command that failed or timed out: the count is then the request's own. */
class StoreFailure extends Error {}

/** The outage state of one store, shared by every operation of the app: one log line per episode. */
class StoreGuard {
  #since: number | undefined
  #retryAt = 0
  #missed = 0

  constructor(readonly store: CountStore) {}

  /** Whether the store is asked now: it is up, or its pause after a failure is over. */
  get usable(): boolean {
    return this.#since === undefined || Date.now() >= this.#retryAt
  }

  /** Runs a command; a change of the store's state is logged through `logger` (the app's). */
  async run<T>(work: () => PromiseLike<T>, logger: HydraLogger): Promise<T> {
    let result: T
    try {
      const budget = this.store.timeout ?? DEFAULT_TIMEOUT
      const late = () =>
        new Error(`${this.store.name ?? 'the store'} did not answer within ${budget} ms`)
      result = await withinBudget(Promise.resolve().then(work), budget, late)
    } catch (error) {
      this.#failed(error, logger)
      throw new StoreFailure('count store unavailable', { cause: error })
    }
    if (this.#since !== undefined) {
      const seconds = Number(((Date.now() - this.#since) / 1000).toFixed(1))
      logger({
        level: 'info',
        message: `the totals store answers again after ${seconds.toFixed(1)} s (${this.#missed} counts were this instance's own)`,
        fields: { event: 'totals-store.end', seconds, counts: this.#missed },
      })
      this.#since = undefined
      this.#missed = 0
    }
    return result
  }

  /** Counts one request answered without the store. */
  missed(): void {
    if (this.#since !== undefined) this.#missed++
  }

  #failed(error: unknown, logger: HydraLogger): void {
    this.#retryAt = Date.now() + (this.store.retryAfter ?? DEFAULT_RETRY)
    if (this.#since !== undefined) return
    this.#since = Date.now()
    const reason = error instanceof Error ? error.message.trim().split('\n').pop() : String(error)
    logger({
      level: 'warn',
      message: `the totals store is unavailable (${reason}); counting in this instance until it answers again`,
      fields: { event: 'totals-store.start', reason },
    })
  }
}

const guards = new WeakMap<CountStore, StoreGuard>()

function guardOf(store: CountStore): StoreGuard {
  let guard = guards.get(store)
  if (!guard) {
    guard = new StoreGuard(store)
    guards.set(store, guard)
  }
  return guard
}

/**
 * The store's key of a count: prefix, model, operation, and the SHA-256 of the `where` (empty
 * without one). The digest keeps the key short whatever a client sends, and keeps the values of
 * filters and scopes out of the store.
 */
export function sharedCountKey(
  store: CountStore,
  model: string,
  operation: string,
  where: string
): string {
  const condition =
    where === '' ? '' : `sha256:${createHash('sha256').update(where).digest('base64url')}`
  return `${store.prefix ?? DEFAULT_PREFIX}${model}:${operation}:${condition}`
}

/**
 * The `cached` totals of one operation through a shared store: a stored count is `cached`; a
 * missing one is counted (once per key at a time in this instance), stored for `seconds` with the
 * models it read, and answered as `exact`. While the store is down, counts are `exact`, counted
 * (once per key at a time) and kept nowhere.
 */
export class SharedCountCache {
  readonly #guard: StoreGuard
  readonly #counting = new Map<string, Promise<{ value: number; asked: number }>>()

  constructor(
    store: CountStore,
    readonly names: { model: string; operation: string },
    readonly seconds: number,
    readonly logger: HydraLogger = consoleLogger
  ) {
    this.#guard = guardOf(store)
  }

  /**
   * The total of `where` (its countKey), whose `where` reads `models()` (data/read-models.ts),
   * asked only when a count is stored.
   */
  async get(
    where: string,
    count: () => PromiseLike<number>,
    models: () => readonly string[]
  ): Promise<{ value: number; accuracy: TotalAccuracy }> {
    const guard = this.#guard
    const key = sharedCountKey(guard.store, this.names.model, this.names.operation, where)
    if (guard.usable) {
      let counted: { value: number; asked: number } | undefined
      try {
        const asked = performance.now()
        const stored = await guard.run(() => guard.store.get(key), this.logger)
        if (stored !== undefined) return { value: stored, accuracy: 'cached' }
        counted = await this.#countOnce(key, count, asked)
        const origin = { models: models(), age: performance.now() - counted.asked }
        const { value } = counted
        await guard.run(() => guard.store.set(key, value, this.seconds, origin), this.logger)
        return { value, accuracy: 'exact' }
      } catch (error) {
        if (!(error instanceof StoreFailure)) throw error
        // Counted, then not stored: the count is still this request's exact answer.
        if (counted !== undefined) return { value: counted.value, accuracy: 'exact' }
      }
    }
    guard.missed()
    const { value } = await this.#countOnce(key, count, performance.now())
    return { value, accuracy: 'exact' }
  }

  /**
   * Concurrent requests of one key share one count, and the moment its first request asked the
   * store: the count's age is from then.
   */
  #countOnce(
    key: string,
    count: () => PromiseLike<number>,
    asked: number
  ): Promise<{ value: number; asked: number }> {
    let counting = this.#counting.get(key)
    if (!counting) {
      counting = Promise.resolve(count())
        .then((value) => ({ value, asked }))
        .finally(() => this.#counting.delete(key))
      this.#counting.set(key, counting)
    }
    return counting
  }
}

/** The episodes of each store's failed drops, shared by every extension dropping from it. */
const drops = new WeakMap<CountStore, OutageLog>()

/** How the drops' episodes are worded and named (docs/operations.md#logger). */
const DROP_EPISODES = {
  subject: "the shared totals' drop",
  meanwhile: 'writes leave the counts they change to expire',
  counted: 'drops failed, their counts left to expire',
  events: { start: 'totals-store.drop-error', end: 'totals-store.drop-end' },
}

/**
 * Drops the counts of `store` that read any of `models`, through the store's outage guard (its
 * timeout; a failure is an outage of the store, logged once). Failed drops are logged as an
 * error once per episode (one line when they start failing, one when a drop succeeds again):
 * those counts are answered until they expire.
 */
export async function dropSharedCounts(
  store: CountStore,
  models: readonly string[],
  logger: HydraLogger
): Promise<void> {
  const { drop } = store
  if (!drop || models.length === 0) return
  const log = outageLogFor(drops, store, DROP_EPISODES).through(logger)
  try {
    await guardOf(store).run(() => drop.call(store, models), logger)
  } catch (error) {
    log.failed((error as Error).cause ?? error)
    return
  }
  log.succeeded()
}
