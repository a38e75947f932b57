/**
 * @module
 * The headers of a response that depends on the caller (docs/security.md#shared-caches): when an
 * access rule bore on the request, its answer (a page, an item, a 404, a 401 or 403) is
 * `Cache-Control: private` and varies by the headers the caller is known by, so that no shared
 * cache hands one caller's rows to another (RFC 9111 §3.5, §4.1). `private` wins over any public
 * caching the API would otherwise allow, except on an anonymous request whose rules declare they
 * read only credentials (docs/caching.md): that answer is every anonymous caller's, and keeps its
 * `Vary` so that a cache never hands it to a request with credentials.
 */
import type { Context } from 'hono'
import { callerAnswer, personalVary } from './request-caller.js'

/**
 * `Cache-Control` and `Vary` of a problem (a 401, 403, 404) a rule bore on; none for a public
 * one. A caller's problem is `private`. The anonymous problem every anonymous caller shares
 * (docs/caching.md) is `no-store`: it carries no cache tags, so a write making the row appear
 * could not purge it, and no validator to revalidate it with, while a CDN left to its defaults
 * keeps a 404 for minutes (Cloudflare's three).
 */
export function callerHeaders(c: Context): [string, string][] {
  const answer = callerAnswer(c)
  if (!answer) return []
  const headers: [string, string][] = [['Cache-Control', answer.shared ? 'no-store' : 'private']]
  if (answer.vary.length > 0) headers.push(['Vary', answer.vary.join(', ')])
  return headers
}

/** Whether the answer to this request is for its caller alone (`Cache-Control: private`). */
export const isPersonal = (c: Context): boolean => callerAnswer(c)?.shared === false

/** The `Vary` of a JSON-LD response: `Accept`, and the caller's headers on a personal one. */
export function varyOf(c: Context): string {
  const vary = personalVary(c)
  return vary ? ['Accept', ...vary].join(', ') : 'Accept'
}
