/**
 * @module
 * The page writer of a collection operation: the answer to a request that asks for a page by its
 * number, its size when clients may choose it, or both, and nothing else, or, on a cursor-paged
 * operation, by a position on its key and nothing else (no filter, order, selection or paging
 * switch), written in straight-line code from what the operation fixes once (its document's head,
 * its `hydra:search` block as text, its links' form, its page window). Such requests are the most
 * common ones, and the general route (collection-route.ts) answers them with many steps that each
 * do nothing for them (parse the query, select rows, render, stringify the document): the code a
 * request runs, more than what each step costs, is what makes it dearer than a hand-written
 * Prisma route (bench/RESULTS.md, "What the `prisma` engine's distance to the hand-written route
 * is made of"). Every byte and header is the general route's, for every caller: the operation is
 * the one the caller may use (its `hydra:search`), the read goes through the caller's view (its
 * scopes), the members lose the fields it hides and embed what the operation declares embedded
 * as far as the caller may see it, and the caching headers are the general route's functions'.
 * Any request this writer does not know goes to the general route (`undefined`).
 */
import type { Context } from 'hono'
import { type CollectionOperation, operationName } from '../../contract/operations.js'
import type { CursorKey } from '../../contract/order.js'
import type { PagingConfig } from '../../contract/paging.js'
import type { CallerView } from '../../data/caller-view.js'
import type { DataAccess } from '../../data/data-access.js'
import { databaseWork } from '../../database/outage.js'
import type { Budget } from '../../database/timeouts.js'
import { declaredFor, withDeclaredEmbeds } from '../../filters/declared-embeds.js'
import type { RowSelection } from '../../filters/selection.js'
import { shapeMembers } from '../../hydra/member-shape.js'
import { buildQuery } from '../../iri/iri-builder.js'
import { compareQueryKeys } from '../../iri/query-keys.js'
import { isTruncated, parseQuery, type QueryMap, type QueryValue } from '../../iri/query-string.js'
import { rawUrlEncode } from '../../iri/url-encoding.js'
import { fetchCursorPage, readCursorBound } from '../../paging/cursor.js'
import { CURSOR_OPERATORS } from '../../paging/cursor-links.js'
import { fetchCollectionPage } from '../../paging/offset.js'
import type { PagingDecision } from '../../paging/strategy.js'
import type { CollectionPage, CollectionSource, LinkTarget } from '../../paging/types.js'
import { hydraTerm } from '../../terms.js'
import { hideFields } from '../access/caller-operation.js'
import { canonicalFor, jsonLdHeaders } from '../request/request-state.js'
import { cacheableBody } from '../response/http-cache.js'
import { inDataAccess, pagingAttributes, type RouteObservation } from './route-observation.js'

type Where = Record<string, unknown>

/** A page number as the general route reads it without complaint: decimal, no sign, no zeros. */
const PAGE_NUMBER = /^[1-9][0-9]{0,14}$/

/** What the writer of one operation answers with, beside the request. */
export interface PlainPageRequest {
  c: Context
  view: CallerView
  /** A sub-collection's condition: the rows of its parent (sub-collection-route.ts). */
  within: Record<string, unknown> | undefined
  base: string
  budget: Budget
  observation: RouteObservation
}

/** Writes a page of one operation; undefined for a request it does not know. */
export type PlainPage = (request: PlainPageRequest) => Promise<Response> | undefined

/** A request the writer knows, read: how its page is read, linked and known. */
interface PlainAsk {
  decision: PagingDecision
  /**
   * Whether a page that is not paginated has a view all the same: a request with a parameter
   * other than the page has one, its `@id` alone (docs/paging.md#view).
   */
  viewed: boolean
  /** Reads the page; throws the 400 of a bad position before anything is read. */
  read(source: CollectionSource<object, Where>): Promise<CollectionPage<object>>
  /** The IRI of a view's link of the page at `path`. */
  link(path: string): (target: LinkTarget) => string
  /** The page's canonical IRI when the request spelled it otherwise (docs/paging.md#d6). */
  canonical(c: Context, page: CollectionPage<object>, path: string): string | undefined
}

