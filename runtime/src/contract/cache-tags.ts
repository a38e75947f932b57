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

/** The model a rows tag names (`Book` for `Book:rows`), or undefined for any other tag. */
function rowsTagModel(tag: string): string | undefined {
  return tag.endsWith(':rows') ? tag.slice(0, -':rows'.length) : undefined
}

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
 * The model a rows, field or model tag names (`Book` for `Book:rows`, `Book.title` or `Book`),
 * or undefined for an IRI tag (`/books/3`).
 */
export function tagModel(tag: string): string | undefined {
  if (tag.includes('/')) return undefined
  const model = rowsTagModel(tag) ?? tag
  const dot = model.indexOf('.')
  return dot === -1 ? model : model.slice(0, dot)
}
