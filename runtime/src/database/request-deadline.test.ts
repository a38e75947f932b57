/**
 * A request's budget from its arrival leaves its answer a margin (docs/deployment.md#the-requests-budget):
 * its work has the budget less a tenth of it, at most 500 ms, so that a `503` sent when the
 * work runs out reaches the client within the budget.
 */
import { describe, expect, it } from 'vitest'
import { answerMargin, budgetLeft, markArrival } from './request-deadline.js'

describe("a request's budget", () => {
  it.each([
    [10_000, 500],
    [5_000, 500],
    [3_000, 300],
    [2_000, 200],
    [1_000, 100],
    [100, 10],
  ])('of %i ms keeps %i ms for the answer', (budget, margin) => {
    expect(answerMargin(budget)).toBe(margin)
  })

  it('leaves the work the budget less the margin from the arrival', () => {
    const request = new Request('http://localhost/books')
    const before = performance.now()
    markArrival(request)
    const left = budgetLeft(request, 10_000)
    const elapsed = performance.now() - before
    expect(left).toBeLessThanOrEqual(9_500)
    expect(left).toBeGreaterThanOrEqual(9_500 - elapsed)
  })
})
