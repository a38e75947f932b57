/**
 * @module
 * The page writer of an offset-paged operation: the answer to a request that asks for a page by
 * its number and nothing else (no filter, order, selection, page size or paging switch), written in
 * straight-line code from what the operation fixes once (its document's head, its `hydra:search`
 * block as text, its links' form, its page window). Such a request is the most common one, and
 * the general route (collection-route.ts) answers it with many steps that each do nothing for it
 * (parse the query, select rows, merge declared embeds, shape members, render, stringify the
 * document): the code a request runs, more than what each step costs, is what makes it dearer
 * than a hand-written Prisma route (bench/RESULTS.md, "What the `prisma` engine's distance to the
 * hand-written route is made of"). Every byte and header is the general route's; any request
 * this writer does not know, or a caller an access rule bears on, goes to the general route
 * (`undefined`).
 */
import type { Context } from 'hono'
import type { CollectionOperation } from '../../contract/operations.js'
import type { CallerView } from '../../data/caller-view.js'
import type { DataAccess } from '../../data/data-access.js'
import { databaseWork } from '../../database/outage.js'
import type { Budget } from '../../database/timeouts.js'
import { rawUrlEncode } from '../../iri/url-encoding.js'
import { fetchCollectionPage } from '../../paging/offset.js'
import type { CollectionPage, LinkTarget } from '../../paging/types.js'
import { hydraTerm } from '../../terms.js'
import { jsonLdHeaders } from '../request/request-state.js'
import { cacheableBody } from '../response/http-cache.js'
import { inDataAccess, pagingAttributes, type RouteObservation } from './route-observation.js'

/** A page number as the general route reads it without complaint: decimal, no sign, no zeros. */
const PAGE_NUMBER = /^[1-9][0-9]{0,14}$/

/** What the writer of one operation answers with, beside the request. */
export interface PlainPageRequest {
  c: Context
  view: CallerView
  base: string
  budget: Budget
  observation: RouteObservation
}

/** Writes a page of one operation; undefined for a request it does not know. */
export type PlainPage = (request: PlainPageRequest) => Promise<Response> | undefined

/**
 * The page writer of `operation` over `rows`, or undefined when the operation's requests always
 * need the general route (cursor paging, paging off, declared embeds). `search` is the
 * operation's `hydra:search` block at a path.
 */
export function plainPageOf<M>(
  operation: CollectionOperation<M, boolean>,
  rows: DataAccess<object>,
  search: (path: string) => Record<string, unknown> | undefined
): PlainPage | undefined {
  const { resource, paging } = operation
  if (paging.cursor || !paging.enabled) return undefined
  if (resource.embedded && resource.embedded.length > 0) return undefined
  const pageName = paging.parameters.page
  // A name the query string carries as written (every generated one): the request's own text
  // is then the view's `@id`.
  if (rawUrlEncode(pageName) !== pageName) return undefined
  const { itemsPerPage, partial } = paging
  const documentText = pageDocument(operation, search)
  const selection = {}
  const names = {
    resource: resource.name,
    operation: operation.name ?? 'collection',
    provider: resource.provider,
    engine: rows.engineOf(operation),
  }

  return ({ c, view, base, budget, observation }) => {
    if (view.personal) return undefined
    const url = c.req.url
    const start = url.indexOf('?')
    let page = 1
    if (start !== -1) {
      const query = url.slice(start + 1)
      const equals = query.indexOf('=')
      if (equals === -1 || query.slice(0, equals) !== pageName) return undefined
      const number = query.slice(equals + 1)
      if (!PAGE_NUMBER.test(number)) return undefined
      page = Number(number)
    }
    const offset = (page - 1) * itemsPerPage
    if (!Number.isSafeInteger(offset) || (itemsPerPage === 0 && page > 1)) return undefined
    const decision = { mode: partial ? 'partial' : 'full', page } as const
    return (async () => {
      const { timing } = observation
      const read = () => {
        const source = rows.source(operation, selection, view, undefined, timing)
        const reading = fetchCollectionPage(source, {
          paged: true,
          partial,
          page,
          itemsPerPage,
          offset,
        })
        return databaseWork(
          timing ? timing.measure('db', reading) : reading,
          budget.query,
          rows.outages
        )
      }
      const content = observation.tracer
        ? await inDataAccess(observation, names, read, (page) =>
            pagingAttributes({ page, decision })
          )
        : await read()
      const write = () => {
        const path = c.req.path
        // Asked by its number, a collection of one page is known by its path (docs/paging.md#d6).
        const canonical = start !== -1 && !content.paginated ? path : undefined
        const headers = jsonLdHeaders(c, canonical)
        return cacheableBody(c, documentText(content, path, base), headers, {
          cacheControl: operation.cacheControl,
          kept: { Link: headers.Link as string },
        })
      }
      const response = timing ? timing.time('serialize', write) : write()
      return timing ? timing.write(response) : response
    })()
  }
}

/**
 * The document of one page of `operation`, as text: what renderCollection renders and the general
 * route stringifies for a request with the page parameter alone, its fixed parts written once.
 */
function pageDocument<M>(
  operation: CollectionOperation<M, boolean>,
  search: (path: string) => Record<string, unknown> | undefined
): (page: CollectionPage<object>, path: string, base: string) => string {
  const { resource } = operation
  const pageName = operation.paging.parameters.page
  const prefix = operation.hydraPrefix !== false
  const term = (name: string) => JSON.stringify(hydraTerm(name, prefix))
  const head = `,"@type":${term('Collection')}`
  const viewType = `,"@type":${term('PartialCollectionView')}`
  const totalTerm = `,${term('totalItems')}:`
  const memberTerm = `,${term('member')}:`
  const viewTerm = `,${term('view')}:{"@id":`
  const links = (['first', 'last', 'previous', 'next'] as const).map(
    (key) => [key, `,${term(key)}:`] as const
  )
  const searchTerm = `,${term('search')}:`
  /** The `hydra:search` block of each path, as text (a mount prefix is part of the path). */
  const searches = new Map<string, string>()
  const searchText = (path: string): string => {
    let text = searches.get(path)
    if (text === undefined) {
      const block = search(path)
      text = block === undefined ? '' : `${searchTerm}${JSON.stringify(block)}`
      searches.set(path, text)
    }
    return text
  }
  const context = (base: string) => JSON.stringify(`${base}/contexts/${resource.name}`)
  return (page: CollectionPage<object>, path: string, base: string): string => {
    const members = page.items.map((row) => resource.toMember(row, base))
    let text = `{"@context":${context(base)},"@id":${JSON.stringify(path)}${head}`
    if (page.totalItems !== undefined) text += `${totalTerm}${page.totalItems}`
    if (page.totalItemsAccuracy)
      text += `,"totalItemsAccuracy":${JSON.stringify(page.totalItemsAccuracy)}`
    text += `${memberTerm}${JSON.stringify(members)}`
    if (page.paginated) {
      const iri = (target: LinkTarget) => JSON.stringify(`${path}?${pageName}=${target.page}`)
      text += `${viewTerm}${iri(page.self)}${viewType}`
      for (const [key, name] of links) {
        const target = page[key]
        if (target) text += `${name}${iri(target)}`
      }
      text += '}'
    }
    return `${text}${searchText(path)}}`
  }
}
