/**
 * @module
 * Where the API is served: the request's origin and the path the app is mounted under, which
 * every link, `@context` and the `Link` header to the documentation are written against.
 */
import type { Context } from 'hono'
import { basePath } from 'hono/route'
import { type ApiLocation, docsUrl } from '../../hydra/documentation.js'
import { configuredOrigin } from './public-origin.js'

export const API_DOCUMENTATION_REL = 'http://www.w3.org/ns/hydra/core#apiDocumentation'

/** The context variable holding a mount path found for an error of the app's own (api-mount.ts). */
const MOUNT = 'prisma-hydra mount'

/**
 * The path prefix the app is mounted under: '' at the root, '/api' under `app.route('/api', ...)`.
 *
 * @example
 * IRIs of a custom collection's members under the mount path:
 * ```ts
 * hydraCollection({ context: '/contexts/Genre' }, (request, c) =>
 *   paginateArray([{ '@id': `${mountPrefix(c)}/genres#poetry`, '@type': 'Genre' }], request)
 * )
 * ```
 */
export function mountPrefix(c: Context): string {
  const found: string | undefined = c.get(MOUNT)
  if (found !== undefined) return found
  return asPrefix(basePath(c))
}

/** The mount path of the route at `index` of the request's matched routes, as a prefix. */
export function mountPrefixAt(c: Context, index: number): string {
  return asPrefix(basePath(c, index))
}

/** Writes this request's answers under `prefix`, whichever route answers. */
export function fixMountPrefix(c: Context, prefix: string): void {
  c.set(MOUNT, prefix)
}

function asPrefix(base: string): string {
  return base === '/' ? '' : base.replace(/\/$/, '')
}

/**
 * Where the API is served: its public origin (configured, or forwarded by a trusted proxy: see
 * public-origin.ts; otherwise the request's) and the app's mount path.
 */
export function apiLocation(c: Context): ApiLocation {
  return { origin: configuredOrigin(c) ?? new URL(c.req.url).origin, base: mountPrefix(c) }
}

/** The `Link` header pointing at the API documentation of the API at `location`. */
export function documentationLink(location: ApiLocation): string {
  return `<${docsUrl(location)}>; rel="${API_DOCUMENTATION_REL}"`
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
