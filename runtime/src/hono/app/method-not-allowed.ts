/**
 * @module
 * Other methods on the API's routes (docs/errors.md#other-methods-405): the API only reads, so a `POST`, `PUT`,
 * `PATCH` or `DELETE` on a path it serves is a 405 problem with `Allow`, not a 404. `OPTIONS` (not
 * a CORS preflight, which the CORS middleware answers first) is a 204 with `Allow`.
 */
import type { Context, Env, Schema } from 'hono'
import type { HonoBase } from 'hono/hono-base'
import { apiProblem } from '../response/api-problem.js'

const ALLOWED_METHODS = 'GET, HEAD, OPTIONS'

/**
 * The handler for every method of a path the API serves with GET, registered after the GET route
 * (`app.all(path, methodNotAllowed)`, or `allowReadsOnly(app)` for every path at once): GET and
 * HEAD never reach it.
 *
 * @example
 * ```ts
 * // POST /genres: a 405 problem with Allow: GET, HEAD, OPTIONS
 * app.get('/genres', listGenres).all('/genres', methodNotAllowed)
 * ```
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

/**
 * Registers `methodNotAllowed` on every path `app` serves with GET, from its own route table: the
 * 405 (and the 204 of `OPTIONS`) of the paths its sub-apps already answer that way (copied by
 * `route`) is not registered twice. Call it once the GET routes are in place; returns `app`.
 */
export function allowReadsOnly<E extends Env, S extends Schema, B extends string, P extends string>(
  app: HonoBase<E, S, B, P>
): HonoBase<E, S, B, P> {
  const routes = [...app.routes]
  const answered = new Set(
    routes.filter((route) => route.handler === methodNotAllowed).map((route) => route.path)
  )
  for (const { method, path } of routes) {
    if (method !== 'GET' || answered.has(path)) continue
    answered.add(path)
    app.all(path, methodNotAllowed)
  }
  return app
}
