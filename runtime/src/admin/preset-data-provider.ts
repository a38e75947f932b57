import type { ApiPlatformAdminDataProvider, IntrospectPayload } from '@api-platform/admin'
import type { GetListParams, GetListResult, SortPayload } from 'react-admin'
import type { CollectionPaging } from './collection-paging.js'
import { type GetList, listPage } from './list-pages.js'

/** The page sizes react-admin's `Pagination` offers unless told otherwise. */
const REACT_ADMIN_SIZES = [5, 10, 25, 50]

/**
 * The preset's data provider: @api-platform/admin's, and the page sizes a list of each resource
 * offers.
 */
export interface HydraPresetDataProvider extends ApiPlatformAdminDataProvider {
  /**
   * The page sizes to offer on `resource`'s list (react-admin `Pagination`'s
   * `rowsPerPageOptions`): react-admin's own (5, 10, 25, 50) and the collection's page size, the
   * size its list opens at, so that the choice shows it (react-admin shows an empty choice for a
   * size it does not offer). Every size is served exactly.
   */
  rowsPerPageOptions(resource: string): number[]
}

/** No `order[...]` parameter: the collection's own order (the admin's default is `id DESC`). */
const OWN_ORDER: SortPayload = { field: '', order: 'ASC' }

/** `sort` where the collection documents `order[field]` (each of a comma-separated list), else none. */
function documentedSort(paging: CollectionPaging, sort: SortPayload | undefined): SortPayload {
  if (!sort?.field) return OWN_ORDER
  const fields = sort.field.split(',').map((field) => field.trim())
  return fields.every((field) => paging.variables.has(`order[${field}]`)) ? sort : OWN_ORDER
}

/**
 * @api-platform/admin's Hydra data provider `hydra`, its lists paged as `paging` says each
 * collection pages (list-pages.ts) and sorted only as documented, its `getMany` one page of the
 * `id[]` filter where the collection has it, and its documentation read once (`introspected`,
 * read already by the preset) where it was.
 */
export function presetDataProvider(
  hydra: ApiPlatformAdminDataProvider,
  paging: ReadonlyMap<string, CollectionPaging>,
  introspected: IntrospectPayload | undefined
): HydraPresetDataProvider {
  const getList: GetList = (resource, params) => hydra.getList(resource, params)
  const list = (resource: string, params: GetListParams): Promise<GetListResult> => {
    const collection = paging.get(resource)
    if (!collection) return getList(resource, params)
    return listPage(getList, collection, resource, {
      ...params,
      sort: documentedSort(collection, params.sort),
    })
  }
  return {
    ...hydra,
    getList: list,
    getMany: async (resource, params) => {
      const collection = paging.get(resource)
      const byIds = collection?.variables.has('id') || collection?.variables.has('id[]')
      if (!byIds || params.ids.length === 0) return hydra.getMany(resource, params)
      // The items named, as many per page as there are ids (or the server's pages holding them).
      const { data } = await list(resource, {
        pagination: { page: 1, perPage: params.ids.length },
        sort: OWN_ORDER,
        filter: { id: params.ids },
        ...(params.signal && { signal: params.signal }),
      })
      return { data }
    },
    introspect: introspected ? async () => introspected : hydra.introspect,
    rowsPerPageOptions(resource) {
      const collection = paging.get(resource)
      const opensAt = collection?.takesPage ? collection.pageSize : undefined
      const sizes = new Set(REACT_ADMIN_SIZES)
      if (opensAt !== undefined) sizes.add(opensAt)
      return [...sizes].sort((a, b) => a - b)
    },
  }
}
