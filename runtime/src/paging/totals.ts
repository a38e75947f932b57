/**
 * How full paging gets its `totalItems` (docs/paging.md, "Totals"):
 *
 * - `exact`: the page and one plain count in one transaction (one snapshot), whose limits are
 *   the `timeouts` option (DatabaseTimeouts: `transactionMaxWait`, `transaction`).
 * - `estimated`: the database's own statistics (PostgreSQL's planner estimate), exact below a
 *   threshold and wherever the page itself proves the size.
 * - `cached`: an exact count reused for some seconds per collection and set of conditions,
 *   bounded in memory, per instance.
 */

import type { Condition } from '../plan/condition.js'

/** How far `totalItems` can be trusted: shown in responses when it is not `exact`. */
export type TotalAccuracy = 'exact' | 'estimated' | 'cached'

/** What a page of full paging reads: its rows, the total and how exact the total is. */
export type PageAndTotal<Row> = [rows: Row[], totalItems: number, accuracy?: TotalAccuracy]

/**
 * A total that is not read with the page (an estimate, a cached count), corrected by what the
 * page proves. The page is read with one row more (as partial paging reads it): a page without
 * that row ends the collection, so its size is exact; with it, the collection holds at least one
 * row past the page, so `next` and `last` are never missing. Only an empty page past the start
 * proves nothing: `exact` counts then.
 */
export async function pageAndLooseTotal<Row>(
  reads: {
    /** The page's rows from its offset, at most `take` of them. */
    page(take: number): PromiseLike<Row[]>
    total(): PromiseLike<{ value: number; accuracy: TotalAccuracy }>
    exact(): PromiseLike<number>
  },
  window: { skip: number; take: number }
): Promise<PageAndTotal<Row>> {
  const [read, total] = await Promise.all([reads.page(window.take + 1), reads.total()])
  const rows = read.slice(0, window.take)
  if (read.length <= window.take) {
    if (rows.length > 0 || window.skip === 0) return [rows, window.skip + rows.length]
    return [rows, await reads.exact()]
  }
  if (total.accuracy === 'exact') return [rows, total.value]
  return [rows, Math.max(total.value, window.skip + read.length), total.accuracy]
}

/** Below this many rows by PostgreSQL's estimate, `estimated` counts exactly (cheap there). */
export const EXACT_BELOW = 100_000

/**
 * `estimated`: the planner's row estimate of the table (`pg_class.reltuples`, kept by `ANALYZE`
 * and autovacuum); an exact count when the estimate is below `exactBelow` (EXACT_BELOW; 0 for a
 * client's `planned`, which takes the estimate of any size) or unknown (-1: never analyzed).
 */
export async function estimatedTotal(
  estimate: () => PromiseLike<number | undefined>,
  exact: () => PromiseLike<number>,
  exactBelow: number = EXACT_BELOW
): Promise<{ value: number; accuracy: TotalAccuracy }> {
  const value = await estimate()
  if (value === undefined || !(value >= exactBelow))
    return { value: await exact(), accuracy: 'exact' }
  return { value: Math.round(value), accuracy: 'estimated' }
}

/**
 * Values reused for `ms` milliseconds, one per key, at most `maxEntries` of them (the oldest goes
 * first). Concurrent reads of a missing key share one read; a failed read is not kept.
 */
class HeldValues<T> {
  readonly #entries = new Map<string, { at: number; value: Promise<T> }>()

  constructor(
    private readonly ms: number,
    private readonly maxEntries: number,
    private readonly now: () => number
  ) {}

  /** The value of `key`, and whether it was held (read before this call) rather than read now. */
  get(key: string, read: () => PromiseLike<T>): { value: Promise<T>; held: boolean } {
    const now = this.now()
    const entry = this.#entries.get(key)
    if (entry && now - entry.at < this.ms) return { value: entry.value, held: true }
    const value = Promise.resolve(read())
    this.#entries.delete(key)
    this.#entries.set(key, { at: now, value })
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string
      this.#entries.delete(oldest)
    }
    value.catch(() => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key)
    })
    return { value, held: false }
  }

  get size(): number {
    return this.#entries.size
  }
}

/** How long a table's planner estimate is reused (HeldEstimate), in milliseconds. */
const ESTIMATE_HELD_MS = 1_000

/**
 * A table's planner estimate, read at most once per `ms` (ESTIMATE_HELD_MS): `pg_class.reltuples`
 * changes only when ANALYZE or autovacuum runs, so a page need not ask for it again, and without
 * that round trip an `estimated` page costs what a partial page costs. Requests that arrive while
 * it is read share that read; a failed read is not held.
 */
export class HeldEstimate {
  readonly #held: HeldValues<number | undefined>

  constructor(ms = ESTIMATE_HELD_MS, now: () => number = Date.now) {
    this.#held = new HeldValues(ms, 1, now)
  }

  get(read: () => PromiseLike<number | undefined>): Promise<number | undefined> {
    return this.#held.get('', read).value
  }
}

export interface CountCacheOptions {
  /** How long a count is reused, in seconds. */
  seconds: number
  /** Counts kept at most (one per set of conditions); the oldest goes first. Default 1,000. */
  maxEntries?: number
  /** The clock, in milliseconds (tests). */
  now?: () => number
}

/**
 * `cached`: exact counts reused for `seconds`, one per key (the conditions of a request), at most
 * `maxEntries` of them. Concurrent requests for a missing key share one count. A count reused
 * after the instant it was read is `cached`; the request that read it gets it as `exact`.
 */
export class CountCache {
  readonly #counts: HeldValues<number>

  constructor(options: CountCacheOptions) {
    this.#counts = new HeldValues(
      options.seconds * 1000,
      options.maxEntries ?? 1000,
      options.now ?? Date.now
    )
  }

  async get(
    key: string,
    count: () => PromiseLike<number>
  ): Promise<{ value: number; accuracy: TotalAccuracy }> {
    const { value, held } = this.#counts.get(key, count)
    return { value: await value, accuracy: held ? 'cached' : 'exact' }
  }

  /** Counts held now (tests, diagnostics). */
  get size(): number {
    return this.#counts.size
  }
}

/**
 * The key of a cached count: the rows counted (the plan's condition: the request's filters and the
 * caller's scope), '' without any. Bigints (BigInt ids and values) are written with an `n`, which
 * JSON cannot otherwise hold; Prisma's null sentinels (`DbNull`, `JsonNull`, `AnyNull`: instances
 * without fields, which JSON writes as `{}`, carried in the tests of users' scopes the plan leaves
 * to Prisma) by their class, so that conditions that differ only in them never share a count.
 */
export function countKey(condition: Condition | undefined): string {
  if (condition === undefined) return ''
  return JSON.stringify(condition, (_, value) => {
    if (typeof value === 'bigint') return `${value}n`
    if (isSentinel(value)) return `[${(value as object).constructor.name}]`
    return value
  })
}

/** An object of a class other than Object, with no fields and no JSON form of its own. */
function isSentinel(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) !== Object.prototype &&
    Object.getPrototypeOf(value) !== null &&
    Object.keys(value).length === 0
  )
}
