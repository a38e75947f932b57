/**
 * @module
 * How an app tags the answers a shared cache may keep (docs/caching.md): createHydraApp's
 * `cacheTags`, and the names of its model tags. Pure.
 */

/** The header a CDN reads cache tags from: Cloudflare, Fastly or Varnish (vmod xkey). */
export type CacheTagHeader = 'Cache-Tag' | 'Surrogate-Key' | 'xkey'

/** Cache tags on answers (createHydraApp's `cacheTags`, docs/caching.md). */
export interface CacheTagSettings {
  /** The header the CDN reads: `Cache-Tag` (Cloudflare, the default), `Surrogate-Key` or `xkey`. */
  header?: CacheTagHeader | undefined
}

/**
 * The tag of every answer showing rows of `model` (`Book:rows`), whichever rows: what a write
 * whose rows cannot be named purges, besides the model's own tag (docs/caching.md#cache-tags).
 */
export const rowsTag = (model: string) => `${model}:rows`

/**
 * The tag of every answer whose selection reads `field` of `model` (`Book.title`: it filters,
 * orders or scopes by it), or, with `field` `*`, reads fields of it the runtime does not name
 * (`Book.*`: an embedded first page, a custom provider): what an update naming its fields purges
 * instead of the model's own tag (docs/caching.md#cache-tags).
 */
export const fieldTag = (model: string, field: string) => `${model}.${field}`

/** The tag of every answer reading fields of `model` it does not name: `Book.*`. */
export const anyFieldTag = (model: string) => fieldTag(model, '*')

/**
 * The tag of every answer whose rows are chosen among `model`'s without an equality narrowing
 * them (`Book:any`: `/books`, `/books?title=dune`, a page of authors whose scope reads books):
 * what an insert or a delete of a row of known values purges, with the value tags of its values
 * (docs/caching.md#value-tags).
 */
export const anyRowTag = (model: string) => `${model}:any`

/**
 * The tag of every answer whose rows of `model` all hold `field` equal to a value whose text is
 * `text` (`Book:authorId=3`, `Book:genre=fiction`), as data/value-tags.ts writes it: what an
 * insert or a delete of a row holding that value purges.
 */
export const valueTag = (model: string, field: string, text: string) => `${model}:${field}=${text}`

/**
 * The model a rows, any-row, value, field or model tag names (`Book` for `Book:rows`, `Book:any`,
 * `Book:genre=fiction`, `Book.title` or `Book`), or undefined for an IRI tag (`/books/3`).
 */
export function tagModel(tag: string): string | undefined {
  if (tag.includes('/')) return undefined
  const end = tag.search(/[.:]/)
  return end === -1 ? tag : tag.slice(0, end)
}
