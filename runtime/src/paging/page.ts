import type { CollectionPage, FullPaginator, PartialPaginator } from './types.js'

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
