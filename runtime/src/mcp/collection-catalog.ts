/**
 * @module
 * The collections an agent can read, as `list_collections` lists them: each collection operation
 * and to-many sub-collection the app serves, with its path (an IRI template where it has a key),
 * its members' type and item template, how it pages, and what it may be filtered, ordered and
 * shaped by, each parameter with the words and schema of the OpenAPI document.
 */
import type { PagingConfig } from '../contract/paging.js'
import type { ApiDescription, DocumentedCollection } from '../hydra/documentation.js'
import { renderOpenApi } from '../openapi/document.js'
import type { Schema } from '../openapi/schemas.js'

/** How a collection pages, in one word. */
export type PagingMode = 'pages' | 'partial' | 'cursor' | 'unpaged'

/** A query parameter of a collection, as the OpenAPI document describes it. */
export interface CollectionParameter {
  /** Its name as HTTP reads it (`title`, `price[gte]`, `genre[]`). */
  name: string
  description: string
  schema: Schema
}

/** A collection as `list_collections` shows it, and what `read_collection` needs of it. */
export interface CatalogCollection {
  /** The entrypoint's key (`book`, `bookRecent`), or `<type><Relation>` for a sub-collection. */
  name: string
  /** Its path under the mount path, `{id}` for a parent's key (`/authors/{id}/books`). */
  path: string
  /** The type of its members. */
  type: string
  /** Its description, the OpenAPI operation's summary and description. */
  description: string
  /** The IRI template of its members' items (`/books/{id}`), when they have item routes. */
  item?: string | undefined
  paging: PagingMode
  /** Whether its pages give `totalItems`. */
  counted: boolean
  /** Its filters, each with the document's words. */
  filters: CollectionParameter[]
  /**
   * The positions a cursor-paged read may start from (`occurredAt[lt]`, `id[gt]`), as
   * docs/cursor-paging.md documents them over HTTP; empty for other paging.
   */
  positions: string[]
  /** The text filters `search` reads it by: those matching part of a text (`title`), unless named. */
  searchable: string[]
  /**
   * Its filters of text `search` may read it by, as an app names them (`hydraMcp`'s
   * `searchFields`): each search filter of a String field, its own or a relation's (`author.name`),
   * but those naming a row by its IRI or a uuid.
   */
  texts: string[]
  /** The properties it may be ordered by (`title`, `author.name`). */
  order: string[]
  /** The properties its members may be reduced to (`title`, `author.name`); empty: all. */
  properties: string[]
  /** The parameter turning paging off (`pagination`), which no cursor may carry. */
  switch: string
  /** The page size a read asks for: the largest a client may choose, when it may. */
  pageSize?: { parameter: string; value: number } | undefined
}

/** What the catalog reads of an OpenAPI GET operation. */
interface DocumentedOperation {
  summary: string
  description?: string
  parameters: (CollectionParameter & { in: string })[]
}

/** The page size asked for when clients may choose it and the collection sets no maximum. */
const UNBOUNDED_PAGE_SIZE = 100

const modeOf = (paging: PagingConfig): PagingMode =>
  !paging.enabled
    ? 'unpaged'
    : paging.cursor && paging.cursor.length > 0
      ? 'cursor'
      : paging.partial
        ? 'partial'
        : 'pages'

const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1)
const upperFirst = (name: string) => name.charAt(0).toUpperCase() + name.slice(1)

/** Each collection path of `api` with its name, member type and settings. */
function collectionPaths(
  api: ApiDescription
): Map<string, { name: string; type: string; collection: DocumentedCollection; item?: string }> {
  const types = new Map(api.types.map((type) => [type.name, type]))
  const paths = new Map<
    string,
    { name: string; type: string; collection: DocumentedCollection; item?: string }
  >()
  const itemOf = (name: string) => {
    const path = types.get(name)?.itemPath
    return path ? { item: `${path}/{id}` } : {}
  }
  for (const type of api.types) {
    for (const collection of type.collections)
      paths.set(collection.path, {
        name: collection.name,
        type: type.name,
        collection,
        ...itemOf(type.name),
      })
    for (const link of type.links ?? []) {
      const main = types.get(link.target.name)?.collections[0]
      if (link.kind !== 'many' || !type.itemPath || !main) continue
      paths.set(`${type.itemPath}/{id}/${link.name}`, {
        name: `${lowerFirst(type.name)}${upperFirst(link.name)}`,
        type: link.target.name,
        collection: main,
        ...itemOf(link.target.name),
      })
    }
  }
  return paths
}

