import type { ParameterNames } from '../contract/paging.js'
import { iriBuilder } from '../iri/iri-builder.js'
import type { QueryMap } from '../iri/query-string.js'
import type { CollectionPage, LinkTarget } from '../paging/types.js'
import { hydraTerm } from '../terms.js'

/**
 * The API's own term for how exact `hydra:totalItems` is: `estimated` or `cached`, absent when the
 * count is exact. Resolved through the context's `@vocab`; declared in the documentation.
 */
export const TOTAL_ITEMS_ACCURACY = 'totalItemsAccuracy'

/** The view of a page: its own IRI and its links, keys with or without the `hydra:` prefix. */
export type HydraView<P extends boolean = true> = P extends false
  ? {
      /** The page's own IRI. */
      '@id': string
      /** `PartialCollectionView`. */
      '@type': 'PartialCollectionView'
      /** The first page's IRI (full paging). */
      first?: string
      /** The last page's IRI (full paging). */
      last?: string
      /** The previous page's IRI, past the first. */
      previous?: string
      /** The next page's IRI, before the last. */
      next?: string
    }
  : {
      /** The page's own IRI. */
      '@id': string
      /** `hydra:PartialCollectionView`. */
      '@type': 'hydra:PartialCollectionView'
      /** The first page's IRI (full paging). */
      'hydra:first'?: string
      /** The last page's IRI (full paging). */
      'hydra:last'?: string
      /** The previous page's IRI, past the first. */
      'hydra:previous'?: string
      /** The next page's IRI, before the last. */
      'hydra:next'?: string
    }

/**
 * A JSON-LD/Hydra collection (docs/paging.md#view) of members of type `M`; keys carry the `hydra:`
 * prefix unless `P` is `false` (API Platform 4 style). With `P` = `boolean`, either document.
 */
export type HydraCollection<M, P extends boolean = true> = P extends false
  ? {
      /** The context's IRI (`/contexts/Book`). */
      '@context': string
      /** The collection's IRI (`/books`). */
      '@id': string
      /** `Collection`. */
      '@type': 'Collection'
      /** The number of members of the whole collection; absent on partial pages. */
      totalItems?: number
      /** Set when `totalItems` is an estimate or a cached count. */
      totalItemsAccuracy?: 'estimated' | 'cached'
      /** The page's members. */
      member: M[]
      /** The page's view: its IRI and links; absent where docs/paging.md#view says. */
      view?: HydraView<false>
      /**
       * The IRI template of the collection's filters and orders (`hydra:IriTemplate`) on its entry
       * page (asked without a query); elsewhere a reference to it (`{ '@id': '/books#search' }`).
       */
      search?: Record<string, unknown>
    }
  : {
      /** The context's IRI (`/contexts/Book`). */
      '@context': string
      /** The collection's IRI (`/books`). */
      '@id': string
      /** `hydra:Collection`. */
      '@type': 'hydra:Collection'
      /** The number of members of the whole collection; absent on partial pages. */
      'hydra:totalItems'?: number
      /** Set when `hydra:totalItems` is an estimate or a cached count. */
      totalItemsAccuracy?: 'estimated' | 'cached'
      /** The page's members. */
      'hydra:member': M[]
      /** The page's view: its IRI and links; absent where docs/paging.md#view says. */
      'hydra:view'?: HydraView<true>
      /**
       * The IRI template of the collection's filters and orders (`hydra:IriTemplate`) on its entry
       * page (asked without a query); elsewhere a reference to it (`{ '@id': '/books#search' }`).
       */
      'hydra:search'?: Record<string, unknown>
    }

export interface RenderOptions<P extends boolean = boolean> {
  /** The collection's path as requested (including any mount prefix), without the query. */
  path: string
  /** The request's parsed query: links keep every parameter as sent. */
  query: QueryMap
  parameters: ParameterNames
  context: string
  /** Whether Hydra keys carry the `hydra:` prefix. Default true. */
  hydraPrefix?: P | undefined
  /**
   * The page's `hydra:search` block, when the collection has one: its parameters as an IRI template
   * on its entry page, a reference to that template elsewhere (search.ts, `pageSearch`).
   */
  search?: Record<string, unknown> | undefined
}

const LINKS = ['first', 'last', 'previous', 'next'] as const

/** Whether a query has a parameter besides the page: a page asked so keeps its view. */
function hasParameters(query: QueryMap, pageName: string): boolean {
  for (const key of query.keys()) if (key !== pageName) return true
  return false
}

