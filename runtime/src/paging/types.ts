/**
 * @module
 * The types the paging pipeline passes along, in one place: the settings of an operation, what a
 * request asks for, where rows come from, and the page every strategy produces for the renderer.
 */
import type { QueryValue } from '../iri/query-string.js'
import type { KeysetPast } from '../plan/keyset-position.js'
import type { PageAndTotal, TotalAccuracy } from './totals.js'

/** What a request asks for, once its paging parameters are read and checked. */
export type PagingRequest =
  | {
      /** Unpaged: the whole collection, streamed. */
      paged: false
    }
  | {
      /** Paged: one page. */
      paged: true
      /** Whether the page is partial: no count, no last page. */
      partial: boolean
      /** 1-based page number. */
      page: number
      /** The page size (0: no items, only the count). */
      itemsPerPage: number
      /** (page - 1) × itemsPerPage. */
      offset: number
    }

/** A request for one page. */
export type PagedRequest = Extract<PagingRequest, { paged: true }>

/** Which rows to read, in Prisma's terms: spread it into `findMany` arguments. */
export interface RowWindow<Where = never> {
  /** Rows to pass over first (default 0). */
  skip?: number
  /** The most rows to read (default all). */
  take?: number
  /** Cursor paging and unpaged batches: the rows past a position in the key order. */
  past?: KeysetPast | undefined
  /**
   * The same rows as `Where` says them, for a source given by hand (`serveSource`): Prisma's
   * `where` of the position (the runtime's own sources read `past`).
   */
  where?: Where
  /** Read in the reverse of the collection's order (cursor paging's previous pages). */
  backward?: boolean
}

/**
 * Reads rows of one collection in its fixed order. Generated routes implement it over a Prisma
 * delegate; custom data providers can implement it over anything.
 */
export interface CollectionSource<Row, Where = never> {
  /**
   * Rows from `skip` (default 0), at most `take` of them (default all), in the collection's order,
   * in a new array on each call: a streamed (unpaged) response empties each batch once written.
   */
  findMany(window: RowWindow<Where>): PromiseLike<Row[]>
  /** The number of rows in the collection. */
  count(): PromiseLike<number>
  /**
   * Optional: the page and the count read together, so they agree with each other. A third element
   * says when the count is not exact (an estimate, a cached count): responses then say so.
   */
  findManyAndCount?(window: { skip: number; take: number }): PromiseLike<PageAndTotal<Row>>
}

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

/** Fields shared by both paginator kinds (docs/custom-collections.md). */
export interface PaginatorBase<T> {
  /** The page's items, in the collection's order. */
  items: T[]
  /** 1-based. */
  currentPage: number
  /** The page size. */
  itemsPerPage: number
}

/** A page that knows the size of the whole collection: gives first, last, previous and next. */
export interface FullPaginator<T> extends PaginatorBase<T> {
  /** The number of items in the whole collection. */
  totalItems: number
  /** Set when `totalItems` is an estimate or a cached count rather than an exact count. */
  totalItemsAccuracy?: Exclude<TotalAccuracy, 'exact'>
  /** The number of the last page (1 for an empty collection). */
  lastPage: number
}

/** A page that only knows whether another follows: gives previous and next, no count. */
export interface PartialPaginator<T> extends PaginatorBase<T> {
  /** Whether a page follows this one. */
  hasNextPage: boolean
}

/**
 * What a collection handler returns:
 * - a full paginator: the full view (first, last, previous, next) and `hydra:totalItems`;
 * - a partial paginator: the partial view (previous, next), no count;
 * - an array: the whole collection, no view (its length is `hydra:totalItems`);
 * - an iterable or async iterable: the whole collection too, streamed as it is read.
 */
export type CollectionResult<T> =
  | FullPaginator<T>
  | PartialPaginator<T>
  | readonly T[]
  | Iterable<T>
  | AsyncIterable<T>
