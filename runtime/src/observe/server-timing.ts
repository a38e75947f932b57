/**
 * @module
 * The `Server-Timing` header of pages and items (docs/operations.md#server-timing): how long the
 * request waited for its database (`db`: a page, with its count when they are read together, an
 * item, a sub-collection's parent), for a count read on its own (`count`: `cached` and
 * `estimated` totals when they are counted), and how long its document took to write
 * (`serialize`: members, JSON, validator). Durations in milliseconds, each metric summed over the
 * request's reads; reads that overlap (a page and its count read side by side) overlap here too.
 * A page or an item an operation configured for the compiled engine had the `prisma` engine read
 * says so without a duration: `handoff;desc="embed"` (a relation it embeds, or the check of an
 * embedded relation against the caller's scope) or `handoff;desc="query"` (a condition or an
 * order it cannot write), data/compiled/handoffs.ts.
 */

/** The metrics a response reports. */
export type TimingMetric = 'db' | 'count' | 'serialize'

/** A monotonic clock in milliseconds (every runtime Hono runs on has `performance`). */
const now = (): number => performance.now()

/** The timings of one request, written as its `Server-Timing` header. */
export class ServerTiming {
  readonly #spent = new Map<TimingMetric, number>()
  #handoff: string | undefined

  /** Notes that the compiled engine handed a read of the request to the `prisma` engine. */
  readonly handoff = (cause: string): void => {
    this.#handoff = cause
  }

  /** Adds `milliseconds` to `metric`. */
  add(metric: TimingMetric, milliseconds: number): void {
    this.#spent.set(metric, (this.#spent.get(metric) ?? 0) + milliseconds)
  }

  /** Waits for `work`, adding the wait to `metric` whether it succeeds or fails. */
  async measure<T>(metric: TimingMetric, work: T | PromiseLike<T>): Promise<T> {
    const started = now()
    try {
      return await work
    } finally {
      this.add(metric, now() - started)
    }
  }

  /** Runs `work` (synchronous), adding its time to `metric`. */
  time<T>(metric: TimingMetric, work: () => T): T {
    const started = now()
    try {
      return work()
    } finally {
      this.add(metric, now() - started)
    }
  }

  /** `db;dur=1.42, serialize;dur=0.31`: each metric measured, or undefined when none was. */
  header(): string | undefined {
    const metrics = [...this.#spent].map(([metric, spent]) => `${metric};dur=${spent.toFixed(2)}`)
    if (this.#handoff !== undefined) metrics.push(`handoff;desc="${this.#handoff}"`)
    return metrics.length === 0 ? undefined : metrics.join(', ')
  }

  /** Sets the header on `response` (its headers are the runtime's own, so writable). */
  write<R extends Response>(response: R): R {
    const header = this.header()
    if (header !== undefined) response.headers.set('Server-Timing', header)
    return response
  }
}

/** A request's timings, or undefined when the app switched the header off. */
export const serverTimingOf = (enabled: boolean | undefined): ServerTiming | undefined =>
  enabled === false ? undefined : new ServerTiming()