/** The properties a `properties[]` or `properties[relation][]` parameter offers, dotted. */
function selectable(parameter: CollectionParameter): string[] {
  const values = (parameter.schema.items as Schema | undefined)?.enum
  if (!Array.isArray(values)) return []
  const relation = /^properties\[([^\]]+)\]\[\]$/.exec(parameter.name)?.[1]
  return values.map((value) => (relation ? `${relation}.${value}` : String(value)))
}

/** The fields of a collection's own text filters that match part of a value. */
function textFilters(collection: DocumentedCollection): string[] {
  return (collection.query?.filters ?? []).flatMap((filter) =>
    filter.kind === 'search' &&
    filter.type === 'String' &&
    !filter.relation &&
    !filter.through &&
    filter.strategy !== 'exact' &&
    filter.strategy !== 'iexact'
      ? [filter.field]
      : []
  )
}

/** The fields of a collection's search filters of text, which `search` may read. */
function textFields(collection: DocumentedCollection): string[] {
  return (collection.query?.filters ?? []).flatMap((filter) =>
    filter.kind === 'search' &&
    filter.type === 'String' &&
    !filter.uuid &&
    !filter.relation &&
    !filter.items
      ? [filter.field]
      : []
  )
}

/** A collection of the catalog from its OpenAPI operation. */
function entry(
  path: string,
  operation: DocumentedOperation,
  found: { name: string; type: string; collection: DocumentedCollection; item?: string }
): CatalogCollection {
  const { paging } = found.collection
  const names = paging.parameters
  const keyset = new Set((paging.cursor ?? []).map((key) => key.field))
  const filters: CollectionParameter[] = []
  const positions: string[] = []
  const order: string[] = []
  const properties: string[] = []
  let pageSize: CatalogCollection['pageSize']
  for (const parameter of operation.parameters) {
    const { name } = parameter
    if (parameter.in !== 'query') continue
    const ordered = /^order\[(.+)\]$/.exec(name)?.[1]
    if (ordered !== undefined) order.push(ordered)
    else if (name === 'properties[]' || /^properties\[[^\]]+\]\[\]$/.test(name))
      properties.push(...selectable(parameter))
    else if (name === names.itemsPerPage) {
      const maximum = parameter.schema.maximum
      pageSize = {
        parameter: name,
        value: typeof maximum === 'number' ? maximum : UNBOUNDED_PAGE_SIZE,
      }
    } else if (name === names.page || name === names.enabled || name === names.partial) continue
    // A keyset position (`occurredAt[lt]`) is the cursor's: a read may start from it.
    else if (keyset.has(name.replace(/\[(lt|gt|lte|gte)\]$/, ''))) positions.push(name)
    else filters.push({ name, description: parameter.description, schema: parameter.schema })
  }
  const mode = modeOf(paging)
  return {
    name: found.name,
    path,
    type: found.type,
    description: operation.description
      ? `${operation.summary} ${operation.description}`
      : operation.summary,
    ...(found.item ? { item: found.item } : {}),
    paging: mode,
    switch: names.enabled,
    counted: mode === 'pages' || mode === 'unpaged',
    filters,
    positions,
    searchable: textFilters(found.collection).filter((name) =>
      filters.some((filter) => filter.name === name)
    ),
    texts: textFields(found.collection).filter((name) =>
      filters.some((filter) => filter.name === name)
    ),
    order,
    properties,
    ...(pageSize ? { pageSize } : {}),
  }
}

/**
 * The collections of `api` mounted at `base` that the app serves (`served`: custom collections
 * the documentation lists are other apps' routes), in the OpenAPI document's order.
 */
export function collectionCatalog(
  api: ApiDescription,
  base: string,
  served: (path: string) => boolean
): CatalogCollection[] {
  const document = renderOpenApi(api, { origin: '', base })
  const operations = document.paths as Record<string, { get: DocumentedOperation }>
  const known = collectionPaths(api)
  const catalog: CatalogCollection[] = []
  for (const [path, { get }] of Object.entries(operations)) {
    const found = known.get(path)
    if (found && served(path)) catalog.push(entry(path, get, found))
  }
  return catalog
}
