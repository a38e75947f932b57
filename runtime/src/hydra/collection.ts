import { buildIri, type QueryMap } from '../iri/query-string.js'
import type { ParameterNames } from '../paging/config.js'
import type { CollectionPage, LinkTarget } from '../paging/page.js'

export interface HydraView {
  '@id': string
  '@type': 'hydra:PartialCollectionView'
  'hydra:first'?: string
  'hydra:last'?: string
  'hydra:previous'?: string
  'hydra:next'?: string
}

/** A JSON-LD/Hydra collection (spec 2.1) of members of type `M`. */
export interface HydraCollection<M> {
  '@context': string
  '@id': string
  '@type': 'hydra:Collection'
  'hydra:totalItems'?: number
  'hydra:member': M[]
  'hydra:view'?: HydraView
}

export interface RenderOptions {
  /** The collection's path as requested (including any mount prefix), without the query. */
  path: string
  /** The request's parsed query: links keep every parameter as sent. */
  query: QueryMap
  parameters: ParameterNames
  context: string
}

const LINKS = [
  ['first', 'hydra:first'],
  ['last', 'hydra:last'],
  ['previous', 'hydra:previous'],
  ['next', 'hydra:next'],
] as const

/** Renders a page as a Hydra collection with the reference's presence rules (reference 2.2-2.6). */
export function renderCollection<M>(
  page: CollectionPage<M>,
  options: RenderOptions
): HydraCollection<M> {
  const body: HydraCollection<M> = {
    '@context': options.context,
    '@id': options.path,
    '@type': 'hydra:Collection',
  } as HydraCollection<M>
  if (page.totalItems !== undefined) body['hydra:totalItems'] = page.totalItems
  body['hydra:member'] = page.items
  const view = renderView(page, options)
  if (view) body['hydra:view'] = view
  return body
}

function renderView<M>(page: CollectionPage<M>, options: RenderOptions): HydraView | undefined {
  const { page: pageName, enabled } = options.parameters
  // The page and the paging switch are not filters: a single unfiltered page has no view.
  const hasFilters = [...options.query.keys()].some((key) => key !== pageName && key !== enabled)
  if (!page.paginated && !hasFilters) return undefined
  const iri = (target: LinkTarget): string =>
    buildIri(options.path, options.query, {
      pageParameterName: pageName,
      ...(target.page === undefined ? {} : { page: target.page }),
      ...(target.overrides ? { overrides: target.overrides } : {}),
    })
  const view: HydraView = { '@id': iri(page.self), '@type': 'hydra:PartialCollectionView' }
  if (!page.paginated) return view
  for (const [key, property] of LINKS) {
    const target = page[key]
    if (target) view[property] = iri(target)
  }
  return view
}

/**
 * Renders a whole collection as JSON text while its members are read, batch by batch: the document
 * `renderCollection` gives for every member at once, with `hydra:totalItems` after the members
 * (the count is known once they are all written). The first chunk is produced only once the first
 * batch is read, so a failing first read can still become an error response.
 */
export async function* renderCollectionChunks<M>(
  batches: AsyncIterable<readonly M[]>,
  options: RenderOptions
): AsyncGenerator<string, void, undefined> {
  const shell = renderCollection<M>({ items: [], paginated: false, self: {} }, options)
  const view = shell['hydra:view']
  const head = { '@context': shell['@context'], '@id': shell['@id'], '@type': shell['@type'] }
  const opening = `${JSON.stringify(head).slice(0, -1)},"hydra:member":[`
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
  const tail = `],"hydra:totalItems":${totalItems}${view ? `,"hydra:view":${JSON.stringify(view)}` : ''}}`
  yield (pending ?? '') + tail
}
