/**
 * @module
 * The bound on a request's target (its path and query): longer targets are answered `414`, so no
 * link the API writes from a query can grow without bound (docs/deployment.md#limits).
 */
import type { Context } from 'hono'
import { HydraError } from '../../errors.js'

/** The longest request target (path and query string) the API reads: 8 KB, as most servers. */
export const MAX_REQUEST_TARGET = 8192

/** Throws the 414 of a request whose target is longer than {@link MAX_REQUEST_TARGET}. */
export function refuseLongTarget(c: Context): void {
  const url = c.req.url
  const target = url.length - url.indexOf('/', url.indexOf('//') + 2)
  if (target > MAX_REQUEST_TARGET) {
    throw new HydraError(
      414,
      `The request target (path and query string) is ${target} characters long; this API reads at most ${MAX_REQUEST_TARGET}.`
    )
  }
}
