/**
 * @module
 * Cache tags (docs/caching.md#cache-tags): every answer a shared cache may keep names, in the
 * header a CDN reads (`Cache-Tag`, `Surrogate-Key`, `xkey`), what it shows and what chose it, so
 * that a write purges the answers it may change and no other:
 *
 * - **IRI tags**, the `@id` of every node the body shows (members, embedded items and pages, the
 *   item itself; never a view's `?page=` IRI), written from the API's root (`/books/3` under any
 *   mount): a write purges the IRIs of the rows it changed (`hydraInvalidation` with `resources`);
 * - **model tags**, the name of every model whose rows decide which rows the answer shows (`Book`
 *   on a page of books; a page of loans filtered by their book's title reads `Loan` and `Book`;
 *   any answer whose scope reaches `Tenant` through a relation reads `Tenant`): purged by every
 *   write of that model but an update naming the fields it changes and an insert or a delete of
 *   a row of known values (data/written-rows.ts). An
 *   item shows its row without reading the others: `/books/3` has no `Book` tag, so a write of
 *   another book leaves it cached;
 * - **field tags**, `Book.title` for each field the answer's selection reads (its filters, order,
 *   parent and scopes), `Book.*` where it reads any (a custom provider's): purged by an update
 *   naming that field, and `Book.*` by every update of a book;
 * - **rows tags**, `Book:rows` on every answer showing rows of Book: purged, with `Book`, by a
 *   write whose rows cannot be named (`updateMany` with a `where`, nested writes);
 * - **value tags**, `Book:authorId=3` on a page whose rows all hold that value (its equality
 *   filters, parent, scope), `Book:any` on every other answer choosing rows of Book: purged by an
 *   insert or a delete of a row of known values (data/value-tags.ts), instead of `Book`.
 *
 * Bounded as the CDNs document: 16 KB of header value and 1,000 tags (Cloudflare's limits;
 * Fastly's and Varnish's are no tighter). Past the bound the IRI tags are left out and the model
 * tags and `Book.*` tags of every model shown take their place, which still name every answer a
 * write can change; so do they on a stream, whose members are unknown when its headers leave.
 * A `private` or `no-store` answer has none: no shared cache keeps it, so no purge needs it.
 */
import type { Context } from 'hono'
import { anyFieldTag, anyRowTag, type CacheTagHeader, rowsTag } from '../../contract/cache-tags.js'
import { MAX_VALUE_TAGS } from '../../data/value-tags.js'
import { type ModelsRead, modelsRead } from '../access/request-caller.js'
import { mountPrefix } from '../request/location.js'

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
  const read = modelsRead(c)
  if (!read || read.shown.size === 0 || !shareable(cacheControl)) return {}
  const separator = separatorOf(read.header)
  // A collection whose selection's fields were not noted (a custom provider's) reads any.
  const unplanned = [...read.collections].filter((model) => !read.planned.has(model))
  const fields = [...read.fields, ...unplanned.map(anyFieldTag)]
  const models = [
    ...read.selection,
    ...selectionRows(read),
    ...[...read.shown].map(rowsTag),
    ...fields,
    ...read.linked,
  ]
  // Without its IRIs (a stream's, or past the bound), the answer is purged by any write of the
  // models it shows: an update of one of their rows purges `Book.*` where it would purge `/books/3`.
  const broader = () => [...read.shown].flatMap((model) => [model, anyFieldTag(model)])
  if (body === undefined)
    return {
      [read.header]: [...new Set([...read.selection, ...broader(), ...models])].join(separator),
    }
  const all = new Set(models)
  const mount = mountPrefix(c)
  for (const match of body.matchAll(NODE_ID)) all.add(fromRoot(match[1] as string, mount))
  const text = [...all].join(separator)
  if (all.size <= MAX_TAGS && new TextEncoder().encode(text).byteLength <= MAX_TAG_BYTES)
    return { [read.header]: text }
  return {
    [read.header]: [...new Set([...read.selection, ...broader(), ...models])].join(separator),
  }
}

/**
 * The value tags of each model whose rows the answer chooses (data/value-tags.ts): those its
 * selections' equalities name, for a model it reads only as a collection's rows, within
 * MAX_VALUE_TAGS; `Book:any` for any other.
 */
function selectionRows(read: ModelsRead): string[] {
  return [...read.selection].flatMap((model) => {
    const values = read.reached.has(model) ? null : read.narrowed.get(model)
    return values && values.size <= MAX_VALUE_TAGS ? [...values] : [anyRowTag(model)]
  })
}

/** An IRI as written from the API's root: without the mount the app is served under. */
const fromRoot = (iri: string, mount: string) =>
  mount !== '' && iri.startsWith(`${mount}/`) ? iri.slice(mount.length) : iri
