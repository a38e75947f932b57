/**
 * @module
 * A text search: a GET of a collection by one of its text filters that matches the value whatever
 * its case, on every database that serves the case-insensitive strategies (filters/
 * caseless-search.ts). Only the MCP endpoint's `search` sends one (hono/app/mcp-route.ts): it is a
 * `Request` object the endpoint marks, which no HTTP client can send, answered by the route as the
 * caller's own request is, under the same rules.
 */
import type { Context } from 'hono'

/** The requests marked as text searches. */
const searches = new WeakSet<Request>()

/** `request`, marked as a text search. */
export function markTextSearch(request: Request): Request {
  searches.add(request)
  return request
}

/** Whether the request of `c` is a text search. */
export const isTextSearch = (c: Context): boolean => searches.has(c.req.raw)
