/**
 * A shared cache in front of a server, as a CDN or Varnish is (docs/caching.md): an HTTP proxy
 * whose every decision (storable, fresh, which stored answer a request's `Vary` matches, how to
 * revalidate, how a 304 updates the stored answer) is `http-cache-semantics`' in shared mode. It
 * keeps answers by URL, marks each answer `X-Cache: HIT`, `MISS` or `REVALIDATED`, and purges by
 * tag on a `PURGE` request with an `xkey` header (vmod xkey's form, which `httpPurge` sends),
 * counting purges and the tags they named. `servedThroughSharedCache` puts it, or a real Varnish
 * (test/support/varnish.ts), in front of a server, as `HYDRA_TEST_SHARED_CACHE` says.
 */
import type { MiddlewareHandler } from 'hono'
import CachePolicy from 'http-cache-semantics'
import { startServer } from './harness.js'
import { startVarnish, varnishPresent } from './varnish.js'

/** The library's 4.2 API, which its DefinitelyTyped types (4.0) do not declare yet. */
type Evaluating = CachePolicy & {
  evaluateRequest(request: CachePolicy.Request): {
    response: { headers: CachePolicy.Headers } | undefined
    revalidation: { headers: CachePolicy.Headers; synchronous: boolean } | undefined
  }
}

/** An answer the cache keeps: its policy, what it sends, and the tags it is purged by. */
interface Stored {
  policy: CachePolicy
  status: number
  headers: Record<string, string>
  body: ArrayBuffer
  tags: string[]
}

/** A request as http-cache-semantics reads it. */
type Asked = { url: string; method: string; headers: Record<string, string> }

/** The headers of a fetch Request or Response as a plain object (lower-case names). */
const plain = (headers: Headers) => Object.fromEntries(headers.entries())

/**
 * `fetch` served, with the shared cache in front of it: the cache's origin, the cache (what it
 * keeps), and a close of both.
 */
export async function servedThroughCache(
  fetch: (request: Request) => Response | Promise<Response>
) {
  const server = await startServer(fetch)
  const cache = await sharedCache(server.origin)
  const close = async () => {
    await cache.close()
    await server.close()
  }
  return { origin: cache.origin, cache, close }
}

/** The shared cache a test runs through: this proxy, or Varnish (`HYDRA_TEST_SHARED_CACHE`). */
const SHARED_CACHE = process.env.HYDRA_TEST_SHARED_CACHE === 'varnish' ? 'varnish' : 'proxy'

/**
 * `fetch` served behind the shared cache `SHARED_CACHE` names: this proxy (the default), or
 * Varnish configured as docs/caching.md says (`HYDRA_TEST_SHARED_CACHE=varnish`, which needs it
 * installed). Its origin, `kept()` (the path and query of each answer the cache kept: stored by
 * the proxy, answered from its cache by Varnish), `clear()` (forget every answer) and a close of
 * both.
 */
export async function servedThroughSharedCache(
  fetch: (request: Request) => Response | Promise<Response>
): Promise<{
  origin: string
  kept: () => Promise<string[]>
  clear: () => Promise<void>
  close: () => Promise<void>
}> {
  if (SHARED_CACHE === 'proxy') {
    const { origin, cache, close } = await servedThroughCache(fetch)
    const kept = async () => [...cache.stored].flatMap(([url, entries]) => entries.map(() => url))
    return { origin, kept, clear: async () => cache.stored.clear(), close }
  }
  if (!varnishPresent('HYDRA_TEST_SHARED_CACHE=varnish'))
    throw new Error('HYDRA_TEST_SHARED_CACHE=varnish needs Varnish with vmod xkey')
  const server = await startServer(fetch)
  const varnish = await startVarnish(server.origin)
  const close = async () => {
    await varnish.stop()
    await server.close()
  }
  return { origin: varnish.origin, kept: varnish.hits, clear: varnish.clear, close }
}

