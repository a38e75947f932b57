import { describe, expect, it } from 'vitest'
import { onField } from '../plan/condition.js'
import { readWhere } from '../plan/scope-reader.js'
import {
  CountCache,
  countKey,
  EXACT_BELOW,
  estimatedTotal,
  HeldEstimate,
  pageAndLooseTotal,
} from './totals.js'

const rows = (n: number) => Array.from({ length: n }, (_, index) => index)

describe('pageAndLooseTotal', () => {
  /** A collection of `size` rows; the loose total says `value`. */
  const read = (size: number, value: number, skip = 60) => {
    let exact = 0
    const result = pageAndLooseTotal(
      {
        page: async (take) => rows(Math.max(0, Math.min(take, size - skip))),
        total: async () => ({ value, accuracy: 'estimated' as const }),
        exact: async () => {
          exact++
          return size
        },
      },
      { skip, take: 30 }
    )
    return result.then((answer) => ({ answer, exact }))
  }

  it('marks a total the page cannot prove', async () => {
    expect(await read(2000, 1000)).toEqual({ answer: [rows(30), 1000, 'estimated'], exact: 0 })
  })

  it('raises a total below what the page and its extra row prove', async () => {
    expect(await read(2000, 70)).toEqual({ answer: [rows(30), 91, 'estimated'], exact: 0 })
    expect(await read(91, 90)).toEqual({ answer: [rows(30), 91, 'estimated'], exact: 0 })
  })

  it('knows the exact size from a page without the extra row', async () => {
    expect(await read(72, 1000)).toEqual({ answer: [rows(12), 72], exact: 0 })
    expect(await read(90, 1000)).toEqual({ answer: [rows(30), 90], exact: 0 })
    expect(await read(0, 1000, 0)).toEqual({ answer: [[], 0], exact: 0 })
  })

  it('counts exactly when an empty page past the start proves nothing', async () => {
    expect(await read(40, 1000)).toEqual({ answer: [[], 40], exact: 1 })
  })
})

describe('estimatedTotal', () => {
  it('uses the estimate above the threshold, and counts below it or without one', async () => {
    const exact = async () => 42
    expect(await estimatedTotal(async () => EXACT_BELOW + 0.4, exact)).toEqual({
      value: EXACT_BELOW,
      accuracy: 'estimated',
    })
    expect(await estimatedTotal(async () => EXACT_BELOW - 1, exact)).toEqual({
      value: 42,
      accuracy: 'exact',
    })
    expect(await estimatedTotal(async () => undefined, exact)).toEqual({
      value: 42,
      accuracy: 'exact',
    })
  })
})

describe('HeldEstimate', () => {
  it('reads the estimate once a second, sharing a read in flight', async () => {
    let now = 0
    let reads = 0
    const held = new HeldEstimate(1_000, () => now)
    const read = async () => {
      reads++
      return 1_000 * reads
    }
    expect(await Promise.all([held.get(read), held.get(read)])).toEqual([1_000, 1_000])
    now = 999
    expect([await held.get(read), reads]).toEqual([1_000, 1])
    now = 1_000
    expect([await held.get(read), reads]).toEqual([2_000, 2])
  })

  it('does not hold a failed read', async () => {
    const held = new HeldEstimate(1_000, () => 0)
    await expect(held.get(() => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(await held.get(async () => 5)).toBe(5)
  })
})

describe('CountCache', () => {
  it('reuses a count for its duration, per key, and counts again after it', async () => {
    let now = 0
    let counted = 0
    const cache = new CountCache({ seconds: 10, now: () => now })
    const count = async () => ++counted
    expect(await cache.get('', count)).toEqual({ value: 1, accuracy: 'exact' })
    now = 9_999
    expect(await cache.get('', count)).toEqual({ value: 1, accuracy: 'cached' })
    expect(await cache.get('other', count)).toEqual({ value: 2, accuracy: 'exact' })
    now = 10_000
    expect(await cache.get('', count)).toEqual({ value: 3, accuracy: 'exact' })
  })

  it('shares one count among concurrent requests and keeps no failure', async () => {
    let counted = 0
    const cache = new CountCache({ seconds: 10 })
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      return ++counted
    }
    const answers = await Promise.all([cache.get('', slow), cache.get('', slow)])
    expect(answers.map((answer) => answer.value)).toEqual([1, 1])
    expect(counted).toBe(1)
    await expect(cache.get('bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(await cache.get('bad', async () => 7)).toEqual({ value: 7, accuracy: 'exact' })
  })

  it('keeps at most maxEntries counts, dropping the oldest', async () => {
    const cache = new CountCache({ seconds: 60, maxEntries: 2 })
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => 1)
    expect(cache.size).toBe(2)
    expect((await cache.get('a', async () => 5)).accuracy).toBe('exact')
  })
})

describe('helpers', () => {
  it('keys a cached count by its condition, bigints included', () => {
    const idAbove = (value: unknown) => onField('id', { op: 'gt', value })
    expect(countKey(undefined)).toBe('')
    expect(countKey(idAbove(10n))).toBe(
      '{"kind":"field","field":"id","test":{"op":"gt","value":"10n"}}'
    )
    // Null sentinels of different kinds (Prisma's DbNull and JsonNull), in a scope's test the plan
    // carries unread, are different keys.
    class DbNull {}
    class JsonNull {}
    const payload = (sentinel: object) => readWhere({ payload: { equals: sentinel } })
    expect(countKey(payload(new DbNull()))).not.toBe(countKey(payload(new JsonNull())))
    expect(countKey(payload(new DbNull()))).toContain('{"equals":"[DbNull]"}')
    expect(countKey(idAbove(10))).not.toBe(countKey(idAbove(11)))
  })
})
