/**
 * @module
 * A request's budget counted from its arrival (docs/deployment.md#timeouts): the time it waited
 * before its route ran (the middleware before it, a busy event loop), for a connection of the pool
 * and on the database, and the time its earlier database work took, all come out of one budget,
 * so that its answer leaves within the budget of its arrival, not within a budget for each piece.
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

/** Milliseconds left of a `budget` counted from `request`'s arrival (negative once it ran out). */
export function budgetLeft(request: Request, budget: number): number {
  return budget - (performance.now() - arrivalOf(request))
}
