/**
 * @module
 * The MCP endpoint's place in an API's app (docs/mcp.md): `/mcp` under its mount path, and the
 * road its tool calls take. A call is a GET request answered by the API's own routes, under the
 * same mount path, as the caller of the `/mcp` request: with the request headers it is known by
 * (`Authorization`, `Cookie`, or the app's `authentication.vary`) and the host and forwarding
 * headers its links are written for, and with what the app's own middleware put on the `/mcp`
 * request's context (the verified token's claims the access rules read). So every rule applies
 * as it does over HTTP, and nothing is read that the same caller could not read there.
 */
import { type Context, type Env, Hono, type MiddlewareHandler, type Schema } from 'hono'
import type { HonoBase } from 'hono/hono-base'
import { CALLER_HEADERS } from '../../data/caller-view.js'
import type { ApiDescription } from '../../hydra/documentation.js'
import { type HydraLogger, loggerOf } from '../../observe/logger.js'
import { mountPrefix } from '../request/location.js'
import { markSearchProbe } from '../request/search-probe.js'
import { markTextSearch } from '../request/text-search.js'
import type { McpEndpoint, ToolDispatch } from '../routes/app-options.js'

/** The headers a tool call keeps of the `/mcp` request, besides those the caller is known by. */
const LOCATION_HEADERS = ['X-Forwarded-Proto', 'X-Forwarded-Host']

/** What the app's middleware set on each tool call's `/mcp` request, by the call's request. */
const callers = new WeakMap<Request, Record<string, unknown>>()

/** The prefix of the runtime's own per-request variables (negotiation, tags, mount). */
const RUNTIME_VARIABLE = 'prisma-hydra '

/** How many mount paths' routers are kept: a mount path with parameters has one a value. */
const MOUNTS_KEPT = 32

/**
 * Sets on a tool call's context what the app's middleware set on its `/mcp` request's: the
 * caller it verified, not the runtime's own state of that request (its negotiated type, its tags).
 */
const carryCaller: MiddlewareHandler = (c, next) => {
  for (const [name, value] of Object.entries(callers.get(c.req.raw) ?? {}))
    if (!name.startsWith(RUNTIME_VARIABLE)) c.set(name, value)
  return next()
}

/**
 * Serves `endpoint` at `/mcp` on `app`, its tool calls answered by `app`'s routes mounted where
 * the `/mcp` request found them, each a span of its own unless `tracing` (the app's option) is
 * `false`, its failures logged to `logger` (the app's). Call it once every route of `app` is in
 * place.
 */
export function serveMcp<E extends Env, S extends Schema, B extends string, P extends string>(
  app: HonoBase<E, S, B, P>,
  api: ApiDescription,
  endpoint: McpEndpoint,
  { logger, tracing }: { logger?: HydraLogger | undefined; tracing?: boolean | undefined } = {}
): void {
  const mounted = new Map<string, Hono>()
  const known = [...(api.authentication?.vary ?? CALLER_HEADERS), ...LOCATION_HEADERS]
  const request = (c: Context, target: string, textSearch = false) => {
    const headers = new Headers({ Accept: 'application/ld+json' })
    for (const name of known) {
      const value = c.req.header(name)
      if (value !== undefined) headers.set(name, value)
    }
    const call = new Request(new URL(target, c.req.url), { headers })
    return textSearch ? markTextSearch(call) : call
  }
  /** `call`, a request of the caller of `c`, answered by the API's routes under its mount path. */
  const answer = (c: Context, call: Request) => {
    const base = mountPrefix(c)
    let router = mounted.get(base)
    if (router === undefined) {
      // The app's routes under the same mount path: the links they write are the ones it serves.
      router = new Hono().use(carryCaller).route(base || '/', app)
      // The oldest goes first: a mount path's parameters cannot grow the map without bound.
      if (mounted.size >= MOUNTS_KEPT) mounted.delete(mounted.keys().next().value ?? '')
      mounted.set(base, router)
    }
    callers.set(call, c.var)
    return router.fetch(call)
  }
  const dispatch: ToolDispatch = async (c, target) => answer(c, request(c, target))
  const probe: ToolDispatch = async (c, target) => answer(c, markSearchProbe(request(c, target)))
  const search: ToolDispatch = async (c, target) => answer(c, request(c, target, true))
  const routes = new Set(
    app.routes.filter(({ method }) => method === 'GET').map(({ path }) => path)
  )
  const serves = (path: string) => routes.has(path.replace(/\{([^}]+)\}/g, ':$1'))
  app.all(
    '/mcp',
    endpoint({
      description: api,
      dispatch,
      probe,
      search,
      request,
      serves,
      logger: loggerOf(logger),
      tracing,
    })
  )
}
