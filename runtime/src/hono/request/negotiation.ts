/**
 * @module
 * Content negotiation: the API serves JSON-LD, or plain JSON to a client that prefers it, and
 * refuses with a 406 a client that accepts neither.
 */
import type { Context } from 'hono'
import { accepts } from 'hono/accepts'

export const LD = 'application/ld+json'
export const JSON_TYPE = 'application/json'
export const LD_JSON = `${LD}; charset=utf-8`
export const PLAIN_JSON = `${JSON_TYPE}; charset=utf-8`

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

/** What the 406 problem says. */
export function notAcceptableDetail(c: Context): string {
  return `This API serves ${LD} and ${JSON_TYPE}; the request accepts only: ${c.req.header('Accept')}.`
}
