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
export function rowsTagModel(tag: string): string | undefined {
  return tag.endsWith(':rows') ? tag.slice(0, -':rows'.length) : undefined
}
