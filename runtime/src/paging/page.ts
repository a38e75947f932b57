import type { QueryValue } from '../iri/query-string.js'
import type { TotalAccuracy } from './totals.js'

/**
 * Where a view link points: the request's own query with the page parameter set to `page` (when
 * given) and the `overrides` applied (cursor links). An empty target is the request without a page.
 */
export interface LinkTarget {
  page?: number
  overrides?: ReadonlyArray<readonly [string, QueryValue | undefined]>
}

/**
 * What every paging strategy and every paginator produces, and the only thing the Hydra renderer
 * reads: it shows whatever is present and never asks which strategy made it.
 */
export interface CollectionPage<T> {
  items: T[]
  /** Shown as `hydra:totalItems` when present. */
  totalItems?: number
  /** Present when `totalItems` is not exact: shown as `totalItemsAccuracy` (docs/paging.md). */
  totalItemsAccuracy?: Exclude<TotalAccuracy, 'exact'>
  /** A collection that is one page of something larger. With no filters, an unpaginated one has no view. */
  paginated: boolean
  /** The view's own `@id`. */
  self: LinkTarget
  first?: LinkTarget
  last?: LinkTarget
  previous?: LinkTarget
  next?: LinkTarget
}

/** Fields shared by both paginator kinds (spec 4.2). */
export interface PaginatorBase<T> {
  items: T[]
  /** 1-based. */
  currentPage: number
  itemsPerPage: number
}

/** A page that knows the size of the whole collection: gives first, last, previous and next. */
export interface FullPaginator<T> extends PaginatorBase<T> {
  totalItems: number
  lastPage: number
  /** Set when `totalItems` is an estimate or a cached count rather than an exact count. */
  totalItemsAccuracy?: Exclude<TotalAccuracy, 'exact'>
}

/** A page that only knows whether another follows: gives previous and next, no count. */
export interface PartialPaginator<T> extends PaginatorBase<T> {
  hasNextPage: boolean
}

/** First page number and the reference's page arithmetic: a page size of 0 has one page. */
export function lastPageOf(totalItems: number, itemsPerPage: number): number {
  if (itemsPerPage <= 0) return 1
  return Math.max(Math.ceil(totalItems / itemsPerPage), 1)
}

export function fromFullPaginator<T>(paginator: FullPaginator<T>): CollectionPage<T> {
  const { currentPage, lastPage } = paginator
  const page: CollectionPage<T> = {
    items: paginator.items,
    totalItems: paginator.totalItems,
    ...(paginator.totalItemsAccuracy ? { totalItemsAccuracy: paginator.totalItemsAccuracy } : {}),
    paginated: lastPage !== 1,
    self: { page: currentPage },
  }
  if (!page.paginated) return { ...page, self: {} }
  page.first = { page: 1 }
  page.last = { page: lastPage }
  if (currentPage !== 1) page.previous = { page: currentPage - 1 }
  if (currentPage < lastPage) page.next = { page: currentPage + 1 }
  return page
}

export function fromPartialPaginator<T>(paginator: PartialPaginator<T>): CollectionPage<T> {
  const { currentPage } = paginator
  const page: CollectionPage<T> = {
    items: paginator.items,
    paginated: true,
    self: { page: currentPage },
  }
  if (currentPage !== 1) page.previous = { page: currentPage - 1 }
  if (paginator.hasNextPage) page.next = { page: currentPage + 1 }
  return page
}

/** A whole collection in one response: its size is the number of items. */
export function fromItems<T>(items: T[]): CollectionPage<T> {
  return { items, totalItems: items.length, paginated: false, self: {} }
}
