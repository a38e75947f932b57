/**
 * @module
 * The API's problem responses to a request: under the app's mount path, with the `Link` to the
 * documentation and `Vary: Accept`, built by the one problem builder (`problemResponse`).
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { type ErrorOptions, type HydraError, problemResponse } from '../../errors.js'
import { callerHeaders } from '../access/caller-headers.js'
import { preferVary } from '../request/count-preference.js'
import { mountPrefix } from '../request/location.js'
import { notAcceptableDetail } from '../request/negotiation.js'
import { apiState, problemLinks } from '../request/request-state.js'

/**
 * A problem of the API; `style` leaves out the mount path to take the request's; `headers` are
 * added to the API's own (`Allow` of a 405).
 */
export function apiProblem(
  c: Context,
  status: ContentfulStatusCode,
  detail: string,
  style: ErrorOptions = {},
  headers: [string, string][] = []
): Response {
  return problemResponse(status, detail, {
    base: style.base ?? mountPrefix(c),
    hydraPrefix: style.hydraPrefix,
    headers: [...apiHeaders(c), ...headers],
  })
}

/** A thrown HydraError's problem, in its own style or the app's for what it leaves out. */
export function hydraErrorProblem(c: Context, error: HydraError, app: ErrorOptions): Response {
  const headers = Object.entries(error.headers ?? {})
  const { link } = apiState(c)
  // The 406 error carries the API's Link and Vary already.
  if (!headers.some(([name, value]) => name === 'Link' && value.includes(link))) {
    headers.push(...apiHeaders(c))
  } else headers.push(...callerHeaders(c), ...preferVary(c))
  return problemResponse(error.status, error.detail, {
    base: error.style.base ?? app.base ?? mountPrefix(c),
    hydraPrefix: error.style.hydraPrefix ?? app.hydraPrefix,
    headers,
  })
}

/** The 406 refusal of a request that accepts neither JSON-LD nor JSON. */
export function refusalProblem(c: Context, hydraPrefix: boolean | undefined): Response {
  return apiProblem(c, 406, notAcceptableDetail(c), { hydraPrefix })
}

/**
 * The `Link` to the documentation (and to the problem's context) and `Vary: Accept`, as every
 * problem of the API has them; `Cache-Control: private` and the caller's `Vary` when an access
 * rule bore on the request; `Vary: Prefer` when the operation lets clients choose their totals.
 */
function apiHeaders(c: Context): [string, string][] {
  return [['Link', problemLinks(c)], ['Vary', 'Accept'], ...callerHeaders(c), ...preferVary(c)]
}
