import type { HydraHttpClientResponse } from '@api-platform/admin'

/**
 * How a collection pages and what it searches by, as its first page says: the Hydra documentation
 * states neither the page size nor the search variables as data (API Platform writes the size in
 * its descriptions' prose only), so the page itself is read, once per collection.
 */
export interface CollectionPaging {
  /**
   * Rows per page the server serves when not asked for a size: the first page's rows when a next
   * page follows it; undefined when the first page held every row.
   */
  pageSize: number | undefined
  /** The collection takes `page` as `hydra:pageIndex`, the variable the admin sends. */
  takesPage: boolean
  /** The collection takes `itemsPerPage` as `hydra:limit`, the variable the admin sends. */
  takesSize: boolean
  /**
   * The largest page size served as asked, once a page was served shorter than asked while more
   * rows followed (a server capping the size); undefined until then.
   */
  maximum: number | undefined
  /**
   * The largest page size seen served as asked (a page of that many rows when asked for them), so
   * that a page past the first is asked for at it without first learning whether the server caps
   * it; undefined until then.
   */
  served: number | undefined
  /** The variables of the collection's `hydra:search`. */
  variables: ReadonlySet<string>
}

/** How @api-platform/admin's data provider fetches (`fetchHydra` unless the app gives its own). */
export type HydraHttpClient = (url: URL) => Promise<HydraHttpClientResponse>

type Json = Record<string, unknown>

const HYDRA = 'http://www.w3.org/ns/hydra/core#'

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A Hydra key written with the `hydra:` prefix or without it (API Platform 4's style). */
function hydra(json: Json, key: string): unknown {
  return json[`hydra:${key}`] ?? json[key]
}

/** A mapping's property as `hydra:limit`, whether the context compacted it or not. */
function propertyOf(mapping: Json): string | undefined {
  const property = hydra(mapping, 'property')
  const id = isObject(property) ? property['@id'] : property
  return typeof id === 'string' ? id.replace(HYDRA, 'hydra:') : undefined
}

/** The paging of the collection at `url`, from one read of its first page. */
export async function readPaging(httpClient: HydraHttpClient, url: URL): Promise<CollectionPaging> {
  const { json } = await httpClient(url)
  const body: Json = isObject(json) ? json : {}
  const members = hydra(body, 'member')
  const view = hydra(body, 'view')
  const search = hydra(body, 'search')
  const mapping = isObject(search) ? hydra(search, 'mapping') : undefined
  const properties = new Map<string, string | undefined>()
  for (const entry of Array.isArray(mapping) ? mapping : []) {
    const variable = isObject(entry) ? hydra(entry, 'variable') : undefined
    if (typeof variable === 'string') properties.set(variable, propertyOf(entry as Json))
  }
  const hasNext = isObject(view) && hydra(view, 'next') !== undefined
  const rows = Array.isArray(members) ? members.length : 0
  return {
    pageSize: hasNext && rows > 0 ? rows : undefined,
    takesPage: properties.get('page') === 'hydra:pageIndex',
    takesSize: properties.get('itemsPerPage') === 'hydra:limit',
    maximum: undefined,
    served: undefined,
    variables: new Set(properties.keys()),
  }
}
