/**
 * @module
 * The public origin of the API's absolute IRIs (the `Link` header, `@vocab`, the documentation's
 * IRIs): configured (`baseUrl`), read from `X-Forwarded-Proto` / `X-Forwarded-Host` when the
 * operator trusts a proxy that sets them, or else the request's own URL; a host that is malformed
 * or not allowed is refused with a `400` before it can reach a link
 * (docs/deployment.md#public-origin-and-proxies).
 *
 * The request's host is its URL's: the `Host` header, or the authority of a request target in
 * absolute form (`GET http://api.example.com/books HTTP/1.1`), which RFC 9112 §3.2.2 makes the
 * request's host whatever `Host` says (Node's adapter builds the request's URL from that target).
 * `Host` must still be well formed when it is sent.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { HydraError } from '../../errors.js'
import { hostAllowed, hostName, LOOPBACK_HOSTS } from './allowed-hosts.js'
import { BAD_HOST, BAD_TARGET_HOST } from './request-error.js'
import { refuseLongTarget } from './request-target.js'

/**
 * Options of `publicOrigin`, as `createHydraApp` takes them: where absolute IRIs point, which hosts
 * are answered.
 */
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
  /**
   * The hosts the API answers for (`Host`, or `X-Forwarded-Host` with `trustProxy`): names, or
   * `.example.com` for a domain and every name under it, or `*` for any. Any other host is a 400.
   * Default: any host when `baseUrl` is given (it reaches no link), otherwise this machine's only
   * (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`), for development.
   */
  allowedHosts?: readonly string[] | undefined
}

const ORIGIN = Symbol('prisma-hydra public origin')
/** The origin of the request's links once its host is checked; `null`: the request's own. */
type OriginCarrier = { [ORIGIN]?: string | null }

/** The origin set for this request by `publicOrigin`, if any. */
export function configuredOrigin(c: Context): string | undefined {
  return (c.req.raw as Request & OriginCarrier)[ORIGIN] ?? undefined
}

/** `baseUrl` as an origin; throws (at start-up) when it is not an http(s) origin. */
function originOfBaseUrl(baseUrl: string): string {
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
  const authority = host && hostName(host) !== undefined ? host : requestHost(c)
  if (hostName(authority) === undefined) return undefined
  try {
    return new URL(`${scheme}://${authority}`).origin
  } catch {
    return undefined
  }
}

/** The host the request names: its URL's authority, as the URL writes it (links are its origin's). */
function requestHost(c: Context): string {
  const url = c.req.url
  const start = url.indexOf('//') + 2
  const end = url.indexOf('/', start)
  return url.slice(start, end === -1 ? undefined : end)
}

/** Links of a refused request are relative: nothing of its host reaches them. */
const REFUSED = ''

function refuse(c: Context, origin: string, detail: string): never {
  ;(c.req.raw as Request & OriginCarrier)[ORIGIN] = origin
  throw new HydraError(400, detail)
}

/** Checks a request's target and host; throws the refusal, or fixes the origin of its links. */
export type OriginCheck = (c: Context) => void

/** The check of each `publicOrigin` middleware, by the middleware. */
const checks = new WeakMap<object, OriginCheck>()

/** The host check of `handler` when it is a `publicOrigin` middleware. */
export function originCheckOf(handler: object): OriginCheck | undefined {
  return checks.get(handler)
}

/**
 * Runs `check` on a request no `publicOrigin` middleware has checked yet (an error of the app's
 * own middleware, thrown before the API's routes ran), without throwing: a host that is refused
 * leaves the links of the answer relative, so nothing of it reaches them.
 */
export function settleOrigin(c: Context, check: OriginCheck): void {
  if (ORIGIN in (c.req.raw as Request & OriginCarrier)) return
  try {
    check(c)
  } catch {
    // The refusal set the origin of a refused request (the configured one, or none).
  }
}

/**
 * The middleware every request of the generated app goes through: it refuses a request target
 * longer than the API reads (414) and a host that is malformed or not allowed (400), and fixes
 * the origin of this request's absolute IRIs.
 *
 * @example
 * Custom collections served without the generated app, behind a proxy:
 * ```ts
 * app.use(publicOrigin({ trustProxy: true, allowedHosts: ['api.example.com'] }))
 * ```
 */
export function publicOrigin(options: PublicOriginOptions): MiddlewareHandler {
  const check = originCheck(options)
  const forwarding = options.trustProxy === true && options.baseUrl === undefined
  const middleware: MiddlewareHandler = async function publicOriginOf(c, next) {
    check(c)
    await next()
    if (forwarding) varyByForwarding(c)
  }
  checks.set(middleware, check)
  return middleware
}

/** The request headers an answer's origin is read from with `trustProxy`. */
const FORWARDING = ['X-Forwarded-Host', 'X-Forwarded-Proto']

/**
 * The answer made varying by the forwarding headers, which its links were written from: a shared
 * cache keeps the answer of one `X-Forwarded-Host` for requests sending the same one only, so
 * that no client's header sets the links every later caller gets.
 */
function varyByForwarding(c: Context): void {
  const vary = c.res.headers.get('Vary')
  if (vary?.trim() === '*') return
  const named = new Set(vary?.split(',').map((name) => name.trim().toLowerCase()))
  const added = FORWARDING.filter((name) => !named.has(name.toLowerCase()))
  if (added.length === 0) return
  const value = [vary, ...added].filter(Boolean).join(', ')
  try {
    c.res.headers.set('Vary', value)
  } catch {
    // A response whose headers are immutable (one `fetch` returned) is copied first.
    c.res = new Response(c.res.body, c.res)
    c.res.headers.set('Vary', value)
  }
}

/** The check of `publicOrigin`'s options. */
function originCheck(options: PublicOriginOptions): OriginCheck {
  const fixed = options.baseUrl === undefined ? undefined : originOfBaseUrl(options.baseUrl)
  const allowed = options.allowedHosts ?? (fixed === undefined ? LOOPBACK_HOSTS : ['*'])
  const trustProxy = options.trustProxy === true && fixed === undefined
  return (c) => {
    const carrier = c.req.raw as Request & OriginCarrier
    // Until the host is checked, an answer's links carry nothing of it.
    carrier[ORIGIN] = fixed ?? REFUSED
    refuseLongTarget(c)
    const header = c.req.header('Host')
    if (header !== undefined && hostName(header) === undefined)
      refuse(c, fixed ?? REFUSED, BAD_HOST)
    const name = hostName(requestHost(c))
    if (name === undefined) refuse(c, fixed ?? REFUSED, BAD_TARGET_HOST)
    const forwarded = trustProxy ? forwardedOrigin(c) : undefined
    const served = forwarded === undefined ? name : (hostName(new URL(forwarded).host) as string)
    if (!hostAllowed(served, allowed)) {
      refuse(
        c,
        fixed ?? REFUSED,
        'The host the request names is not one this server answers for (see its allowedHosts option).'
      )
    }
    // The configured origin, the forwarded one, or the request's own, whose host was just checked.
    carrier[ORIGIN] = fixed ?? forwarded ?? null
  }
}
