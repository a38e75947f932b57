/**
 * @module
 * The load of one database's work (docs/deployment.md#shedding-load): how many pieces of requests'
 * work are in flight (waiting for a connection or for their turn, or running, including work whose
 * request was already answered 503 and that still holds its connection), and how fast they end.
 * From these, how long a piece joining now would take (Little's law: the pieces ahead of it, and
 * itself, over the rate at which pieces end), so that a request whose budget is shorter than that
 * is answered 503 at once rather than at the end of its budget.
 */

/** The most end times kept: enough for the rate of a busy database over a budget. */
const MOST_KEPT = 65_536
/** The fewest ends within the window that measure a rate: fewer say too little to shed on. */
const FEWEST_MEASURED = 8
/** A window's parts in a moment: ends closer together than that are one burst, not a flow. */
const MOMENT_PARTS = 10_000

/**
 * The work in flight on one database and how fast it ends: what a request's expected wait for it
 * is read from, to answer at once the requests it could not serve within their budget.
 */
export class WorkLoad {
  /** Pieces begun and not yet ended. */
  #inFlight = 0
  /** When each of the last pieces ended (`performance.now()`), oldest first. */
  #ends: number[] = []
  /** When pieces have been in flight since, without a moment with none (`performance.now()`). */
  #busySince = 0
  /** When the first piece of the busy period ended (`performance.now()`); undefined before. */
  #firstEnd: number | undefined

  /** A piece begins: call what it returns once when it ends (more calls do nothing). */
  begin(): () => void {
    if (this.#inFlight === 0) {
      this.#busySince = performance.now()
      this.#firstEnd = undefined
    }
    this.#inFlight++
    let ended = false
    return () => {
      if (ended) return
      ended = true
      this.#inFlight--
      const now = performance.now()
      this.#ends.push(now)
      this.#firstEnd ??= now
      // Trimmed by halves: a trim a piece would cost a copy of the whole array each time.
      if (this.#ends.length > 2 * MOST_KEPT) this.#ends.splice(0, this.#ends.length - MOST_KEPT)
    }
  }

  /** Pieces in flight now. */
  get inFlight(): number {
    return this.#inFlight
  }

  /**
   * Milliseconds a piece joining now is expected to take before it ends: the pieces in flight and
   * itself over the rate at which pieces ended during the last `window` milliseconds (a request's
   * budget) the database was busy, so that ends coming in bursts (pieces ended together by a lock's
   * bound, by their budget) are measured over the time the database was busy before them, not over
   * the burst alone. 0 while nothing is in flight or too little measures the rate (fewer than
   * FEWEST_MEASURED ends over less than the window). Infinity when FEWEST_MEASURED pieces or more
   * are in flight, the database has been busy for the whole window and none ended (a frozen pool,
   * a database that stopped answering); a few pieces stuck alone (a slow statement) do not stop the
   * others, for which the pool may have connections.
   *
   * The rate counts from the first end of the busy period instead (a cold start's: the time before
   * it is how long the first pieces took, a connection opened, a first query prepared, not how fast
   * the database ends them once it serves) while the ends after it flow: at least FEWEST_MEASURED,
   * spread over more than a moment (a ten-thousandth of the window), and the last of them no longer ago
   * than they spread. A burst and the silence after it fall back on the rate over the window: right
   * after a held table's reads all ended at their bound, the next request still expects a budget.
   */
  expected(window: number): number {
    if (this.#inFlight === 0) return 0
    const now = performance.now()
    const flowing = this.#sinceFirstEnd(now, window)
    if (flowing !== undefined) return flowing
    const busy = now - this.#busySince
    const span = Math.min(window, busy)
    const recent = this.#ends.length - firstFrom(this.#ends, now - span)
    if (recent === 0) {
      const frozen = busy >= window && this.#inFlight >= FEWEST_MEASURED
      return frozen ? Number.POSITIVE_INFINITY : 0
    }
    if (span < window && recent < FEWEST_MEASURED) return 0
    return ((this.#inFlight + 1) * span) / recent
  }

  /**
   * The expected wait measured from the busy period's first end, over the ends after it, while
   * those flow (see `expected`); undefined when they do not, or that end is before the window.
   */
  #sinceFirstEnd(now: number, window: number): number | undefined {
    const first = this.#firstEnd
    if (first === undefined || now - first > window) return undefined
    const last = this.#ends[this.#ends.length - 1] as number
    const spread = last - first
    if (spread < window / MOMENT_PARTS || now - last > spread) return undefined
    const after = this.#ends.length - firstFrom(this.#ends, first) - 1
    if (after < FEWEST_MEASURED) return undefined
    return ((this.#inFlight + 1) * (now - first)) / after
  }
}

/** The index of the first of `sorted` (ascending) at or after `time`; its length if none is. */
function firstFrom(sorted: readonly number[], time: number): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((sorted[middle] as number) < time) low = middle + 1
    else high = middle
  }
  return low
}