/** The shared cache in front of `origin`, on a server of its own. */
export async function sharedCache(origin: string, tagHeader = 'cache-tag') {
  const stored = new Map<string, Stored[]>()
  const purges: string[][] = []
  const separator = tagHeader === 'cache-tag' ? ',' : ' '

  const forward = (url: string, headers: Record<string, string>) =>
    fetch(`${origin}${url}`, { headers })

  async function answer(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const key = url.pathname + url.search
    if (request.method === 'PURGE') {
      const tags = (request.headers.get('xkey') ?? '').split(' ').filter(Boolean)
      purges.push(tags)
      for (const [at, entries] of stored)
        stored.set(
          at,
          entries.filter((entry) => !entry.tags.some((tag) => tags.includes(tag)))
        )
      return new Response(null, { status: 200 })
    }
    const asked = { url: key, method: request.method, headers: plain(request.headers) }
    for (const entry of stored.get(key) ?? []) {
      const { response, revalidation } = (entry.policy as Evaluating).evaluateRequest(asked)
      if (response && !revalidation) return replay(entry, entry.policy, 'HIT', asked)
      // The library writes the stored validator only when the request's Vary matches the stored
      // answer's: without it, this answer is another request's.
      const conditional = revalidation?.headers as Record<string, string> | undefined
      if (!conditional || conditional['if-none-match'] === undefined) continue
      // Stale: revalidated with the stored validator, as RFC 9111 4.3 says.
      const fresh = await forward(key, conditional)
      const got = { status: fresh.status, headers: plain(fresh.headers) }
      const { policy, modified } = entry.policy.revalidatedPolicy(asked, got)
      if (modified) return keep(key, asked, fresh)
      await fresh.body?.cancel()
      entry.policy = policy
      return replay(entry, policy, 'REVALIDATED', asked)
    }
    return keep(key, asked, await forward(key, asked.headers))
  }

  /** The stored answer, or a 304 when the client's `If-None-Match` names its tag. */
  function replay(entry: Stored, policy: CachePolicy, how: string, asked: Asked): Response {
    const headers = toHeaders({ ...policy.responseHeaders(), 'x-cache': how })
    const tag = headers.get('etag')?.replace(/^W\//, '')
    const wanted = (asked.headers['if-none-match'] ?? '').split(',').map((t) => t.trim())
    if (tag && wanted.some((t) => t.replace(/^W\//, '') === tag || t === '*'))
      return new Response(null, { status: 304, headers })
    return new Response(entry.body.slice(0), { status: entry.status, headers })
  }

  async function keep(
    key: string,
    asked: CachePolicy.Request,
    response: Response
  ): Promise<Response> {
    const headers = plain(response.headers)
    const body = await response.arrayBuffer()
    const policy = new CachePolicy(asked, { status: response.status, headers }, { shared: true })
    if (policy.storable()) {
      const tags = (headers[tagHeader] ?? '').split(separator).filter(Boolean)
      // The new answer replaces the one the same request's Vary selected.
      const entries = (stored.get(key) ?? []).filter(
        (entry) => entry.policy.revalidationHeaders(asked)['if-none-match'] === undefined
      )
      stored.set(key, [...entries, { policy, status: response.status, headers, body, tags }])
    }
    return new Response(body, {
      status: response.status,
      headers: toHeaders({ ...headers, 'x-cache': 'MISS' }),
    })
  }

  const server = await startServer(answer)
  return { ...server, purges, stored }
}

function toHeaders(headers: Record<string, string | string[] | undefined>): Headers {
  const out = new Headers()
  for (const [name, value] of Object.entries(headers))
    if (
      value !== undefined &&
      !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)
    )
      out.set(name, Array.isArray(value) ? value.join(', ') : value)
  return out
}

/**
 * A middleware giving every answer the runtime left without `Cache-Control` a shared freshness of
 * `seconds` (`public, s-maxage`), as `cacheHeaders: { public: true, sharedMaxAge }` on every
 * operation would: the runtime keeps marking a caller's answer `private`. Behind it, a shared
 * cache serves answers without asking the server, so one wrongly shared is seen by the next caller.
 */
export function sharedFreshness(seconds: number): MiddlewareHandler {
  return async (c, next) => {
    await next()
    if (!c.res.headers.has('cache-control'))
      c.res.headers.set('Cache-Control', `public, s-maxage=${seconds}`)
  }
}
