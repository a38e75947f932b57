/**
 * @module
 * The page walker: the first page through the client's own request, every other by the links the
 * server wrote (docs/paging.md#the-view-and-its-links), in any paging mode: full, partial, cursor,
 * sub-collections. It never builds a URL from parameters: a link is followed as it is.
 */
import { type FollowOptions, follow, type Send, sendWithRetries } from './answer.js'
import { type HydraPage, type PageLinks, readPage } from './page.js'
import type { RetryOptions } from './retry-after.js'

/** How a walker sends its requests: the links' fetch and headers, the retries. */
export interface WalkerOptions extends FollowOptions, RetryOptions {}

/** Where a walk starts, which way it goes, and the signal that stops it. */
export interface WalkOptions {
  /** The URL of the page to start at (a page's `links.last`); default the first request. */
  from?: string | undefined
  /** The link followed from each page (default `next`). */
  direction?: 'next' | 'previous' | undefined
  /** Aborts the request under way and ends the walk with the signal's reason. */
  signal?: AbortSignal | undefined
}

/** A request's signal. */
export interface SignalOptions {
  /** Aborts the request (and any wait of a retry) with the signal's reason. */
  signal?: AbortSignal | undefined
}

/**
 * A walker over one collection: its pages and members, typed `M`, their documents `B`. Made by
 * hcWalker or openApiWalker from a client's request.
 */
export interface HydraWalker<M, B = unknown> {
  /** The page at `url` (a link of another page), or the first request's page when `url` is null. */
  page(url: string | null, options?: SignalOptions): Promise<HydraPage<M, B>>
  /** Every page from `from` (default the first), following `direction` links until there is none. */
  pages(options?: WalkOptions): AsyncGenerator<HydraPage<M, B>, void, undefined>
  /**
   * Every member of those pages, in the order walked: walking `previous`, each page's members
   * from its last, so that the members come from the end back.
   */
  members(options?: WalkOptions): AsyncGenerator<M, void, undefined>
}

/** A walker whose first page `first` sends, and which follows links with `options`. */
export function createWalker<M, B>(first: Send, options: WalkerOptions = {}): HydraWalker<M, B> {
  const page = async (url: string | null, { signal }: SignalOptions = {}) => {
    const send = url === null ? first : follow(url, options)
    const answer = await sendWithRetries(send, signal, options)
    return readPage<M, B>(answer.url, answer.body as B)
  }
  async function* pages(walk: WalkOptions = {}) {
    const direction: keyof PageLinks = walk.direction ?? 'next'
    const seen = new Set<string>()
    let url = walk.from ?? null
    while (true) {
      const current = await page(url, { signal: walk.signal })
      if (seen.has(current.url)) throw new Error(`${current.url} links back to itself`)
      seen.add(current.url)
      yield current
      const link = current.links[direction]
      if (link === undefined) return
      url = link
    }
  }
  async function* members(walk: WalkOptions = {}) {
    for await (const current of pages(walk)) {
      if (walk.direction === 'previous') yield* [...current.members].reverse()
      else yield* current.members
    }
  }
  return { page, pages, members }
}