/**
 * The IRI of the document a page is rendered as: its view's `@id` when it has a view, else the
 * collection's. A client that asked for another spelling of it (parameters in another order, a
 * page 1 of a single page) finds its main resource by this IRI (docs/paging.md#d6).
 */
export function documentIri<M>(page: CollectionPage<M>, options: RenderOptions): string {
  return viewLinks(page, options)?.(page.self) ?? options.path
}

/**
 * The writer of the IRIs of a page's view, or undefined when the page has none: a single page
 * asked without parameters has no view; with any (filters, the paging switch, a page size) it
 * keeps one, whose `@id` is the request in normal form (docs/paging.md#d6).
 */
export function viewLinks<M>(
  page: CollectionPage<M>,
  options: Pick<RenderOptions, 'path' | 'query' | 'parameters'>
): ((target: LinkTarget) => string) | undefined {
  const { page: pageName } = options.parameters
  if (!page.paginated && !hasParameters(options.query, pageName)) return undefined
  return iriBuilder(options.path, options.query, pageName)
}

/** Renders a page as a Hydra collection with the reference's presence rules: docs/paging.md#view. */
export function renderCollection<M, P extends boolean = true>(
  page: CollectionPage<M>,
  options: RenderOptions<P>
): HydraCollection<M, P> {
  const prefix = options.hydraPrefix !== false
  const body: Record<string, unknown> = {
    '@context': options.context,
    '@id': options.path,
    '@type': hydraTerm('Collection', prefix),
  }
  if (page.totalItems !== undefined) body[hydraTerm('totalItems', prefix)] = page.totalItems
  // A term of the API's own vocabulary (declared in its documentation): the count is not exact.
  if (page.totalItemsAccuracy) body[TOTAL_ITEMS_ACCURACY] = page.totalItemsAccuracy
  body[hydraTerm('member', prefix)] = page.items
  const view = renderView(page, options, prefix)
  if (view) body[hydraTerm('view', prefix)] = view
  if (options.search) body[hydraTerm('search', prefix)] = options.search
  return body as HydraCollection<M, P>
}

function renderView<M>(
  page: CollectionPage<M>,
  options: RenderOptions,
  prefix: boolean
): Record<string, string> | undefined {
  const iri = viewLinks(page, options)
  if (!iri) return undefined
  const view: Record<string, string> = {
    '@id': iri(page.self),
    '@type': hydraTerm('PartialCollectionView', prefix),
  }
  if (!page.paginated) return view
  for (const key of LINKS) {
    const target = page[key]
    if (target) view[hydraTerm(key, prefix)] = iri(target)
  }
  return view
}

/**
 * Renders a whole collection as JSON text while its members are read, batch by batch: the document
 * `renderCollection` gives for every member at once, with the total after the members (the count
 * is known once they are all written). The first chunk is produced only once the first batch is
 * read, so a failing first read can still become an error response.
 */
export async function* renderCollectionChunks<M>(
  batches: AsyncIterable<readonly M[]>,
  options: RenderOptions
): AsyncGenerator<string, void, undefined> {
  const prefix = options.hydraPrefix !== false
  const shell = renderCollection<M, boolean>({ items: [], paginated: false, self: {} }, options)
  const view = (shell as Record<string, unknown>)[hydraTerm('view', prefix)]
  const search = (shell as Record<string, unknown>)[hydraTerm('search', prefix)]
  const head = { '@context': shell['@context'], '@id': shell['@id'], '@type': shell['@type'] }
  const opening = `${JSON.stringify(head).slice(0, -1)},${JSON.stringify(hydraTerm('member', prefix))}:[`
  let totalItems = 0
  let pending: string | undefined = opening
  for await (const batch of batches) {
    if (batch.length === 0) continue
    const members = batch.map((member) => JSON.stringify(member)).join(',')
    const chunk = totalItems === 0 ? members : `,${members}`
    totalItems += batch.length
    if (pending !== undefined) {
      yield pending + chunk
      pending = undefined
    } else {
      yield chunk
    }
  }
  const total = `${JSON.stringify(hydraTerm('totalItems', prefix))}:${totalItems}`
  const viewPart = view
    ? `,${JSON.stringify(hydraTerm('view', prefix))}:${JSON.stringify(view)}`
    : ''
  const searchPart = search
    ? `,${JSON.stringify(hydraTerm('search', prefix))}:${JSON.stringify(search)}`
    : ''
  yield `${pending ?? ''}],${total}${viewPart}${searchPart}}`
}
