import {
  fetchHydra,
  type HydraDataProviderFactoryParams,
  hydraDataProvider,
  type IntrospectPayload,
} from '@api-platform/admin'
import { type AuthProvider, memoryStore, type Store } from 'react-admin'
import { type CollectionPaging, type HydraHttpClient, readPaging } from './collection-paging.js'
import {
  type DocumentedResource,
  documentedAccess,
  documentedAuthProvider,
} from './documented-access.js'
import { type HydraPresetDataProvider, presetDataProvider } from './preset-data-provider.js'

/** What {@link hydraAdminPreset} takes: @api-platform/admin's data provider's own parameters. */
export interface HydraAdminPresetOptions extends HydraDataProviderFactoryParams {
  /**
   * The app's own auth provider, if it has one: its answers stand, and the documentation's
   * operations decide `canAccess` besides it.
   */
  authProvider?: AuthProvider
}

/**
 * The props of `HydraAdmin` (or react-admin's `Admin`) that make it offer what the API documents
 * and page as the API pages: spread them into its props.
 */
export interface HydraAdminPreset {
  /**
   * @api-platform/admin's Hydra data provider, paging as the API pages and reading `id[]`; its
   * `rowsPerPageOptions(resource)` gives a list's `Pagination` the sizes to offer.
   */
  dataProvider: HydraPresetDataProvider
  /** `canAccess` from the documented operations, and the app's own auth provider if given. */
  authProvider: AuthProvider
  /** A store opening each list at its collection's own page size. */
  store: Store
}

/** react-admin's list parameters in the store (`<resource>.listParams`), at the page size given. */
function listParams(perPage: number) {
  return { filter: {}, displayedFilters: {}, page: 1, perPage, sort: null, order: null }
}

/**
 * A preset for API Platform's admin over a prisma-hydra API (or any Hydra API), read from its
 * documentation and its collections' first pages (one request each, in parallel):
 *
 * - no create, edit or delete (nor bulk delete, nor row checkboxes) where the documentation has
 *   no POST, PUT or PATCH, or DELETE operation;
 * - each list opens at its collection's own page size, and any page size react-admin asks for is
 *   served exactly (reading the server's pages that hold its rows where it serves another size),
 *   so a page is labelled by the rows it shows (`1-20 of more than 20`);
 * - `getMany` reads the items a page references in one request by the `id[]` filter
 *   (`/books?id[0]=/books/3&id[1]=/books/7`) where the collection's `hydra:search` has `id`;
 * - sorting only by the `order[...]` variables of `hydra:search`: otherwise the collection's own
 *   order.
 *
 * ```ts
 * const preset = await hydraAdminPreset({ entrypoint: 'http://localhost:3000', mercure: false })
 * createRoot(root).render(createElement(HydraAdmin, { entrypoint, ...preset }))
 * ```
 *
 * A documentation that cannot be read leaves the admin's own behaviour, for HydraAdmin to show why.
 */
export async function hydraAdminPreset(
  options: HydraAdminPresetOptions
): Promise<HydraAdminPreset> {
  const { authProvider, ...params } = options
  const hydra = hydraDataProvider(params)
  const introspected: IntrospectPayload | undefined = await hydra
    .introspect()
    .catch(() => undefined)
  const resources: DocumentedResource[] = introspected?.data.resources ?? []
  const httpClient: HydraHttpClient = params.httpClient ?? fetchHydra
  const listed = resources.filter((resource) =>
    (resource.operations ?? []).some((operation) => operation.type === 'list')
  )
  const read = await Promise.all(
    listed.map(async (resource) => {
      const paging = await readPaging(httpClient, new URL(resource.url)).catch(() => undefined)
      return [resource.name, paging] as const
    })
  )
  const paging = new Map<string, CollectionPaging>()
  for (const [name, found] of read) if (found) paging.set(name, found)
  const stored: Record<string, unknown> = {}
  for (const [name, { pageSize, takesPage }] of paging)
    if (takesPage && pageSize !== undefined) stored[`${name}.listParams`] = listParams(pageSize)
  return {
    dataProvider: presetDataProvider(hydra, paging, introspected),
    authProvider: documentedAuthProvider(documentedAccess(resources), authProvider),
    store: memoryStore(stored),
  }
}
