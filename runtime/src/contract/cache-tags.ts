/**
 * @module
 * How an app tags the answers a shared cache may keep (docs/caching.md): createHydraApp's
 * `cacheTags`. Pure types.
 */

/** The header a CDN reads cache tags from: Cloudflare, Fastly or Varnish (vmod xkey). */
export type CacheTagHeader = 'Cache-Tag' | 'Surrogate-Key' | 'xkey'

/** Cache tags on answers (createHydraApp's `cacheTags`, docs/caching.md). */
export interface CacheTagSettings {
  /** The header the CDN reads: `Cache-Tag` (Cloudflare, the default), `Surrogate-Key` or `xkey`. */
  header?: CacheTagHeader | undefined
}
