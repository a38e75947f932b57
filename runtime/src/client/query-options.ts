/**
 * @module
 * TanStack Query's options built from a walker: the infinite list (`infiniteQueryOptions`), each
 * page's param the URL of a link the server wrote, and one page (`queryOptions`). Plain objects
 * of the shape TanStack Query reads: the runtime imports nothing of it. And the infinite list of a
 * change feed's pages, until one is up to date.
 */
import { type ChangesPage, changesPage, type FollowChangesOptions } from './changes.js'
import type { HydraPage } from './page.js'
import type { HydraWalker } from './walker.js'

/** What a query function is given: the page's param (the URL of a link; null for the first request) and TanStack's signal. */
export interface PageQueryContext {
  /** The URL of the page to read; null for the walker's first request. */
  readonly pageParam: string | null
  /** Aborted by TanStack Query when the query is cancelled. */
  readonly signal: AbortSignal
}

/** The options of an infinite query over a walker's pages (TanStack's `infiniteQueryOptions`). */
export interface InfinitePagesOptions<M, B, K extends readonly unknown[]> {
  /** The query's key. */
  queryKey: K
  /** Reads the page at the param (null: the first request). */
  queryFn: (context: PageQueryContext) => Promise<HydraPage<M, B>>
  /** The first page's param: null, the walker's first request. */
  initialPageParam: string | null
  /** The next page: the page's `next` link, null at the end. */
  getNextPageParam: (page: HydraPage<M, B>) => string | null
  /** The page before: the page's `previous` link, null at the start. */
  getPreviousPageParam: (page: HydraPage<M, B>) => string | null
}

/**
 * Options for TanStack Query's infinite queries (`useInfiniteQuery`, `InfiniteQueryObserver`,
 * `infiniteQueryOptions`) over the pages of `walker`: `fetchNextPage` and `fetchPreviousPage`
 * follow the `next` and `previous` links of the pages at either end, in every paging mode.
 *
 * @example
 * ```ts
 * const feed = hcWalker(client.activities.$get)()
 * const query = useInfiniteQuery(infinitePagesOptions(feed, ['activities']))
 * ```
 */
export function infinitePagesOptions<M, B, const K extends readonly unknown[]>(
  walker: HydraWalker<M, B>,
  queryKey: K
): InfinitePagesOptions<M, B, K> {
  return {
    queryKey,
    queryFn: ({ pageParam, signal }) => walker.page(pageParam, { signal }),
    initialPageParam: null,
    getNextPageParam: (page) => page.links.next ?? null,
    getPreviousPageParam: (page) => page.links.previous ?? null,
  }
}

/** The options of a query of one page (TanStack's `queryOptions`). */
export interface PageQueryOptions<M, B, K extends readonly unknown[]> {
  /** The query's key: the key given, then the page's URL (null for the first request). */
  queryKey: readonly [...K, string | null]
  /** Reads the page. */
  queryFn: (context: { readonly signal: AbortSignal }) => Promise<HydraPage<M, B>>
}

/**
 * Options for TanStack Query's query of one page of `walker` (`useQuery`, `QueryObserver`,
 * `queryOptions`): the page at `url`, a link of another page (`links.last` to jump to the last
 * page of a table), or the first request's when null.
 *
 * @example
 * ```ts
 * const [url, setUrl] = useState<string | null>(null)
 * const { data } = useQuery(pageQueryOptions(authors, ['authors'], url))
 * // <button onClick={() => setUrl(data?.links.last ?? null)}>last</button>
 * ```
 */
export function pageQueryOptions<M, B, const K extends readonly unknown[]>(
  walker: HydraWalker<M, B>,
  queryKey: K,
  url: string | null = null
): PageQueryOptions<M, B, K> {
  return {
    queryKey: [...queryKey, url],
    queryFn: ({ signal }) => walker.page(url, { signal }),
  }
}

/** The options of an infinite query over a change feed's pages (TanStack's `infiniteQueryOptions`). */
export interface InfiniteChangesOptions<M, K extends readonly unknown[]> {
  /** The query's key: the key given, then where the feed is followed from. */
  queryKey: readonly [...K, string]
  /** Reads the page at the param (a URL of the feed). */
  queryFn: (context: {
    readonly pageParam: string
    readonly signal: AbortSignal
  }) => Promise<ChangesPage<M>>
  /** The first page's param: where the feed is followed from. */
  initialPageParam: string
  /** The next page: the page's `next` while it is not up to date, then null. */
  getNextPageParam: (page: ChangesPage<M>) => string | null
}

/**
 * Options for TanStack Query's infinite queries over a collection's change feed
 * (docs/syncing.md): from `from` (the feed's URL for the token of now, or a `next` kept from the
 * last page read), `fetchNextPage` reads the pages in order until one is up to date. Each poll is
 * a query of its own: keep the last page's `next` and give it as the next query's `from`.
 *
 * @example
 * ```ts
 * const [from, setFrom] = useState(`${api}/books/changes`)
 * const changes = useInfiniteQuery(infiniteChangesOptions<Book>(from, ['books', 'changes']))
 * // apply changes.data.pages' changes; once !changes.hasNextPage, setFrom(last page's next) later
 * ```
 */
export function infiniteChangesOptions<M, const K extends readonly unknown[] = readonly unknown[]>(
  from: string,
  queryKey: K,
  options: FollowChangesOptions = {}
): InfiniteChangesOptions<M, K> {
  const origin = new URL(from, globalThis.location?.href).origin
  return {
    queryKey: [...queryKey, from],
    queryFn: ({ pageParam, signal }) => changesPage<M>(pageParam, origin, { ...options, signal }),
    initialPageParam: from,
    getNextPageParam: (page) => (page.upToDate ? null : page.next),
  }
}
