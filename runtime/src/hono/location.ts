/**
 * @module
 * Where the API is served: the request's origin and the path the app is mounted under, which
 * every link, `@context` and the `Link` header to the documentation are written against.
 */
import type { Context } from 'hono'
import { basePath, baseRoutePath } from 'hono/route'
import { type ApiLocation, docsUrl } from '../hydra/documentation.js'

export const API_DOCUMENTATION_REL = 'http://www.w3.org/ns/hydra/core#apiDocumentation'

/** The path prefix the app is mounted under: '' at the root, '/api' under `app.route('/api', ...)`. */
export function mountPrefix(c: Context): string {
  // A mount path without parameters is the prefix as it is (Hono's `basePath` would also cache it
  // in a WeakMap entry per request); one with parameters takes their values from the request.
  const route = baseRoutePath(c)
  const base = /[:*]/.test(route) ? basePath(c) : route
  return base === '/' ? '' : base.replace(/\/$/, '')
}

/** The Link of the last origin and mount path served: the same for nearly every request. */
let lastLink = { origin: '', base: '', link: '' }

/** Where the API is served: the request's origin and the app's mount path. */
export function apiLocation(c: Context): ApiLocation {
  return { origin: originOf(c.req.url), base: mountPrefix(c) }
}

/** The `Link` header pointing at the API documentation. */
export function documentationLink(c: Context): string {
  const { origin, base } = apiLocation(c)
  if (origin !== lastLink.origin || base !== lastLink.base) {
    const link = `<${docsUrl({ origin, base })}>; rel="${API_DOCUMENTATION_REL}"`
    lastLink = { origin, base, link }
  }
  return lastLink.link
}

/** The last origin parsed, by the scheme and authority it was parsed from. */
let lastOrigin = { authority: '', origin: '' }

/**
 * The origin of a request URL as `URL` gives it (host lower-cased, default port dropped), parsed
 * only when the scheme and authority differ from the previous request's: a server sees few.
 */
export function originOf(url: string): string {
  const slashes = url.indexOf('//')
  // A URL not in normal form (`http:////host`) is parsed every time: its text before the path
  // would not tell its origin.
  const next = url.charAt(slashes + 2)
  if (slashes === -1 || next === '/' || next === '\\') return new URL(url).origin
  const end = url.indexOf('/', slashes + 2)
  const authority = end === -1 ? url : url.slice(0, end)
  if (authority === lastOrigin.authority) return lastOrigin.origin
  const origin = new URL(url).origin
  lastOrigin = { authority, origin }
  return origin
}
