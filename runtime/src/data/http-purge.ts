/**
 * @module
 * A `purge` of hydraInvalidation (data/prisma7/purge-extension.ts) for caches purged over HTTP
 * (docs/caching.md#wiring-a-cdn): Varnish with vmod xkey (`PURGE` with an `xkey` header), Fastly's
 * purge API (`POST` with `Surrogate-Key`), or any endpoint of the app's that reads the tags from
 * a header.
 */
import type { PurgeTags } from './prisma7/purge-extension.js'

/** Options of {@link httpPurge}. */
export interface HttpPurgeOptions {
  /** Where the purge request goes (`http://varnish:6081/`). */
  url: string
  /** The request's method (default `PURGE`). */
  method?: string | undefined
  /** The header holding the tags, separated by spaces (default `xkey`). */
  header?: string | undefined
  /** Other headers of the request (a token: `{ 'Fastly-Key': '…' }`). */
  headers?: Record<string, string> | undefined
  /** The fetch to send it with (default the global one). */
  fetch?: typeof fetch | undefined
  /**
   * The most tags one request names (default 256, what Fastly's purge of several keys takes; 100
   * for Cloudflare's purge by tags): more go in further requests.
   */
  maxTags?: number | undefined
}

/** The most bytes of tags one purge request carries: a header stays within 8 KB. */
const MAX_HEADER = 8_000

/** The most tags of one purge request by default: Fastly's limit on a purge of several keys. */
const MAX_TAGS = 256

/** The tags in requests of at most `max` tags whose header stays within MAX_HEADER bytes each. */
function batches(tags: readonly string[], max: number): string[] {
  const out: string[] = []
  let current = ''
  let count = 0
  for (const tag of tags) {
    if (current !== '' && (current.length + 1 + tag.length > MAX_HEADER || count === max)) {
      out.push(current)
      current = ''
      count = 0
    }
    current = current === '' ? tag : `${current} ${tag}`
    count++
  }
  if (current !== '') out.push(current)
  return out
}

/**
 * Purges by sending the tags in a header of one request (more when they exceed 8 KB or `maxTags`
 * tags): `PURGE` with `xkey` by default, as vmod xkey's documented VCL reads it. Rejects on an
 * answer that is not 2xx, so the failure is logged; throws when `maxTags` is no positive integer.
 */
export function httpPurge(options: HttpPurgeOptions): PurgeTags {
  const send = options.fetch ?? fetch
  const max = options.maxTags ?? MAX_TAGS
  if (!Number.isSafeInteger(max) || max < 1)
    throw new TypeError(`httpPurge({ maxTags }): ${max} is no positive integer`)
  return async (tags) => {
    for (const value of batches(tags, max)) {
      const response = await send(options.url, {
        method: options.method ?? 'PURGE',
        headers: { ...options.headers, [options.header ?? 'xkey']: value },
      })
      await response.body?.cancel()
      if (!response.ok) throw new Error(`${options.url} answered ${response.status} to a purge`)
    }
  }
}