/** Reads a request of one operation, or undefined when the general route must answer it. */
type AskOf = (url: string, start: number) => PlainAsk | undefined

/**
 * The page writer of `operation` over `rows`, or undefined when the operation's requests always
 * need the general route (paging off, a page parameter whose name a query string encodes, a
 * filter on a cursor field). `search` is the operation's `hydra:search` block at a path;
 * `declaredAs` the name its declared embeds are chosen by (a sub-collection's: `Book.loans`).
 */
export function plainPageOf<M>(
  operation: CollectionOperation<M, boolean>,
  rows: DataAccess<object>,
  search: (path: string) => Record<string, unknown> | undefined,
  declaredAs: string
): PlainPage | undefined {
  const { resource, paging } = operation
  if (!paging.enabled) return undefined
  // A name the query string carries as written (every generated one): the request's own text
  // is then the view's `@id`.
  if (rawUrlEncode(paging.parameters.page) !== paging.parameters.page) return undefined
  const askOf = paging.cursor ? cursorAsk(operation, paging.cursor) : offsetAsk(paging)
  if (!askOf) return undefined
  const documentText = pageDocument(operation, search)
  const names = {
    resource: resource.name,
    operation: operationName(operation),
    provider: resource.provider,
    engine: rows.engineOf(operation),
  }
  // The relations the operation declares embedded, read by the page's own query (as the general
  // route reads them: filters/declared-embeds.ts), and written in place of their IRIs.
  const declared = declaredFor(resource.embedded, declaredAs)
  const shape = { links: resource.links, hydraPrefix: operation.hydraPrefix !== false }
  const plain: RowSelection = {}

  return ({ c, view, within, base, budget, observation }) => {
    const url = c.req.url
    const ask = askOf(url, url.indexOf('?'))
    if (!ask) return undefined
    return (async () => {
      const { timing } = observation
      // What the caller may see of them: their fields a rule hides, a relation hidden whole.
      const properties = withDeclaredEmbeds(undefined, declared, view)
      const selection = properties ? { properties } : plain
      const read = () => {
        const reading = ask.read(rows.source(operation, selection, view, within, timing))
        return databaseWork(
          timing ? timing.measure('db', reading) : reading,
          budget.query,
          rows.outages
        )
      }
      const { decision } = ask
      const content = observation.tracer
        ? await inDataAccess(observation, names, read, (page) =>
            pagingAttributes({ page, decision })
          )
        : await read()
      const write = () => {
        const path = c.req.path
        const headers = jsonLdHeaders(c, ask.canonical(c, content, path))
        const toMember = shapeMembers(
          hideFields((row: object) => resource.toMember(row, base), view.hidden),
          properties,
          base,
          shape
        )
        const text = documentText(content, path, base, toMember, ask)
        return cacheableBody(c, text, headers, {
          cacheControl: operation.cacheControl,
          kept: { Link: headers.Link as string },
        })
      }
      const response = timing ? timing.time('serialize', write) : write()
      return timing ? timing.write(response) : response
    })()
  }
}

/** A page size as the writer reads it: decimal digits, few enough to be an exact number. */
const PAGE_SIZE = /^[0-9]{1,15}$/

/** The page number and the page size an offset request gives, as sent (undefined: not given). */
interface OffsetQuery {
  page: string | undefined
  size: string | undefined
}

const NO_QUERY: OffsetQuery = { page: undefined, size: undefined }

/**
 * The page number and page size of `query` (`size` undefined when clients may not choose it),
 * each given once as a value the general route reads without complaint; undefined for any other
 * query (another parameter, one given twice or without a value, a value it would refuse).
 */
