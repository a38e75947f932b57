import type { GetListParams, GetListResult } from 'react-admin'
import type { CollectionPaging } from './collection-paging.js'

/** @api-platform/admin's own `getList`: one request, the page and size react-admin asked for. */
export type GetList = (resource: string, params: GetListParams) => Promise<GetListResult>

type Pagination = NonNullable<GetListParams['pagination']>

/** Whether rows follow those of `result`, the page starting at row `start`. */
function moreAfter(result: GetListResult, start: number): boolean {
  if (typeof result.total === 'number') return start + result.data.length < result.total
  return result.pageInfo?.hasNextPage === true
}

/**
 * `result`, the rows from row `start` up to the collection's last, with its total: where the
 * server counts nothing (partial paging), react-admin would label the last page by the size asked
 * (`26-50 of 50` for 17 rows), while its rows tell the total. A page past the end tells nothing:
 * it stays as it is.
 */
function toTheEnd(result: GetListResult, start: number): GetListResult {
  if (typeof result.total === 'number' || (result.data.length === 0 && start > 0)) return result
  return { data: result.data, total: start + result.data.length }
}

/** The rows `[start, start + count)` out of `rows`, which begin at row `from`, as a page. */
function slice(pages: GetListResult[], from: number, { page, perPage }: Pagination): GetListResult {
  const rows = pages.flatMap((result) => result.data)
  const start = (page - 1) * perPage - from
  const last = pages.at(-1)
  const data = rows.slice(start, start + perPage)
  const total = pages[0]?.total
  if (typeof total === 'number') return { data, total }
  const more = rows.length > start + perPage || (last !== undefined && moreAfter(last, from))
  const result = { data, pageInfo: { hasNextPage: more, hasPreviousPage: page > 1 } }
  return more ? result : toTheEnd(result, from + start)
}

/** The size the server serves as asked: the client's where it may choose it, else its own. */
function servedSize(paging: CollectionPaging, perPage: number): number | undefined {
  if (paging.takesSize) return Math.min(perPage, paging.maximum ?? perPage)
  return paging.pageSize
}

/**
 * Reads the server's pages of `size` rows holding the rows react-admin asked for, in order, up to
 * the last one or the first with nothing after it.
 */
async function serverPages(
  getList: GetList,
  resource: string,
  params: GetListParams & { pagination: Pagination },
  size: number
): Promise<GetListResult> {
  const { page, perPage } = params.pagination
  const start = (page - 1) * perPage
  const first = Math.floor(start / size) + 1
  const last = Math.floor((start + perPage - 1) / size) + 1
  const pages: GetListResult[] = []
  for (let index = first; index <= last; index++) {
    const result = await getList(resource, {
      ...params,
      pagination: { page: index, perPage: size },
    })
    pages.push(result)
    if (!moreAfter(result, (index - 1) * size)) break
  }
  return slice(pages, (first - 1) * size, params.pagination)
}

/**
 * The page react-admin asked for (`page` of `perPage` rows), exactly, whatever size the server
 * serves: react-admin labels a page by the rows it asked for (`1-10 of 75`), so a server serving
 * another size than asked (a fixed one, a capped one, or one page of every row) would show rows
 * under another label, skip rows or show them twice. Where the server serves the size asked, this
 * is one request; where not, it reads the server's pages holding those rows and cuts them out.
 * A page served unlike the one asked teaches `paging` the server's size.
 */
export async function listPage(
  getList: GetList,
  paging: CollectionPaging,
  resource: string,
  params: GetListParams
): Promise<GetListResult> {
  const { pagination } = params
  if (!pagination) return getList(resource, params)
  const asked = { ...params, pagination }
  const start = (pagination.page - 1) * pagination.perPage
  if (!paging.takesPage) return slice([await getList(resource, asked)], 0, pagination)
  let size = servedSize(paging, pagination.perPage)
  if (size === pagination.perPage && pagination.page > 1 && unproven(paging, size)) {
    // A capped server serves a page past the first at its cap, from other rows than asked:
    // the first page, which starts where asked at any size, says which size is served.
    const first = await getList(resource, { ...asked, pagination: { page: 1, perPage: size } })
    const rows = first.data.length
    if (rows < size && !moreAfter(first, 0)) return slice([first], 0, pagination)
    if (rows === size) paging.served = Math.max(paging.served ?? 0, size)
    else size = learn(paging, rows, size)
  }
  if (size === undefined || size === pagination.perPage) {
    const result = await getList(resource, asked)
    const rows = result.data.length
    if (rows === pagination.perPage) paging.served = Math.max(paging.served ?? 0, rows)
    if (rows === pagination.perPage || rows === 0) return result
    const more = moreAfter(result, start)
    if (rows < pagination.perPage && !more) return toTheEnd(result, start)
    if (more) size = learn(paging, rows, pagination.perPage)
    else {
      // More rows than asked on the last page, which says nothing of the pages before it.
      const firstAsked = { ...asked, pagination: { page: 1, perPage: pagination.perPage } }
      const first = pagination.page === 1 ? result : await getList(resource, firstAsked)
      if (!moreAfter(first, 0)) return slice([first], 0, pagination)
      size = learn(paging, first.data.length, pagination.perPage)
    }
  }
  return serverPages(getList, resource, asked, size)
}

/**
 * Whether a server taking the client's size may serve `size` otherwise than asked: no cap is
 * known, and it is larger than its own size and than every size seen served whole.
 */
function unproven(paging: CollectionPaging, size: number): boolean {
  const proven = Math.max(paging.served ?? 0, paging.pageSize ?? 0)
  return paging.takesSize && paging.maximum === undefined && size > proven
}

/**
 * What a page served otherwise than asked says of the server, recorded in `paging`: more rows
 * than asked is a size of its own (whatever `hydra:search` says), fewer with more to come a cap
 * on the size asked. Returns the size the server serves.
 */
function learn(paging: CollectionPaging, rows: number, perPage: number): number {
  if (rows > perPage) {
    paging.takesSize = false
    paging.pageSize = rows
  } else if (paging.takesSize) paging.maximum = rows
  else paging.pageSize = rows
  return rows
}
