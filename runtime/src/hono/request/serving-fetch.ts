/**
 * @module
 * The `fetch` a server handed a request to, found again from that request's bindings (`c.env`).
 * A server that is given the whole app (`createHydraServer(app.fetch)`) records it, so that a
 * request the API makes of itself for a caller, an MCP tool call, goes through every middleware
 * the app puts on the API's paths, as that caller's HTTP request does.
 */
import type { ExecutionContext } from 'hono'

/** A Hono app's `fetch`, as a server calls it for each request. */
export type ServingFetch = (
  request: Request,
  env?: unknown,
  executionCtx?: ExecutionContext
) => Response | Promise<Response>

// Keyed by each request's own bindings object, which lives as long as the request.
const servers = new WeakMap<object, ServingFetch>()

/** Records that `fetch` serves the request whose bindings are `env`. */
export function recordServingFetch(env: object, fetch: ServingFetch): void {
  servers.set(env, fetch)
}

/** The `fetch` that serves the request whose bindings are `env`, where its server recorded it. */
export function servingFetchOf(env: unknown): ServingFetch | undefined {
  return typeof env === 'object' && env !== null ? servers.get(env) : undefined
}
