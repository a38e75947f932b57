/**
 * @module
 * The `hydra:view` of a capped to-many embed that has more items than it shows
 * (docs/member-shape.md, "To-many relations: the first page, capped"): the sub-collection's page
 * those items are, with its own `@id` (never the collection's: one node would then be typed both
 * `hydra:Collection` and `hydra:PartialCollectionView`), written as the sub-collection writes that
 * page's view (collection.ts), with the links the embed knows without a count: `hydra:first` on
 * full pages, and `hydra:next` when more rows were read than the page holds. `hydra:last` needs a
 * count the embed never makes.
 */
import type { EmbeddedPage } from '../contract/properties.js'
import { iriBuilder } from '../iri/iri-builder.js'
import type { QueryMap } from '../iri/query-string.js'
import { hydraTerm } from '../terms.js'

/**
 * The writer of the view of the embedded collection at `iri` (the sub-collection's), for `read`
 * related rows (more than `first`).
 */
export function embeddedView(
  page: EmbeddedPage,
  first: number,
  hydraPrefix: boolean
): (iri: string, read: number) => Record<string, string> {
  const query: QueryMap = new Map()
  if (page.itemsPerPage !== undefined) query.set(page.itemsPerPage, String(first))
  const type = hydraTerm('PartialCollectionView', hydraPrefix)
  const firstTerm = hydraTerm('first', hydraPrefix)
  const nextTerm = hydraTerm('next', hydraPrefix)
  return (iri, read) => {
    const link = iriBuilder(iri, query, page.page)
    const self = link({ page: 1 })
    const view: Record<string, string> = { '@id': self, '@type': type }
    if (page.size === undefined) return view
    if (!page.partial) view[firstTerm] = self
    if (read > page.size) view[nextTerm] = link({ page: 2 })
    return view
  }
}
