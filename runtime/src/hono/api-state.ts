/**
 * What the `hydraHeaders` middleware decided for a request, kept for the response builders: the
 * negotiated media type and the documentation's `Link`. The builders put them on each response
 * as they create it, so the common case touches no finished response (on @hono/node-server,
 * reading or changing a finished response's headers makes it build a full `Response`, a cost every
 * request would pay).
 */
import type { Context } from 'hono'

export const LD = 'application/ld+json'
export const JSON_TYPE = 'application/json'
export const LD_JSON = `${LD}; charset=utf-8`
const PLAIN_JSON = `${JSON_TYPE}; charset=utf-8`

export interface ApiRequestState {
  /** The negotiated type; undefined when the client accepts neither (the middleware answers 406). */
  type: typeof LD | typeof JSON_TYPE | undefined
  /** The `Link` header pointing at the API documentation. */
  link: string
}

const states = new WeakMap<Request, ApiRequestState>()

export function setApiState(c: Context, state: ApiRequestState): void {
  states.set(c.req.raw, state)
}

export function apiState(c: Context): ApiRequestState | undefined {
  return states.get(c.req.raw)
}

/** The headers of a JSON-LD response to this request: its content type, `Link` and `Vary`. */
export function jsonLdHeaders(c: Context): Record<string, string> {
  const state = states.get(c.req.raw)
  if (!state) return { 'Content-Type': LD_JSON }
  return {
    'Content-Type': state.type === JSON_TYPE ? PLAIN_JSON : LD_JSON,
    Link: state.link,
    Vary: 'Accept',
  }
}

/** Adds `Link` and `Vary` to a response built elsewhere (an error), when the request has them. */
export function withApiHeaders(c: Context, response: Response): Response {
  const state = states.get(c.req.raw)
  if (!state) return response
  let target = response
  try {
    target.headers.append('Link', state.link)
  } catch {
    // Headers that cannot change (a response that was fetched): copy it first.
    target = new Response(response.body, response)
    target.headers.append('Link', state.link)
  }
  target.headers.append('Vary', 'Accept')
  return target
}
