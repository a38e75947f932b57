import { describe, expect, it } from 'vitest'
import { retryDelay, wait } from './retry-after.js'

describe('the wait a Retry-After header asks', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')

  it('reads seconds and HTTP dates on 503 and 429, within the bound', () => {
    expect(retryDelay(503, '2', 60, now)).toBe(2000)
    expect(retryDelay(429, ' 0 ', 60, now)).toBe(0)
    expect(retryDelay(503, 'Thu, 01 Jan 2026 00:00:05 GMT', 60, now)).toBe(5000)
    // A date already past: at once.
    expect(retryDelay(503, 'Wed, 31 Dec 2025 23:59:00 GMT', 60, now)).toBe(0)
  })

  it('retries nothing else: other statuses, no header, an unreadable one, a wait too long', () => {
    expect(retryDelay(500, '1', 60, now)).toBeUndefined()
    expect(retryDelay(503, null, 60, now)).toBeUndefined()
    expect(retryDelay(503, 'soon', 60, now)).toBeUndefined()
    expect(retryDelay(503, '-1', 60, now)).toBeUndefined()
    expect(retryDelay(503, '61', 60, now)).toBeUndefined()
  })

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController()
    const waiting = wait(60_000, controller.signal)
    controller.abort(new Error('stopped'))
    await expect(waiting).rejects.toThrow('stopped')
    await expect(wait(10, controller.signal)).rejects.toThrow('stopped')
  })
})
