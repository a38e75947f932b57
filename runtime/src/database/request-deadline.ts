/**
 * @module
 * A request's budget counted from its arrival (docs/deployment.md#timeouts): the time it waited
 * before its route ran (the middleware before it, a busy event loop), for a connection of the pool
 * and on the database, and the time its earlier database work took, all come out of one budget,
 * so that its answer leaves within the budget of its arrival, not within a budget for each piece:
 * the work ends a margin before the budget does, which the answer takes to reach the client.
 * Its arrival is the first time the app saw it: the API's first middleware (or `hydraArrival`,
 * put first in an app that runs its own middleware before the API), or else the first of its
 * budgets asked for.
 */

/** When each request arrived (`performance.now()`), keyed by its `Request`. */
const arrivals = new WeakMap<Request, number>()

/** Records that `request` arrives now, unless it arrived before. */
export function markArrival(request: Request): void {
  if (!arrivals.has(request)) arrivals.set(request, performance.now())
}

/** When `request` arrived (`performance.now()`); now, recorded, if nothing saw it arrive. */
function arrivalOf(request: Request): number {
  let at = arrivals.get(request)
  if (at === undefined) {
    at = performance.now()
    arrivals.set(request, at)
  }
  return at
}

/** The most milliseconds of a budget kept for its answer to reach the client. */
const MARGIN_AT_MOST = 500

/**
 * The part of `budget` kept for the answer of work that ran out of it to reach the client within
 * it (docs/deployment.md#the-requests-budget): the timer's lateness and the writing of a `503`.
 * A tenth of the budget, at most 500 ms: on a loaded machine answers were seen up to 250 ms
 * after the work's end.
 */
export function answerMargin(budget: number): number {
  return Math.min(budget / 10, MARGIN_AT_MOST)
}

/**
 * Milliseconds left for the work of a request, of a `budget` counted from its arrival less the
 * answer's margin (negative once it ran out).
 */
export function budgetLeft(request: Request, budget: number): number {
  return budget - answerMargin(budget) - (performance.now() - arrivalOf(request))
}
