/**
 * @module
 * Other methods on the API's routes (docs/errors.md#other-methods-405): the API only reads, so a `POST`, `PUT`,
 * `PATCH` or `DELETE` on a path it serves is a 405 problem with `Allow`, not a 404. `OPTIONS` (not
 * a CORS preflight, which the CORS middleware answers first) is a 204 with `Allow`.
 */
import type { Context } from 'hono'
import { apiProblem } from './api-problem.js'

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS'

/**
 * The handler for every method of a path the API serves with GET, registered after the GET route
 * (`app.all(path, methodNotAllowed)`): GET and HEAD never reach it.
 */
export function methodNotAllowed(c: Context): Response {
  if (c.req.method === 'OPTIONS') {
    return new Response(null, { status: 204, headers: { Allow: ALLOWED_METHODS } })
  }
  return apiProblem(
    c,
    405,
    `${c.req.method} is not allowed on ${c.req.path}; this API allows ${ALLOWED_METHODS}.`,
    {},
    [['Allow', ALLOWED_METHODS]]
  )
}
