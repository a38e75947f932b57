/**
 * @module
 * A page of a collection written as JSON text: the document renderCollection renders, key for
 * key, with what its operation fixes (its terms, its `hydra:search` block but for the path it is
 * served at) written once, when the operation's route is made, and the members stringified once.
 * The block is the template on the collection's entry page, a reference to it on every other page.
 */
import type { CollectionPage, LinkTarget } from '../paging/types.js'
import { hydraTerm } from '../terms.js'
import { TOTAL_ITEMS_ACCURACY } from './collection.js'
import { searchIri } from './search.js'

/** Where one page is written: its path, its context, and its view's links when it has a view. */
export interface PageAt {
  /** The collection's path as requested (its mount prefix included), without the query. */
  path: string
  context: string
  /** The IRI of a page of the view; undefined when the page has no view (docs/paging.md#view). */
  view: ((target: LinkTarget) => string) | undefined
  /** The collection's entry page (its path asked without a query): it holds the template. */
  entry: boolean
}

/** Writes one page whose members are written already. */
export type PageDocument = (
  page: CollectionPage<unknown>,
  members: readonly unknown[],
  at: PageAt
) => string

/** Stands for the path in a `hydra:search` block written once: no path holds it. */
const PATH_MARK = '\u0000'

/**
 * The `hydra:search` block of every path as text, from the block written once with a mark for its
 * path (which only its `@id` and its template hold): the template on an entry page, a reference to
 * it on any other; '' for a collection without one.
 */
function searchText(
  search: (path: string) => Record<string, unknown> | undefined,
  term: string
): (path: string, entry: boolean) => string {
  const block = search(PATH_MARK)
  if (block === undefined) return () => ''
  const parts = `${term}${JSON.stringify(block)}`.split(JSON.stringify(PATH_MARK).slice(1, -1))
  return (path, entry) => {
    if (!entry) return `${term}${JSON.stringify({ '@id': searchIri(path) })}`
    return parts.join(JSON.stringify(path).slice(1, -1))
  }
}

/**
 * The writer of an operation's pages: keys with or without the `hydra:` prefix, `search` its
 * `hydra:search` block at a path (none for a collection without parameters).
 */
export function pageDocument(
  prefix: boolean,
  search: (path: string) => Record<string, unknown> | undefined
): PageDocument {
  const term = (name: string) => JSON.stringify(hydraTerm(name, prefix))
  const head = `,"@type":${term('Collection')}`
  const totalTerm = `,${term('totalItems')}:`
  const accuracyTerm = `,${JSON.stringify(TOTAL_ITEMS_ACCURACY)}:`
  const memberTerm = `,${term('member')}:`
  const viewTerm = `,${term('view')}:{"@id":`
  const viewType = `,"@type":${term('PartialCollectionView')}`
  const links = (['first', 'last', 'previous', 'next'] as const).map(
    (key) => [key, `,${term(key)}:`] as const
  )
  const searchAt = searchText(search, `,${term('search')}:`)
  return (page, members, { path, context, view, entry }) => {
    let text = `{"@context":${JSON.stringify(context)},"@id":${JSON.stringify(path)}${head}`
    if (page.totalItems !== undefined) text += `${totalTerm}${page.totalItems}`
    if (page.totalItemsAccuracy) text += `${accuracyTerm}${JSON.stringify(page.totalItemsAccuracy)}`
    text += `${memberTerm}${JSON.stringify(members)}`
    if (view) {
      text += `${viewTerm}${JSON.stringify(view(page.self))}${viewType}`
      if (page.paginated)
        for (const [key, name] of links) {
          const target = page[key]
          if (target) text += `${name}${JSON.stringify(view(target))}`
        }
      text += '}'
    }
    return `${text}${searchAt(path, entry)}}`
  }
}