function readOffsetQuery(
  query: string,
  pageName: string,
  sizeName: string | undefined
): OffsetQuery | undefined {
  const pairs = query.split('&')
  if (pairs.length > 2) return undefined
  const asked: OffsetQuery = { page: undefined, size: undefined }
  for (const pair of pairs) {
    const equals = pair.indexOf('=')
    if (equals === -1) return undefined
    const name = pair.slice(0, equals)
    const value = pair.slice(equals + 1)
    if (name === pageName && asked.page === undefined && PAGE_NUMBER.test(value)) asked.page = value
    else if (name === sizeName && asked.size === undefined && PAGE_SIZE.test(value))
      asked.size = value
    else return undefined
  }
  return asked
}

/**
 * An offset-paged operation's requests that ask for a page by its number, by its size when
 * clients may choose it, by both, or for none.
 */
function offsetAsk(paging: PagingConfig): AskOf {
  const { partial, clientItemsPerPage, maximumItemsPerPage: maximum } = paging
  const { page: pageName, itemsPerPage: sizeName } = paging.parameters
  // A name the query string carries as written: the request's own text is then in the links.
  const sizeParameter =
    clientItemsPerPage && rawUrlEncode(sizeName) === sizeName ? sizeName : undefined
  // When clients may choose the size, the maximum caps theirs and the default alike
  // (docs/paging.md#parameter-parsing).
  const capped = (size: number) =>
    clientItemsPerPage && maximum !== null && size > maximum ? maximum : size
  const defaultSize = capped(paging.itemsPerPage)
  const mode = partial ? 'partial' : 'full'
  return (url, start) => {
    const asked =
      start === -1 ? NO_QUERY : readOffsetQuery(url.slice(start + 1), pageName, sizeParameter)
    if (!asked) return undefined
    const page = asked.page === undefined ? 1 : Number(asked.page)
    const itemsPerPage = asked.size === undefined ? defaultSize : capped(Number(asked.size))
    const offset = (page - 1) * itemsPerPage
    if (!Number.isSafeInteger(offset) || (itemsPerPage === 0 && page > 1)) return undefined
    const request = { paged: true, partial, page, itemsPerPage, offset } as const
    const read = (source: CollectionSource<object, Where>) => fetchCollectionPage(source, request)
    const decision = { mode, page } as const
    if (asked.size === undefined)
      return {
        decision,
        read,
        viewed: false,
        link: (path) => (target) => `${path}?${pageName}=${target.page}`,
        // Asked by its number, a collection of one page is known by its path.
        canonical: (_c, content, path) => (start !== -1 && !content.paginated ? path : undefined),
      }
    // The general route's links: the size as sent, then the page (docs/paging.md#link-normal-form).
    const sized = `?${sizeName}=${asked.size}`
    const link = (path: string) => (target: LinkTarget) =>
      target.page === undefined ? `${path}${sized}` : `${path}${sized}&${pageName}=${target.page}`
    return {
      decision,
      read,
      viewed: true,
      link,
      canonical: (c, content, path) => canonicalFor(c, link(path)(content.self)),
    }
  }
}

const CURSOR: PagingDecision = { mode: 'cursor' }

/**
 * A cursor-paged operation's requests that give a position on its key's fields and nothing else
 * (no order, page size, page or filter), or no parameter at all; undefined when a filter of the
 * operation reads a key field (its operators share the field's parameter).
 */
function cursorAsk<M>(
  operation: CollectionOperation<M, boolean>,
  keys: readonly CursorKey[]
): AskOf | undefined {
  const { paging, resource } = operation
  const fields = new Set(keys.map((key) => key.field))
  const pageName = paging.parameters.page
  // The page parameter on a cursor operation asks for an offset page (docs/paging.md#d7).
  if (fields.has(pageName)) return undefined
  if (operation.query?.filters.some((filter) => fields.has(filter.field))) return undefined
  const empty: QueryMap = parseQuery('')
  const iris = positionIris(keys)
  return (url, start) => {
    let query = empty
    if (start !== -1) {
      if (url.includes('#', start)) return undefined
      query = parseQuery(url.slice(start + 1))
      if (query.size === 0 || isTruncated(query)) return undefined
      for (const [key, value] of query)
        if (!fields.has(key) || !(value instanceof Map)) return undefined
    }
    // The links keep no filter operator of a key field (keepFilterOperators): a request with one
    // is not answered here, and the read refuses any other operator.
    return {
      decision: CURSOR,
      viewed: false,
      read: (source) => {
        const bound = readCursorBound(query, keys, undefined, resource.provider)
        return fetchCursorPage(source, keys, paging.itemsPerPage, bound)
      },
      link: (path) => (target) => iris(path, query, target),
      canonical: (c, _content, path) =>
        start === -1 ? undefined : canonicalFor(c, iris(path, query, {})),
    }
  }
}

