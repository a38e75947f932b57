/**
 * @module
 * A text search: a GET of a collection by one of its text filters that matches the value whatever
 * its case, on every database that serves the case-insensitive strategies (filters/
 * caseless-search.ts). Only the MCP endpoint's `search` sends one (hono/app/mcp-route.ts): it is a
 * `Request` object the endpoint marks, which no HTTP client can send, answered by the route as the
 * caller's own request is, under the same rules, but for its answer, which no cache may keep: its
 * URL is that of the HTTP request whose filter may match the case alone (docs/mcp.md).
 */
import type { Context } from 'hono'

/** The `Cache-Control` of a text search's answer: no cache keeps it, under its URL or another. */
export const TEXT_SEARCH_CACHE_CONTROL = 'private, no-store'

/** The requests marked as text searches. */
const searches = new WeakSet<Request>()

/** `request`, marked as a text search. */
export function markTextSearch(request: Request): Request {
  searches.add(request)
  return request
}

/** Whether the request of `c` is a text search. */
export const isTextSearch = (c: Context): boolean => searches.has(c.req.raw)
