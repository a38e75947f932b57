/**
 * @module
 * Where the API is served: the request's origin and the path the app is mounted under, which
 * every link, `@context` and the `Link` header to the documentation are written against.
 */
import type { Context } from 'hono'
import { basePath } from 'hono/route'
import { type ApiLocation, docsUrl } from '../hydra/documentation.js'
import { configuredOrigin } from './public-origin.js'

export const API_DOCUMENTATION_REL = 'http://www.w3.org/ns/hydra/core#apiDocumentation'

/** The path prefix the app is mounted under: '' at the root, '/api' under `app.route('/api', ...)`. */
export function mountPrefix(c: Context): string {
  const base = basePath(c)
  return base === '/' ? '' : base.replace(/\/$/, '')
}

/**
 * Where the API is served: its public origin (configured, or forwarded by a trusted proxy: see
 * public-origin.ts; otherwise the request's) and the app's mount path.
 */
export function apiLocation(c: Context): ApiLocation {
  return { origin: configuredOrigin(c) ?? new URL(c.req.url).origin, base: mountPrefix(c) }
}

/** The `Link` header pointing at the API documentation. */
export function documentationLink(c: Context): string {
  return `<${docsUrl(apiLocation(c))}>; rel="${API_DOCUMENTATION_REL}"`
}

/**
 * The `count`-th segment from the end of `path` (1: the last one), as it is there: `c.req.path`
 * keeps reserved characters percent-encoded, so an item key's segment can be read before its
 * values are decoded.
 */
export function segmentFromEnd(path: string, count: number): string {
  const segments = path.split('/')
  return segments[segments.length - count] ?? ''
}
