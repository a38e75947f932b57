/**
 * @module
 * Waiting as a `503` or `429` asks: its `Retry-After` header (seconds, or an HTTP date), bounded,
 * and cut short by the walk's signal.
 */

/** How a walker retries an answer that asks it to wait. */
export interface RetryOptions {
  /** How many times one request is sent again after a `503` or `429` with `Retry-After` (default 3). */
  retries?: number | undefined
  /** The longest wait, in seconds, a walker accepts; a longer one is not waited for (default 60). */
  maxRetryAfter?: number | undefined
}

/** The default number of retries of one request. */
export const DEFAULT_RETRIES = 3

/** The default longest wait, in seconds. */
export const DEFAULT_MAX_RETRY_AFTER = 60

/**
 * The milliseconds `Retry-After` asks for on a `503` or `429`, or undefined when the answer is not
 * to be retried (another status, no header, an unreadable one, or a wait past `maxSeconds`).
 */
export function retryDelay(
  status: number,
  header: string | null,
  maxSeconds: number,
  now: number = Date.now()
): number | undefined {
  if ((status !== 503 && status !== 429) || header === null) return undefined
  const value = header.trim()
  // Delay-seconds, or an HTTP date (it names its day and month: a bare number is no date).
  const milliseconds = /^\d+$/.test(value)
    ? Number(value) * 1000
    : /^[A-Za-z]{3}, /.test(value)
      ? Date.parse(value) - now
      : Number.NaN
  if (Number.isNaN(milliseconds) || milliseconds > maxSeconds * 1000) return undefined
  return Math.max(milliseconds, 0)
}

/** Resolves after `milliseconds`, or rejects with the signal's reason when it aborts first. */
export function wait(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const abort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort)
      resolve()
    }, milliseconds)
    signal?.addEventListener('abort', abort, { once: true })
  })
}
