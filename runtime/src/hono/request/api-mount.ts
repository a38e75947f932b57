/**
 * @module
 * Which API an error answered by the app's own error handler belongs to. A middleware of the app
 * (hono/jwt's 401 for a rejected token) throws before the API's routes run, while the route
 * answering is the app's, at its root: its problem would name `/contexts/Error` and
 * `/docs.jsonld` outside the mount path of `app.route('/api', createHydraApp(...))`. Every request
 * under that path matches the API's first middleware (`publicOrigin`), so the matched routes say
 * where the API is mounted, and that middleware's host check, run now when it has not run,
 * decides the origin of the answer's links.
 */
import type { Context } from 'hono'
import { matchedRoutes } from 'hono/route'
import { findTargetHandler } from 'hono/utils/handler'
import { fixMountPrefix, mountPrefixAt } from './location.js'
import { type OriginCheck, originCheckOf, settleOrigin } from './public-origin.js'

/**
 * Writes this request's answers under the mount path of the API it reached, the innermost when
 * APIs are nested, with its host checked; returns false when the request reached no API (its
 * answers keep the answering route's mount path).
 */
export function enterApi(c: Context): boolean {
  let found: { prefix: string; check: OriginCheck } | undefined
  for (const [index, route] of matchedRoutes(c).entries()) {
    const check = originCheckOf(findTargetHandler(route.handler))
    if (check === undefined) continue
    const prefix = mountPrefixAt(c, index)
    if (found === undefined || prefix.length > found.prefix.length) found = { prefix, check }
  }
  if (found === undefined) return false
  fixMountPrefix(c, found.prefix)
  settleOrigin(c, found.check)
  return true
}
