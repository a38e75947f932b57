import { AsyncLocalStorage } from 'node:async_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import { clientTakesTurns, inLine, MOST_HELD, takesTurns } from './loop-turns.js'
import { databaseWork, OutageLog } from './outage.js'
import { QueryTimeout } from './timeouts.js'

/** Resolves after `count` turns of the event loop (each a setImmediate). */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve))
}

/** A turn counter: `now()` is the number of turns since it started, until `stop()`. */
function turnCounter() {
  let count = 0
  let running = true
  const tick = () => {
    if (!running) return
    count++
    setImmediate(tick)
  }
  setImmediate(tick)
  return {
    now: () => count,
    stop: () => {
      running = false
    },
  }
}

// Every test starts with the line at rest: two quiet turns end its turns.
afterEach(() => turns(4))

describe('the line of work that holds the event loop', () => {
  it('starts a piece at once when it rests', async () => {
    let started = false
    const turn = inLine(async () => {
      started = true
      return 'read'
    })
    expect(started).toBe(true)
    await expect(turn.result).resolves.toBe('read')
  })

  it('starts the pieces that wait one a turn, in the order they came', async () => {
    const counter = turnCounter()
    const starts: Array<[string, number]> = []
    const piece = (name: string) => async () => void starts.push([name, counter.now()])
    const pieces = ['a', 'b', 'c', 'd'].map((name) => inLine(piece(name)).result)
    await Promise.all(pieces)
    counter.stop()
    expect(starts.map(([name]) => name)).toEqual(['a', 'b', 'c', 'd'])
    const at = starts.map(([, turn]) => turn)
    for (let i = 1; i < at.length; i++) expect(at[i]).toBeGreaterThan(at[i - 1] as number)
  })

  it('never starts a piece that left the line', async () => {
    const started: string[] = []
    const first = inLine(async () => void started.push('first'))
    const left = inLine(async () => void started.push('left'))
    const last = inLine(async () => void started.push('last'))
    left.leave()
    await Promise.all([first.result, last.result])
    await turns(4)
    expect(started).toEqual(['first', 'last'])
  })

  it('holds the next piece while pieces keep joining, up to MOST_HELD turns', async () => {
    const counter = turnCounter()
    inLine(async () => undefined)
    let startedAt: number | undefined
    const waiting = inLine(async () => {
      startedAt = counter.now()
    })
    const joinedAt = counter.now()
    // A piece joins every turn for twice as long as the line holds one back.
    let joining = true
    const joiners: Promise<unknown>[] = []
    const join = () => {
      if (!joining) return
      joiners.push(inLine(async () => undefined).result)
      setImmediate(join)
    }
    setImmediate(join)
    await waiting.result
    joining = false
    await Promise.all(joiners)
    counter.stop()
    const waited = (startedAt as number) - joinedAt
    expect(waited).toBeGreaterThanOrEqual(MOST_HELD)
    expect(waited).toBeLessThanOrEqual(MOST_HELD + 4)
  })

  it("starts a waiting piece in its request's async context", async () => {
    const request = new AsyncLocalStorage<string>()
    inLine(async () => undefined)
    const seen = await request.run('request 2', () => inLine(async () => request.getStore()).result)
    expect(seen).toBe('request 2')
  })

  it('keeps nothing of a piece once it started, while others still wait', async () => {
    setFlagsFromString('--expose-gc')
    const collect = runInNewContext('gc') as () => void
    // A piece whose work holds rows, as a request's reads do, known by a weak reference only.
    const piece = () => {
      const rows = Array.from({ length: 30 }, (_, id) => ({ id }))
      return { rows: new WeakRef(rows), result: inLine(async () => rows.length).result }
    }
    inLine(async () => undefined)
    const held = piece()
    const others = [1, 2, 3].map(() => inLine(async () => undefined).result)
    await expect(held.result).resolves.toBe(30)
    // Its work is done and the others have not all started: the line is still busy.
    collect()
    expect(held.rows.deref()).toBeUndefined()
    await Promise.all(others)
  })

  it('fails the piece whose start throws', async () => {
    inLine(async () => undefined)
    const turn = inLine((): Promise<never> => {
      throw new Error('no statement')
    })
    await expect(turn.result).rejects.toThrow('no statement')
  })
})

describe('databaseWork in the line', () => {
  it('answers a QueryTimeout at the end of the budget, and its work never starts', async () => {
    let started = false
    inLine(async () => undefined)
    // The piece ahead, in line too, holds the loop longer than the budget.
    const ahead = databaseWork(
      async () => {
        const until = performance.now() + 80
        while (performance.now() < until) {}
      },
      10_000,
      new OutageLog(),
      true
    )
    const late = databaseWork(
      async () => {
        started = true
      },
      20,
      new OutageLog(),
      true
    )
    // Its refusal is awaited from now on: on a loaded machine it may come before the piece ahead ends.
    const refused = expect(late).rejects.toBeInstanceOf(QueryTimeout)
    await ahead
    await refused
    await turns(4)
    expect(started).toBe(false)
  })

  it('starts the work at once without turns', async () => {
    inLine(async () => undefined)
    let started = false
    const work = databaseWork(
      async () => {
        started = true
      },
      1000,
      new OutageLog()
    )
    expect(started).toBe(true)
    await work
  })
})

describe('which work takes turns', () => {
  it('SQLite, by provider or by a client that records it', () => {
    expect(takesTurns('sqlite')).toBe(true)
    expect(takesTurns('postgresql')).toBe(false)
    expect(takesTurns(undefined)).toBe(false)
    expect(clientTakesTurns({ _activeProvider: 'sqlite' })).toBe(true)
    expect(clientTakesTurns({ _activeProvider: 'mysql' })).toBe(false)
    expect(clientTakesTurns({})).toBe(false)
    expect(clientTakesTurns(undefined)).toBe(false)
  })

  it('none on Cloudflare Workers, whose D1 answers asynchronously', () => {
    const navigator = { userAgent: 'Cloudflare-Workers' }
    Object.defineProperty(globalThis, 'navigator', { value: navigator, configurable: true })
    try {
      expect(takesTurns('sqlite')).toBe(false)
    } finally {
      Reflect.deleteProperty(globalThis, 'navigator')
    }
    expect(takesTurns('sqlite')).toBe(true)
  })
})
