/**
 * @module
 * Whether a request reached a generated app (under its mount path) before no route answered it.
 * The generated app's last route (`serveUnmatched`) marks the requests it hands on to the
 * not-found handler; a request the outer app alone saw is outside every mount path, where the
 * API's contexts, error documents and documentation do not exist: its 404 names none of them.
 */
import type { Context } from 'hono'
import { PROBLEM_JSON } from '../../errors.js'

/** The context variable marking a request inside a generated app. */
const INSIDE = 'prisma-hydra inside the api'

/** Marks `c` as a request of a generated app (its mount path is known). */
export function markInsideApi(c: Context): void {
  c.set(INSIDE, true)
}

/** Whether a generated app saw `c` (otherwise no mount path of the API is known). */
export function insideApi(c: Context): boolean {
  return c.get(INSIDE) === true
}

/**
 * The 404 of a request outside every generated app: a plain problem (RFC 9457), with no
 * `@context`, error IRI or `Link` to documentation that would not resolve there.
 */
export function outsideNotFound(c: Context): Response {
  const detail = `No route matches ${c.req.method} ${c.req.path}.`
  return new Response(JSON.stringify({ title: 'Not Found', detail, status: 404 }), {
    status: 404,
    headers: { 'Content-Type': PROBLEM_JSON },
  })
}
