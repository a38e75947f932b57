/**
 * @module
 * The headers of a response that depends on the caller (docs/security.md#shared-caches): when an
 * access rule bore on the request, its answer (a page, an item, a 404, a 401 or 403) is
 * `Cache-Control: private` and varies by the headers the caller is known by, so that no shared
 * cache hands one caller's rows to another (RFC 9111 §3.5, §4.1). `private` wins over any public
 * caching the API would otherwise allow.
 */
import type { Context } from 'hono'
import { personalVary } from './request-caller.js'

/** `Cache-Control` and `Vary` of a personal response; none for a public one. */
export function callerHeaders(c: Context): [string, string][] {
  const vary = personalVary(c)
  if (!vary) return []
  const headers: [string, string][] = [['Cache-Control', 'private']]
  if (vary.length > 0) headers.push(['Vary', vary.join(', ')])
  return headers
}

/** Whether the answer to this request depends on the caller (`Cache-Control: private`). */
export const isPersonal = (c: Context): boolean => personalVary(c) !== undefined

/** The `Vary` of a JSON-LD response: `Accept`, and the caller's headers on a personal one. */
export function varyOf(c: Context): string {
  const vary = personalVary(c)
  return vary ? ['Accept', ...vary].join(', ') : 'Accept'
}
