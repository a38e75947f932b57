/**
 * What every server of bench/peers-server.ts answers, byte for byte: the generated route's
 * JSON-LD documents for a page of full, partial and cursor paging of the events (30 a page, newest
 * first), and the query parameters they are read from.
 */
export const PER_PAGE = 30
export const CONTENT_TYPE = 'application/ld+json; charset=utf-8'

export interface EventRow {
  id: number
  createdAt: Date
  payload: string
}

/** A position in the feed's order: the `createdAt` and `id` of a row. */
export interface Position {
  createdAt: Date
  id: number
}

/** The header every response of the API carries: where its documentation is. */
export const link = (origin: string) =>
  `<${origin}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`

const members = (rows: EventRow[]) =>
  rows.map((row) => ({
    '@id': `/events/${row.id}`,
    '@type': 'Event',
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    payload: row.payload,
  }))

/**
 * The `hydra:search` the generated routes write on the pages measured: each is asked with a query
 * (`?page=2`, a feed position), so it names the template its entry page holds
 * (docs/filters.md#discovery-hydrasearch) rather than repeating it.
 */
function search(path: string) {
  return { '@id': `${path}#search` }
}

/** The generated route's document for a page of full paging. */
export function fullDocument(rows: EventRow[], totalItems: number, page: number) {
  const lastPage = Math.max(Math.ceil(totalItems / PER_PAGE), 1)
  const at = (target: number) => `/events?page=${target}`
  const view: Record<string, string> = {
    '@id': at(page),
    '@type': 'hydra:PartialCollectionView',
    'hydra:first': at(1),
    'hydra:last': at(lastPage),
  }
  if (page > 1) view['hydra:previous'] = at(page - 1)
  if (page < lastPage) view['hydra:next'] = at(page + 1)
  return {
    '@context': '/contexts/Event',
    '@id': '/events',
    '@type': 'hydra:Collection',
    'hydra:totalItems': totalItems,
    'hydra:member': members(rows),
    ...(lastPage > 1 ? { 'hydra:view': view } : {}),
    'hydra:search': search('/events'),
  }
}

/** The generated route's document for a page of partial paging. */
export function partialDocument(rows: EventRow[], hasNext: boolean, page: number) {
  const at = (target: number) => `/events/partial?page=${target}`
  const view: Record<string, string> = { '@id': at(page), '@type': 'hydra:PartialCollectionView' }
  if (page > 1) view['hydra:previous'] = at(page - 1)
  if (hasNext) view['hydra:next'] = at(page + 1)
  return {
    '@context': '/contexts/Event',
    '@id': '/events/partial',
    '@type': 'hydra:Collection',
    'hydra:member': members(rows),
    'hydra:view': view,
    'hydra:search': search('/events/partial'),
  }
}

/** The feed's link to the rows past (`lt`) or before (`gt`) a row. */
export const feedLink = (row: Position, operator: 'lt' | 'gt') =>
  `/events/feed?createdAt%5B${operator}%5D=${encodeURIComponent(row.createdAt.toISOString())}&id%5B${operator}%5D=${row.id}`

/**
 * The generated route's document for the feed page after `after`: `previous` when a row precedes
 * the page (the rows measured always have one: the position's own row), `next` when one follows.
 */
export function cursorDocument(rows: EventRow[], after: Position, hasNext: boolean) {
  const view: Record<string, string> = {
    '@id': feedLink(after, 'lt'),
    '@type': 'hydra:PartialCollectionView',
  }
  const first = rows[0]
  const last = rows.at(-1)
  if (first) view['hydra:previous'] = feedLink(first, 'gt')
  if (hasNext && last) view['hydra:next'] = feedLink(last, 'lt')
  return {
    '@context': '/contexts/Event',
    '@id': '/events/feed',
    '@type': 'hydra:Collection',
    'hydra:member': members(rows),
    'hydra:view': view,
    'hydra:search': search('/events/feed'),
  }
}

/** `?page=` as a page number, or undefined when it is not a positive integer. */
export function pageOf(raw: string | null | undefined): number | undefined {
  if (raw === null || raw === undefined) return 1
  const page = Number(raw)
  return Number.isSafeInteger(page) && page >= 1 ? page : undefined
}

/** The feed's position from `createdAt[lt]` and `id[lt]`, or undefined when malformed. */
export function positionOf(
  query: (name: string) => string | null | undefined
): Position | undefined {
  const createdAt = new Date(query('createdAt[lt]') ?? '')
  const id = Number(query('id[lt]'))
  if (Number.isNaN(createdAt.getTime()) || !Number.isSafeInteger(id)) return undefined
  return { createdAt, id }
}
