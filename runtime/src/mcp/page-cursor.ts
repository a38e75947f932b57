/**
 * @module
 * The cursor of a page a tool answered: the page link the API issued (a page's own `@id`, or its
 * `next` link) and, when a result held only the first members of that page to stay within its
 * budget, the member the next result starts from, as the fragment `#from=<n>`. A cursor is taken
 * back only as a page of a collection of the catalog, paged as the API pages it: a link turning
 * paging off (`pagination=false`) would read a whole collection in one answer.
 */
import type { CatalogCollection } from './collection-catalog.js'
import { collectionAt } from './iri-paths.js'
import { ToolArgumentError } from './tool-argument-error.js'

/** A page link, and the first of its members a result holds. */
export interface PageCursor {
  /** The page's link, under the mount path (`/books?itemsPerPage=50&page=2`). */
  link: string
  /** The index, in the page, of the first member to answer. */
  from: number
  /** The collection the page is of. */
  collection: CatalogCollection
}

const FROM = /^from=([1-9][0-9]{0,8})$/

/** The cursor of the members of the page at `link` from the `from`-th on. */
export const cursorOf = (link: string, from: number) => (from > 0 ? `${link}#from=${from}` : link)

/**
 * The page link and first member `cursor` names (`/books?page=2#from=23`), as `cursorOf` writes
 * them; undefined when its fragment is another.
 */
export function splitCursor(cursor: string): { link: string; from: number } | undefined {
  const hash = cursor.indexOf('#')
  if (hash < 0) return { link: cursor, from: 0 }
  const match = FROM.exec(cursor.slice(hash + 1))
  return match ? { link: cursor.slice(0, hash), from: Number(match[1]) } : undefined
}

/**
 * The page `cursor` names among the collections of `catalog` (under `base`), refused with a
 * `ToolArgumentError` whose text says what a cursor is when it is none of theirs.
 */
export function readCursor(
  cursor: unknown,
  catalog: readonly CatalogCollection[],
  base: string,
  refusal: string
): PageCursor {
  const refused = new ToolArgumentError(refusal)
  if (typeof cursor !== 'string' || !cursor.startsWith('/') || cursor.startsWith('//'))
    throw refused
  const split = splitCursor(cursor)
  if (!split) throw refused
  const { link, from } = split
  const question = link.indexOf('?')
  const path = question < 0 ? link : link.slice(0, question)
  const collection = collectionAt(catalog, base, path)
  if (!collection) throw refused
  const query = new URLSearchParams(question < 0 ? '' : link.slice(question + 1))
  // The paging switch is no part of a page link the API writes for a paged read.
  if ([...query.keys()].some((name) => name === collection.switch)) throw refused
  return { link, from, collection }
}
