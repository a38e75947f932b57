/**
 * What a request of the API negotiated and where its documentation is: the media type served and
 * the `Link` header pointing at `/docs.jsonld`. Decided once per request, by the `hydraHeaders`
 * middleware when an app uses it, otherwise by the first response builder that needs it; the
 * builders put both on each response as they create it. The generated app has no middleware on
 * its routes (without CORS): a middleware makes Hono run every request through its composed
 * chain, which keeps each request's objects alive longer (measured: twice the bytes surviving each
 * young-generation collection, `npm run bench:throughput`). On @hono/node-server, reading or
 * changing a finished response's headers builds a full `Response`, so the common case touches no
 * finished response.
 */
import type { Context } from 'hono'
import { accepts } from 'hono/accepts'
import { basePath, baseRoutePath } from 'hono/route'
import { HydraError, JSON_LD_CONTEXT_REL } from '../errors.js'
import { type ApiLocation, docsUrl } from '../hydra/documentation.js'

export const LD = 'application/ld+json'
export const JSON_TYPE = 'application/json'
export const LD_JSON = `${LD}; charset=utf-8`
const PLAIN_JSON = `${JSON_TYPE}; charset=utf-8`

export const API_DOCUMENTATION_REL = 'http://www.w3.org/ns/hydra/core#apiDocumentation'

export interface ApiRequestState {
  /** The negotiated type; undefined when the client accepts neither (the answer is a 406). */
  type: typeof LD | typeof JSON_TYPE | undefined
  /** The `Link` header pointing at the API documentation. */
  link: string
}

/**
 * The state rides on the request object itself under a private key: a WeakMap entry per request
 * would cost every garbage collection a pass over the map. (A `Request` object handed on to a
 * second app mounted elsewhere keeps the first app's state; Hono's own mounting builds a new one.)
 */
const STATE = Symbol('prisma-hydra api state')
type StateCarrier = { [STATE]?: ApiRequestState }

/** Whether this request's state is decided (by a `hydraHeaders` middleware or a builder). */
export function hasApiState(c: Context): boolean {
  return (c.req.raw as Request & StateCarrier)[STATE] !== undefined
}

/** The request's negotiated type and documentation link, decided on first use. */
export function apiState(c: Context): ApiRequestState {
  const carrier = c.req.raw as Request & StateCarrier
  let state = carrier[STATE]
  if (state === undefined) {
    state = { type: negotiate(c), link: documentationLink(c) }
    carrier[STATE] = state
  }
  return state
}

/**
 * The headers of a JSON-LD response to this request: its content type, `Link` and `Vary`; throws
 * the 406 error when the client accepts neither JSON-LD nor JSON. `canonical`, when given, is the
 * IRI of the document's main resource, written as `Link: <…>; rel="canonical"`: Hydra clients
 * (alcaeus) find the main resource by the URL they asked for, or by this link when the two differ
 * (D6).
 */
export function jsonLdHeaders(c: Context, canonical?: string): Record<string, string> {
  const state = apiState(c)
  if (state.type === undefined) throw notAcceptable(c)
  return {
    'Content-Type': state.type === JSON_TYPE ? PLAIN_JSON : LD_JSON,
    Link: canonical === undefined ? state.link : `${state.link}, <${canonical}>; rel="canonical"`,
    Vary: 'Accept',
  }
}

/**
 * The `canonical` argument of {@link jsonLdHeaders} for a document whose main resource is `iri`:
 * undefined when the request's path and query already spell it.
 */
export function canonicalFor(c: Context, iri: string): string | undefined {
  const url = c.req.url
  const start = url.indexOf('?')
  if (start === -1) return iri === c.req.path ? undefined : iri
  const end = url.indexOf('#', start)
  const query = url.slice(start, end === -1 ? undefined : end)
  return iri.length === c.req.path.length + query.length &&
    iri.startsWith(c.req.path) &&
    iri.endsWith(query)
    ? undefined
    : iri
}

/**
 * Adds `Link` and `Vary` to a response built elsewhere (an error). A problem also links its
 * context, absolute: clients that read only JSON-LD media types (alcaeus) read a problem+json body
 * as JSON-LD when a context is linked, and find its `hydra:Error`.
 */
export function withApiHeaders(c: Context, response: Response): Response {
  const { link } = apiState(c)
  if (response.headers.get('Link')?.includes(link)) return response
  const problem = response.headers.get('Content-Type')?.startsWith(PROBLEM_TYPE) === true
  const links = problem
    ? `${link}, <${errorContextUrl(apiLocation(c))}>; rel="${JSON_LD_CONTEXT_REL}"`
    : link
  let target = response
  try {
    target.headers.append('Link', links)
  } catch {
    // Headers that cannot change (a response that was fetched): copy it first.
    target = new Response(response.body, response)
    target.headers.append('Link', links)
  }
  target.headers.append('Vary', 'Accept')
  return target
}

const PROBLEM_TYPE = 'application/problem+json'
const errorContextUrl = ({ origin, base }: ApiLocation) => `${origin}${base}/contexts/Error`

/** The 406 error of a request that accepts neither JSON-LD nor JSON, thrown before any work. */
export function refuseUnacceptable(c: Context): void {
  if (apiState(c).type === undefined) throw notAcceptable(c)
}

/** The 406 error, under the app's mount path and with the API's `Link` and `Vary`. */
export function notAcceptable(c: Context): HydraError {
  return new HydraError(406, notAcceptableDetail(c), {
    base: mountPrefix(c),
    headers: { Link: apiState(c).link, Vary: 'Accept' },
  })
}

/** What the 406 problem says. */
export function notAcceptableDetail(c: Context): string {
  return `This API serves ${LD} and ${JSON_TYPE}; the request accepts only: ${c.req.header('Accept')}.`
}

/**
 * The media type a request's `Accept` header allows: each of JSON-LD and JSON takes the quality of
 * the most specific range that matches it (`application/json` over `application/*` over `*\/*`),
 * the better one wins and a tie goes to JSON-LD; undefined when the client accepts neither.
 */
export function negotiate(c: Context): typeof LD | typeof JSON_TYPE | undefined {
  // No Accept header, or the usual ones: no parsing needed.
  const header = c.req.header('Accept')
  if (header === undefined || header === '*/*' || header === LD) return LD
  const chosen = accepts(c, {
    header: 'Accept',
    supports: [LD, JSON_TYPE],
    default: LD,
    match: (ranges) => {
      const quality = (candidate: string): number => {
        let best = { specificity: 0, q: 0 }
        for (const range of ranges) {
          const specificity = matches(range.type.toLowerCase(), candidate)
          if (specificity > best.specificity)
            best = { specificity, q: Math.min(Math.max(range.q, 0), 1) }
        }
        return best.q
      }
      const ld = quality(LD)
      const json = quality(JSON_TYPE)
      if (ld === 0 && json === 0) return ''
      return json > ld ? JSON_TYPE : LD
    },
  })
  return chosen === LD || chosen === JSON_TYPE ? chosen : undefined
}

/** How specifically a media range matches a type: 3 exactly, 2 by `type/*`, 1 by `*\/*`, 0 not. */
function matches(range: string, type: string): number {
  if (range === type) return 3
  if (range === '*/*' || range === '*') return 1
  if (range.endsWith('/*') && type.startsWith(range.slice(0, -1))) return 2
  return 0
}

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

function documentationLink(c: Context): string {
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
