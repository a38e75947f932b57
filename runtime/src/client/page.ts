/**
 * @module
 * One page as a walker gives it: its members, its total when the server counted, and the links of
 * its view (docs/paging.md#the-view-and-its-links) resolved against the URL that answered, read
 * with or without the `hydra:` prefix.
 */

/** The links of a page's view, as absolute URLs; each absent where the server wrote none. */
export interface PageLinks {
  /** The first page (full paging). */
  readonly first?: string | undefined
  /** The last page (full paging). */
  readonly last?: string | undefined
  /** The page before, past the first. */
  readonly previous?: string | undefined
  /** The page after, when one follows. */
  readonly next?: string | undefined
}

/** A page of a collection, members typed `M`, its document typed `B`. */
export interface HydraPage<M, B = unknown> {
  /** The absolute URL that answered this page. */
  readonly url: string
  /** The page's members, in the server's order. */
  readonly members: M[]
  /** `hydra:totalItems` (`totalItems`), absent on partial and cursor pages. */
  readonly totalItems: number | undefined
  /** The view's links, absolute. */
  readonly links: PageLinks
  /** The page's document as the server sent it. */
  readonly document: B
}

/** The names a link is written under in a view. */
const LINKS = ['first', 'last', 'previous', 'next'] as const

/** A key of a Hydra document, with the prefix or without it, whichever the document has. */
function term(document: Record<string, unknown>, name: string): unknown {
  return document[`hydra:${name}`] ?? document[name]
}

/** Whether `value` is a JSON object. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The page a collection's document `body`, read from `url`, holds; an error when the body is no
 * Hydra collection (an item's URL given to a walker).
 */
export function readPage<M, B>(url: string, body: B): HydraPage<M, B> {
  if (!isObject(body)) throw new TypeError(`${url} did not answer a JSON object`)
  const members = term(body, 'member')
  if (!Array.isArray(members)) throw new TypeError(`${url} answered no Hydra collection`)
  const total = term(body, 'totalItems')
  const view = term(body, 'view')
  const links: Record<string, string> = {}
  if (isObject(view)) {
    for (const name of LINKS) {
      const link = term(view, name)
      if (typeof link === 'string') links[name] = new URL(link, url).href
    }
  }
  return {
    url,
    members: members as M[],
    totalItems: typeof total === 'number' ? total : undefined,
    links,
    document: body,
  }
}
