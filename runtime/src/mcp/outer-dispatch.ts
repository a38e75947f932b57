/**
 * @module
 * Tool calls through the app the API is mounted in: each call a request of the caller's, sent
 * to that app's `fetch` with the `/mcp` request's bindings, so that every middleware the app puts
 * on the API's paths (a guard on `/api/loans/*`, a rate limit) meets it as it meets the same
 * caller's HTTP request, and the API's own middleware verifies its credentials again.
 */
import type { Context, ExecutionContext } from 'hono'
import { servingFetchOf } from '../hono/request/serving-fetch.js'
import type { McpApi, ToolDispatch } from '../hono/routes/app-options.js'

/** What a tool call needs of the app the API is mounted in: Hono's `app.fetch`. */
export interface MountingApp {
  /** Answers `request` with the runtime's bindings `env` and, on Workers, its `executionCtx`. */
  fetch(
    request: Request,
    env?: unknown,
    executionCtx?: ExecutionContext
  ): Response | Promise<Response>
}

/** The `/mcp` request's execution context on Workers; none elsewhere, where Hono throws. */
function executionOf(c: Context): ExecutionContext | undefined {
  try {
    return c.executionCtx
  } catch {
    return undefined
  }
}

/**
 * A tool call's bindings: the `/mcp` request's, but for Node's response to it
 * (`@hono/node-server`'s `outgoing`), which is not the tool call's to write or cut: a collection
 * whose stream fails cuts its own response's connection (hono/response/stream-cut.ts), which would
 * be the `/mcp` one; without it, its body errs, and the tool call answers an error.
 */
function bindingsOf(c: Context): unknown {
  const env: unknown = c.env
  if (typeof env !== 'object' || env === null || !('outgoing' in env)) return env
  const { outgoing: _, ...rest } = env as Record<string, unknown>
  return rest
}

/**
 * The dispatch of `api`'s tool calls through the app `outer()` returns (text searches where
 * `textSearch` is true: hono/request/text-search.ts).
 */
export function throughApp(
  api: McpApi,
  outer: () => MountingApp,
  textSearch = false
): ToolDispatch {
  return async (c, target) =>
    outer().fetch(api.request(c, target, textSearch), bindingsOf(c), executionOf(c))
}

/**
 * The dispatch of `api`'s tool calls through the whole app where the server of the `/mcp` request
 * knows it (`createHydraServer(app.fetch)` records it in each request's bindings); elsewhere
 * through the API's own routes (text searches where `textSearch` is true).
 */
export function throughServingApp(api: McpApi, textSearch = false): ToolDispatch {
  return async (c, target) => {
    const serving = servingFetchOf(c.env)
    if (serving) return serving(api.request(c, target, textSearch), bindingsOf(c), executionOf(c))
    return textSearch ? api.search(c, target) : api.dispatch(c, target)
  }
}