/**
 * The IRIs of the pages of a cursor-paged operation asked by a position alone: the general
 * route's (iriBuilder over the request's query, each link's position set over it), written from
 * the key's fields in the order it sorts them (compareQueryKeys), sorted once. Such a query holds
 * nothing but key fields, each a map of operators to values.
 */
function positionIris(
  keys: readonly CursorKey[]
): (path: string, query: QueryMap, target: LinkTarget) => string {
  const fields = keys.map((key) => key.field).sort(compareQueryKeys)
  /** `field%5Bop%5D=` of each field and cursor operator, as buildQuery writes them. */
  const names = new Map(
    fields.map((field) => [
      field,
      new Map<string, string>(
        [...CURSOR_OPERATORS].map((operator) => [
          operator,
          buildQuery(new Map([[field, new Map([[operator, '']])]])),
        ])
      ),
    ])
  )
  /**
   * A field's pairs: its operators' names written once, the values encoded; any other shape (an
   * operator of no cursor, a nested value) as buildQuery writes it.
   */
  const pairsOf = (field: string, value: QueryValue): string => {
    const known = names.get(field)
    if (typeof value === 'string' || !known) return buildQuery(new Map([[field, value]]))
    const pairs: string[] = []
    for (const [operator, given] of value) {
      const name = known.get(operator)
      if (name === undefined || typeof given !== 'string')
        return buildQuery(new Map([[field, value]]))
      pairs.push(`${name}${rawUrlEncode(given)}`)
    }
    return pairs.join('&')
  }
  return (path, query, { overrides }) => {
    let text = ''
    for (const field of fields) {
      const set = overrides?.find(([name]) => name === field)
      const value = set ? set[1] : query.get(field)
      const pairs = value === undefined ? '' : pairsOf(field, value)
      if (pairs !== '') text += text === '' ? pairs : `&${pairs}`
    }
    return text === '' ? path : `${path}?${text}`
  }
}

/**
 * The document of one page of `operation`, as text: what renderCollection renders and the general
 * route stringifies for a request the writer knows (`ask`), its fixed parts written once.
 */
function pageDocument<M>(
  operation: CollectionOperation<M, boolean>,
  search: (path: string) => Record<string, unknown> | undefined
): (
  page: CollectionPage<object>,
  path: string,
  base: string,
  toMember: (row: object) => unknown,
  ask: Pick<PlainAsk, 'viewed' | 'link'>
) => string {
  const { resource } = operation
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
  return (page, path, base, toMember, ask) => {
    const members = page.items.map(toMember)
    let text = `{"@context":${context(base)},"@id":${JSON.stringify(path)}${head}`
    if (page.totalItems !== undefined) text += `${totalTerm}${page.totalItems}`
    if (page.totalItemsAccuracy)
      text += `,"totalItemsAccuracy":${JSON.stringify(page.totalItemsAccuracy)}`
    text += `${memberTerm}${JSON.stringify(members)}`
    if (page.paginated || ask.viewed) {
      const link = ask.link(path)
      const iri = (target: LinkTarget) => JSON.stringify(link(target))
      text += `${viewTerm}${iri(page.self)}${viewType}`
      if (page.paginated)
        for (const [key, name] of links) {
          const target = page[key]
          if (target) text += `${name}${iri(target)}`
        }
      text += '}'
    }
    return `${text}${searchText(path)}}`
  }
}
