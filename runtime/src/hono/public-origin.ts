/**
 * @module
 * The public origin of the API's absolute IRIs (the `Link` header, `@vocab`, the documentation's
 * IRIs): configured (`baseUrl`), read from `X-Forwarded-Proto` / `X-Forwarded-Host` when the
 * operator trusts a proxy that sets them, or else the request's own URL, whose host is the `Host`
 * header as the client sent it (docs/deployment.md#public-origin-and-proxies).
 */
import type { Context, MiddlewareHandler } from 'hono'

export interface PublicOriginOptions {
  /**
   * The API's public origin, such as `https://api.example.com`: every absolute IRI is written
   * against it, whatever `Host` a client sends. A URL with a path is refused.
   */
  baseUrl?: string | undefined
  /**
   * Read the origin from `X-Forwarded-Proto` and `X-Forwarded-Host` (their first values), as a
   * proxy in front of the app sets them. Only behind a proxy that overwrites them: a client could
   * send them too. Ignored when `baseUrl` is given.
   */
  trustProxy?: boolean | undefined
}

const ORIGIN = Symbol('prisma-hydra public origin')
type OriginCarrier = { [ORIGIN]?: string }

/** The origin set for this request by `publicOrigin`, if any. */
export function configuredOrigin(c: Context): string | undefined {
  return (c.req.raw as Request & OriginCarrier)[ORIGIN]
}

/** `baseUrl` as an origin; throws (at start-up) when it is not an http(s) origin. */
export function originOfBaseUrl(baseUrl: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL, "${baseUrl}" given.`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/') {
    throw new TypeError(
      `baseUrl must be an http(s) origin without a path (mount the app with app.route() for a path), "${baseUrl}" given.`
    )
  }
  return url.origin
}

/** The origin the forwarding headers name, or undefined when they are missing or malformed. */
function forwardedOrigin(c: Context): string | undefined {
  const proto = c.req.header('X-Forwarded-Proto')?.split(',')[0]?.trim().toLowerCase()
  const host = c.req.header('X-Forwarded-Host')?.split(',')[0]?.trim()
  if (!proto && !host) return undefined
  const scheme =
    proto === 'http' || proto === 'https' ? proto : new URL(c.req.url).protocol.slice(0, -1)
  const authority = host || new URL(c.req.url).host
  if (!/^[A-Za-z0-9.\-[\]:]+$/.test(authority)) return undefined
  try {
    const url = new URL(`${scheme}://${authority}`)
    return url.host === authority.toLowerCase() || url.host === authority ? url.origin : undefined
  } catch {
    return undefined
  }
}

/**
 * A middleware fixing the origin of this request's absolute IRIs; undefined when neither option
 * is given (the request's own origin is used, and the app keeps no middleware).
 */
export function publicOrigin(options: PublicOriginOptions): MiddlewareHandler | undefined {
  if (options.baseUrl !== undefined) {
    const origin = originOfBaseUrl(options.baseUrl)
    return function fixedOrigin(c, next) {
      ;(c.req.raw as Request & OriginCarrier)[ORIGIN] = origin
      return next()
    }
  }
  if (options.trustProxy) {
    return function forwardedHeadersOrigin(c, next) {
      const origin = forwardedOrigin(c)
      if (origin !== undefined) (c.req.raw as Request & OriginCarrier)[ORIGIN] = origin
      return next()
    }
  }
  return undefined
}
