import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { WorkLoad } from './work-load.js'

/** A request's budget, the window the rate is measured over. */
const WINDOW = 10_000

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

/** Begins `count` pieces on `load`: what ends each. */
function begin(load: WorkLoad, count: number): Array<() => void> {
  return Array.from({ length: count }, () => load.begin())
}

/** Ends the pieces of `ends`, one every `every` milliseconds. */
function endEvery(ends: ReadonlyArray<() => void>, every: number): void {
  for (const end of ends) {
    vi.advanceTimersByTime(every)
    end()
  }
}

describe('the expected wait of a piece of work', () => {
  it('is 0 while too little is measured', () => {
    const load = new WorkLoad()
    const pieces = begin(load, 100)
    vi.advanceTimersByTime(2000)
    endEvery(pieces.slice(0, 5), 10)
    expect(load.expected(WINDOW)).toBe(0)
  })

  it('reads a cold start, the first end long after the first piece began, as no rate', () => {
    // 100 pieces wait for the pool's first connection, which opens after 1.5 s; then pieces end
    // every 10 ms: the 100 ahead take a second, far less than the budget.
    const load = new WorkLoad()
    const pieces = begin(load, 100)
    vi.advanceTimersByTime(1500)
    endEvery(pieces.slice(0, 10), 10)
    const expected = load.expected(WINDOW)
    expect(expected).toBeGreaterThan(500)
    expect(expected).toBeLessThan(1500)
  })

  it('follows the rate the database keeps, over the budget once it was busy that long', () => {
    const load = new WorkLoad()
    const pieces = begin(load, 2000)
    vi.advanceTimersByTime(1500)
    // An end every 100 ms for 12 s: 1,880 pieces left, and 101 ends in the last 10 s.
    endEvery(pieces.slice(0, 120), 100)
    expect(load.expected(WINDOW)).toBeCloseTo((1881 * WINDOW) / 101, 0)
  })

  it('is Infinity when many pieces are in flight and none ended for a whole budget', () => {
    const load = new WorkLoad()
    begin(load, 12)
    vi.advanceTimersByTime(WINDOW + 1)
    expect(load.expected(WINDOW)).toBe(Number.POSITIVE_INFINITY)
  })

  it("expects a held table's burst of ends to take a budget, right after it and on", () => {
    // A held table from idle: 200 pieces wait until their budget ends them all at once; each
    // answered client asks again. The first end and the burst are the same moment: their count
    // over the time since it says nothing of the rate, and the next request is shed.
    const load = new WorkLoad()
    const first = begin(load, 200)
    vi.advanceTimersByTime(WINDOW)
    for (const end of first) {
      load.begin()
      end()
    }
    let elapsed = 0
    for (const after of [1, 4000, 5000, 9999]) {
      vi.advanceTimersByTime(after - elapsed)
      elapsed = after
      expect(load.expected(WINDOW)).toBeGreaterThanOrEqual(WINDOW)
    }
  })

  it('expects a burst spread over a moment to take a budget once it is over', () => {
    // The same burst, its 200 ends over 20 ms (clients that asked over 20 ms): as long again
    // after it, nothing ended, and the rate is the window's.
    const load = new WorkLoad()
    const first = begin(load, 200)
    vi.advanceTimersByTime(WINDOW)
    for (const [index, end] of first.entries()) {
      if (index % 10 === 0) vi.advanceTimersByTime(1)
      load.begin()
      end()
    }
    vi.advanceTimersByTime(25)
    expect(load.expected(WINDOW)).toBeGreaterThanOrEqual(WINDOW)
  })

  it('sheds a database that froze after one early end once it was busy a budget', () => {
    const load = new WorkLoad()
    const pieces = begin(load, 12)
    vi.advanceTimersByTime(100)
    pieces[0]?.()
    vi.advanceTimersByTime(WINDOW - 100 + 1)
    expect(load.expected(WINDOW)).toBeGreaterThanOrEqual(WINDOW)
  })

  it('starts afresh once nothing is in flight', () => {
    const load = new WorkLoad()
    const pieces = begin(load, 20)
    vi.advanceTimersByTime(WINDOW * 2)
    endEvery(pieces, 1)
    const next = begin(load, 100)
    vi.advanceTimersByTime(2000)
    endEvery(next.slice(0, 9), 5)
    // The ends of the last busy period are not this one's: 8 after its first, in 40 ms.
    expect(load.expected(WINDOW)).toBeCloseTo((92 * 40) / 8, 0)
  })
})
