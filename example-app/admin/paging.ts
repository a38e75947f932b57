/**
 * How the admin pages one collection, read from the collection itself rather than assumed: the
 * admin's data provider always sends `page` and `itemsPerPage` and counts pages with its own page
 * size, so where the server fixes the page size (or caps it) the two must agree, or rows are
 * skipped or shown twice.
 *
 * The collection's `hydra:search` says which variables it takes (`page` as `hydra:pageIndex`,
 * `itemsPerPage` as `hydra:limit`); the server's page size is what its first page holds when a
 * next page follows, and its maximum is what a page asked for with more rows than any choice holds.
 * The documentation states neither as data (only in its descriptions' prose), hence the reads.
 */

/** react-admin's own rows-per-page choices, kept where the server accepts them. */
const CHOICES = [5, 10, 25, 50] as const

/** The query parameters @api-platform/admin's data provider sends, and what they must mean. */
const PAGE = { variable: 'page', property: 'hydra:pageIndex' } as const
const PAGE_SIZE = { variable: 'itemsPerPage', property: 'hydra:limit' } as const

export interface Paging {
  /** False when the collection takes no page parameter: one response holds every row. */
  paged: boolean
  /** Rows per page the admin asks for first: the server's own page size. */
  perPage: number
  /** Page sizes the server serves as asked, in order; a single one offers no choice. */
  perPageChoices: number[]
}

/** One page of a collection as the paging needs it, prefixed (`hydra:member`) or not. */
interface Page {
  members: number
  hasNext: boolean
  /** Each `hydra:search` variable with the property it maps to. */
  variables: Map<string, string>
}

type Json = Record<string, unknown>

/** A Hydra key, written with the `hydra:` prefix or without it (API Platform 4 style). */
function hydra(json: Json, key: string): unknown {
  return json[`hydra:${key}`] ?? json[key]
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A property IRI as compacted by the API's context: `hydra:limit` or its full IRI. */
function compactHydra(property: unknown): string | undefined {
  const id = isObject(property) ? property['@id'] : property
  if (typeof id !== 'string') return undefined
  return id.replace('http://www.w3.org/ns/hydra/core#', 'hydra:')
}

async function readPage(url: URL): Promise<Page> {
  const response = await fetch(url, { headers: { accept: 'application/ld+json' } })
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`)
  const body = (await response.json()) as Json
  const members = hydra(body, 'member')
  const view = hydra(body, 'view')
  const search = hydra(body, 'search')
  const mapping = isObject(search) ? hydra(search, 'mapping') : undefined
  const variables = new Map<string, string>()
  for (const entry of Array.isArray(mapping) ? mapping : []) {
    if (!isObject(entry)) continue
    const variable = hydra(entry, 'variable')
    const property = compactHydra(hydra(entry, 'property'))
    if (typeof variable === 'string' && property) variables.set(variable, property)
  }
  return {
    members: Array.isArray(members) ? members.length : 0,
    hasNext: isObject(view) && hydra(view, 'next') !== undefined,
    variables,
  }
}

/** How to page the collection at `collectionUrl` (two reads at most, of its first page). */
export async function pagingOf(collectionUrl: string): Promise<Paging> {
  const url = new URL(collectionUrl)
  const first = await readPage(url)
  // A full first page followed by another: its size is the server's; otherwise every row fit.
  const serverSize = first.hasNext ? first.members : undefined
  const perPage = serverSize ?? Math.max(first.members, 1)
  if (first.variables.get(PAGE.variable) !== PAGE.property)
    return { paged: false, perPage, perPageChoices: [perPage] }
  if (first.variables.get(PAGE_SIZE.variable) !== PAGE_SIZE.property)
    return { paged: true, perPage, perPageChoices: [perPage] }

  // The client chooses the page size: ask for more than any choice; a server that caps the size
  // serves fewer with a next page, and that size is its maximum.
  const largest = Math.max(...CHOICES, perPage) + 1
  url.searchParams.set(PAGE_SIZE.variable, String(largest))
  const probe = await readPage(url)
  const maximum = probe.hasNext && probe.members < largest ? probe.members : undefined
  const sizes = new Set<number>([...CHOICES, perPage, ...(maximum ? [maximum] : [])])
  const perPageChoices = [...sizes]
    .filter((size) => size > 0 && (maximum === undefined || size <= maximum))
    .sort((a, b) => a - b)
  return { paged: true, perPage: Math.min(perPage, maximum ?? perPage), perPageChoices }
}
