/**
 * @module
 * Cache tags (docs/caching.md): every answer a shared cache may keep names, in the header a CDN
 * reads (`Cache-Tag`, `Surrogate-Key`, `xkey`), what it shows, so that a write purges exactly the
 * answers that may have changed:
 *
 * - **model tags**, the name of every model whose rows the answer reads (`Book`; a page of loans
 *   filtered by their book's title reads `Loan` and `Book`): purged by any write of that model
 *   (`hydraInvalidation`, runtime/src/invalidation.ts);
 * - **IRI tags**, the `@id` of every node the body shows (members, embedded items and pages, the
 *   item itself; never a view's `?page=` IRI): an app purges one row's answers by its IRI.
 *
 * Bounded as the CDNs document: 16 KB of header value and 1,000 tags (Cloudflare's limits;
 * Fastly's and Varnish's are no tighter). Past the bound the IRI tags are left out: the model tags
 * alone still name every answer a write can change. A `private` or `no-store` answer has none: no
 * shared cache keeps it, so no purge needs it.
 */
import type { Context } from 'hono'
import type { CacheTagHeader } from '../../contract/cache-tags.js'
import { modelsRead } from '../access/request-caller.js'

/** The most bytes of a tag header's value: Cloudflare's 16 KB, less room for its name. */
const MAX_TAG_BYTES = 16_000

/** The most tags of one answer: Cloudflare keeps at most 1,000 unique tags. */
const MAX_TAGS = 1_000

/** Cloudflare separates tags by commas; Fastly and xkey by spaces. */
const separatorOf = (header: CacheTagHeader) => (header === 'Cache-Tag' ? ',' : ' ')

/** The `@id`s of a JSON-LD body that name nodes, not views (no query, no fragment). */
const NODE_ID = /"@id":"([^"?#]+)"/g

/** Whether a shared cache may keep an answer of this `Cache-Control`. */
const shareable = (cacheControl: string | undefined) =>
  cacheControl === undefined || !/(^|,)\s*(private|no-store)\s*(,|$)/i.test(cacheControl)

/**
 * The cache tag header of an answer (`body`: its JSON-LD text, undefined for a stream), or none
 * when the app tags nothing, the request read no model, or no shared cache may keep it.
 */
export function cacheTagHeader(
  c: Context,
  cacheControl: string | undefined,
  body?: string
): Record<string, string> {
  const tags = modelsRead(c)
  if (!tags || tags.models.size === 0 || !shareable(cacheControl)) return {}
  const separator = separatorOf(tags.header)
  const models = [...tags.models]
  const all = new Set(models)
  if (body !== undefined) for (const match of body.matchAll(NODE_ID)) all.add(match[1] as string)
  const text = [...all].join(separator)
  const bounded = all.size <= MAX_TAGS && new TextEncoder().encode(text).byteLength <= MAX_TAG_BYTES
  return { [tags.header]: bounded ? text : models.join(separator) }
}
