/**
 * @module
 * The middleware that records a request's arrival, from which its budget counts
 * (database/request-deadline.ts). The API's app starts with it; an app that runs middleware of
 * its own before the API (authentication, a cache, compression) puts it first, so that their
 * time counts too.
 */
import type { MiddlewareHandler } from 'hono'
import { markArrival } from '../../database/request-deadline.js'

/** Records each request's arrival, then hands it on. */
export function hydraArrival(): MiddlewareHandler {
  return async (c, next) => {
    markArrival(c.req.raw)
    await next()
  }
}
