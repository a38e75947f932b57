/**
 * @module
 * Writing query strings and view IRIs as API Platform does (docs/paging.md#link-normal-form):
 * `http_build_query(..., '&', PHP_QUERY_RFC3986)` followed by `IriHelper`'s collapse of numeric
 * leaf indexes, with the top-level keys first sorted as Symfony's `Request::getUri()` does
 * (`ksort`). Pure; never throws on user input.
 */
import { compareQueryKeys } from './query-keys.js'
import type { QueryMap, QueryValue } from './query-string.js'
import { rawUrlEncode } from './url-encoding.js'

/** An array key written as `%5B<digits>%5D` and not followed by another bracket (IriHelper). */
const INDEXED_LEAF_BRACKET = /%5B[0-9]+%5D(?!%5B)/g

function appendPairs(parts: string[], encodedKey: string, value: QueryValue): void {
  if (typeof value === 'string') {
    parts.push(`${encodedKey.replace(INDEXED_LEAF_BRACKET, '%5B%5D')}=${rawUrlEncode(value)}`)
    return
  }
  for (const [key, child] of value) {
    appendPairs(parts, `${encodedKey}%5B${rawUrlEncode(key)}%5D`, child)
  }
}

/**
 * Builds a query string like PHP `http_build_query($params, '', '&', PHP_QUERY_RFC3986)` followed by
 * API Platform's `IriHelper` leaf-index collapse (docs/paging.md#link-normal-form):
 *
 * - keys and values are {@link rawUrlEncode}d (`[ ] / : + # space` become `%5B %5D %2F %3A %2B %23
 *   %20`), nested keys are written `a%5Bb%5D=1`, an empty value gives `k=`, an empty array gives
 *   nothing (as in PHP);
 * - in each key, a numeric index not followed by another bracket becomes `%5B%5D`
 *   (`tags[1]=b&tags[0]=a` gives `tags%5B%5D=b&tags%5B%5D=a`, in that order) while other numeric
 *   indexes stay (`f[0][a]=1` gives `f%5B0%5D%5Ba%5D=1`, fix #8278 of v4.3.11).
 */
export function buildQuery(params: QueryMap): string {
  const parts: string[] = []
  for (const [key, value] of params) appendPairs(parts, rawUrlEncode(key), value)
  return parts.join('&')
}

/**
 * A copy of `query` with its top-level keys sorted like Symfony's `Request::getUri()` (`ksort`, see
 * {@link compareQueryKeys}; the sort is stable). Nested arrays keep their order and are shared.
 */
export function sortQuery(query: QueryMap): QueryMap {
  if (query.size < 2) return new Map(query)
  return new Map([...query].sort(([a], [b]) => compareQueryKeys(a, b)))
}

export interface BuildIriOptions {
  /** The page parameter's name: always removed from `query`, and set to `page` when given. */
  pageParameterName: string
  /**
   * The page to link to, written last as a decimal integer (the reference writes `1.0E+14` from
   * 10^14 on, which its own parser then refuses); absent for a link without a page (cursor links).
   */
  page?: number | undefined
  /**
   * Top-level parameters to set after the page parameter is removed (cursor links): an existing
   * key is replaced whole; `undefined` removes the key. The keys are then sorted again (D6).
   */
  overrides?: ReadonlyArray<readonly [string, QueryValue | undefined]> | undefined
}

/**
 * Builds a view IRI like `IriHelper::parseIri` + `createIri` over Symfony's normalised request URI
 * (docs/paging.md#link-normal-form): the top-level keys of `query` are sorted ({@link sortQuery}),
 * the page parameter is removed, `overrides` are applied, the keys sorted again (docs/paging.md#d6:
 * the reference merges them in place), then the page (if any) is set, which puts it last. Gives
 * `path?query`, or `path` alone when the query string is empty. `path` must not contain a query
 * itself.
 */
export function buildIri(path: string, query: QueryMap, options: BuildIriOptions): string {
  return iriBuilder(path, query, options.pageParameterName)(options)
}

/**
 * {@link buildIri} for several links of one request: the query is sorted and written once, so a
 * link that only sets the page (every link of offset paging) is that text and the page.
 */
export function iriBuilder(
  path: string,
  query: QueryMap,
  pageParameterName: string
): (target: Omit<BuildIriOptions, 'pageParameterName'>) => string {
  const params = sortQuery(query)
  params.delete(pageParameterName)
  let rest: string | undefined
  let pageKey: string | undefined
  return ({ page, overrides }) => {
    if (overrides !== undefined && overrides.length > 0) {
      const merged = new Map(params)
      for (const [key, value] of overrides) {
        if (value === undefined) merged.delete(key)
        else merged.set(key, value)
      }
      // D6: the reference merges cursor parameters in place, so its links differ from the `@id`
      // of the page they lead to (whose keys are sorted); sorted again, the link is that `@id`.
      const changed = sortQuery(merged)
      if (page !== undefined) {
        changed.delete(pageParameterName)
        changed.set(pageParameterName, String(page))
      }
      const queryString = buildQuery(changed)
      return queryString === '' ? path : `${path}?${queryString}`
    }
    rest ??= buildQuery(params)
    if (page === undefined) return rest === '' ? path : `${path}?${rest}`
    pageKey ??= buildQuery(new Map([[pageParameterName, '']]))
    const pair = `${pageKey}${String(page)}`
    return rest === '' ? `${path}?${pair}` : `${path}?${rest}&${pair}`
  }
}
