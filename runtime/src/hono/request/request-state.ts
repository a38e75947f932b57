/**
 * @module
 * What a request of the API negotiated and where its documentation is: the media type served and
 * the `Link` header pointing at `/docs.jsonld`. Decided once per request, by the `hydraHeaders`
 * middleware when an app uses it, otherwise by the first response builder that needs it; the
 * builders put both on each response as they create it, so the generated app needs no middleware
 * (without CORS). On @hono/node-server, reading or changing a finished response's headers builds a
 * full `Response`, so the common case touches no finished response.
 */
import type { Context } from 'hono'
import { HydraError, JSON_LD_CONTEXT_REL } from '../../errors.js'
import { isPersonal, varyOf } from '../access/caller-headers.js'
import { apiLocation, documentationLink, mountPrefix } from './location.js'
import {
  JSON_TYPE,
  type LD,
  LD_JSON,
  negotiate,
  notAcceptableDetail,
  PLAIN_JSON,
} from './negotiation.js'

export interface ApiRequestState {
  /** The negotiated type; undefined when the client accepts neither (the answer is a 406). */
  type: typeof LD | typeof JSON_TYPE | undefined
  /** The `Link` header pointing at the API documentation. */
  link: string
  /** The API's public origin, which absolute links are written under. */
  origin: string
}

/** The context variable holding the state. */
const STATE = 'prisma-hydra api state'

/** Whether this request's state is decided (by a `hydraHeaders` middleware or a builder). */
export function hasApiState(c: Context): boolean {
  return c.get(STATE) !== undefined
}

/** The request's negotiated type and documentation link, decided on first use. */
export function apiState(c: Context): ApiRequestState {
  let state: ApiRequestState | undefined = c.get(STATE)
  if (state === undefined) {
    const location = apiLocation(c)
    state = { type: negotiate(c), link: documentationLink(location), origin: location.origin }
    c.set(STATE, state)
  }
  return state
}

/**
 * The longest canonical IRI written in a `Link` header. A request's query, re-encoded, can be three
 * times as long as it was sent; a longer IRI is left out (clients then know the document by the
 * URL they asked for), so that the response head stays within what clients and proxies read
 * (docs/deployment.md#limits).
 */
const MAX_CANONICAL = 2048

/**
 * The longest `Link` header written (docs/deployment.md#limits): a page's view links, which carry
 * the request's query as the canonical IRI does, are left out together past it (a client paging by
 * headers then finds them in the body's view), never one of them alone.
 */
const MAX_LINK = 4096

/**
 * The headers of a JSON-LD response to this request: its content type, `Link` and `Vary`; throws
 * the 406 error when the client accepts neither JSON-LD nor JSON. `canonical`, when given, is the
 * IRI of the document's main resource, written under the public origin as `Link: <…>;
 * rel="canonical"`: Hydra clients (alcaeus) find the main resource by the URL they asked for, or by
 * this link when the two differ (D6). `pages`, a page's view links as `Link` values
 * (hydra/view-link-header.ts), follow.
 */
export function jsonLdHeaders(
  c: Context,
  canonical?: string,
  pages?: string
): Record<string, string> {
  const state = apiState(c)
  if (state.type === undefined) throw notAcceptable(c)
  // Absolute under the API's public origin, as every other link of the header.
  const target = canonical?.startsWith('/') ? `${state.origin}${canonical}` : canonical
  const linked = target !== undefined && target.length <= MAX_CANONICAL
  let link = linked ? `${state.link}, <${target}>; rel="canonical"` : state.link
  if (pages && link.length + 2 + pages.length <= MAX_LINK) link = `${link}, ${pages}`
  const headers: Record<string, string> = {
    'Content-Type': state.type === JSON_TYPE ? PLAIN_JSON : LD_JSON,
    Link: link,
    Vary: varyOf(c),
  }
  // A response that depends on the caller is for the caller's cache only (caller-headers.ts).
  if (isPersonal(c)) headers['Cache-Control'] = 'private'
  return headers
}

/**
 * The `canonical` argument of {@link jsonLdHeaders} for a document whose main resource is `iri`:
 * undefined when the request's path and query already spell it.
 */
export function canonicalFor(c: Context, iri: string): string | undefined {
  const url = c.req.url
  const path = c.req.path
  const start = url.indexOf('?')
  if (start === -1) return iri === path ? undefined : iri
  const end = url.indexOf('#', start)
  const query = url.slice(start, end === -1 ? undefined : end)
  const same =
    iri.length === path.length + query.length && iri.startsWith(path) && iri.endsWith(query)
  return same ? undefined : iri
}

/**
 * Adds `Link` and `Vary` to a response built elsewhere (an error). A problem also links its
 * context (see {@link problemLinks}).
 */
export function withApiHeaders(c: Context, response: Response): Response {
  const { link } = apiState(c)
  if (response.headers.get('Link')?.includes(link)) return response
  const problem = response.headers.get('Content-Type')?.startsWith(PROBLEM_TYPE) === true
  const links = problem ? problemLinks(c) : link
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

/**
 * The `Link` of a problem: the documentation, and the problem's context, absolute. Clients that
 * read only JSON-LD media types (alcaeus) read a problem+json body as JSON-LD when a context is
 * linked, and find its `hydra:Error`.
 */
export function problemLinks(c: Context): string {
  const { origin, base } = apiLocation(c)
  return `${apiState(c).link}, <${origin}${base}/contexts/Error>; rel="${JSON_LD_CONTEXT_REL}"`
}

/** The 406 error of a request that accepts neither JSON-LD nor JSON, thrown before any work. */
export function refuseUnacceptable(c: Context): void {
  if (apiState(c).type === undefined) throw notAcceptable(c)
}

/** The 406 error, under the app's mount path and with the API's `Link` and `Vary`. */
function notAcceptable(c: Context): HydraError {
  return new HydraError(406, notAcceptableDetail(c), {
    base: mountPrefix(c),
    headers: { Link: apiState(c).link, Vary: 'Accept' },
  })
}
