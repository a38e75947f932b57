/**
 * @module
 * `read_collection`: a page of any collection of the catalog, named by its name or its path
 * (with its parent's key where it has one), filtered, ordered and reduced to some properties by
 * the parameters the collection declares; or the page a `cursor` names. The first page asks for
 * the largest page size a client may choose, and the budget decides how many members a result
 * holds. Every filter, order and property a collection does not declare is refused by name.
 */
import type { CatalogCollection } from './collection-catalog.js'
import { collectionAt } from './iri-paths.js'
import { type PageCursor, readCursor } from './page-cursor.js'
import { readPage } from './page-reader.js'
import { ToolArgumentError } from './tool-argument-error.js'
import { refuseUnknown } from './tool-arguments.js'
import type { ToolContext } from './tool-context.js'
import type { ToolResult } from './tool-result.js'

export const READ_COLLECTION = 'read_collection'

/** The arguments `read_collection` takes. */
const READ_ARGUMENTS = ['collection', 'filters', 'order', 'properties', 'cursor'] as const

/** The text of a refused cursor. */
const FOREIGN_CURSOR =
  'The cursor is not a page of a collection of this API: pass back the nextCursor of a result.'

/** One value of a parameter as the query string writes it. */
function text(name: string, value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  throw new ToolArgumentError(`The value of ${name} is text, a number or a boolean.`)
}

/** An argument that is an object of values by name, or nothing. */
function record(name: string, value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ToolArgumentError(`The argument ${name} is an object of values by name.`)
  return value as Record<string, unknown>
}

/** The collection `named` (its name or its path under the mount path) and its path. */
function collectionNamed(
  context: ToolContext,
  named: unknown
): { collection: CatalogCollection; path: string } {
  if (typeof named !== 'string' || named === '')
    throw new ToolArgumentError('The argument collection (a name or a path) is required.')
  const { catalog, base } = context
  const byName = catalog.find((entry) => entry.name === named)
  const path = byName ? `${base}${byName.path}` : named
  if (path.includes('{'))
    throw new ToolArgumentError(
      `The collection ${named} is its parent's: give its path with the parent's key (${path}).`
    )
  const collection = byName ?? collectionAt(catalog, base, path)
  if (!collection)
    throw new ToolArgumentError(
      `No collection of this API is ${named}: list_collections lists their names and paths.`
    )
  return { collection, path }
}

/** The query string of a first page of `collection`, from the call's arguments. */
function queryOf(collection: CatalogCollection, args: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams()
  // A cursor position is read as a filter is: the API checks it against its cursor.
  const filters = new Set([
    ...collection.filters.map((filter) => filter.name),
    ...collection.positions,
  ])
  for (const [name, value] of Object.entries(record('filters', args.filters))) {
    if (!filters.has(name))
      throw new ToolArgumentError(`The collection ${collection.name} has no filter ${name}.`)
    for (const one of Array.isArray(value) ? value : [value]) query.append(name, text(name, one))
  }
  for (const [name, value] of Object.entries(record('order', args.order))) {
    if (!collection.order.includes(name))
      throw new ToolArgumentError(`The collection ${collection.name} is not ordered by ${name}.`)
    query.append(`order[${name}]`, text(name, value))
  }
  const properties = args.properties ?? []
  if (!Array.isArray(properties))
    throw new ToolArgumentError('The argument properties is a list of property names.')
  for (const property of properties) {
    if (typeof property !== 'string' || !collection.properties.includes(property))
      throw new ToolArgumentError(
        `The members of ${collection.name} have no property ${String(property)} to select.`
      )
    const dot = property.indexOf('.')
    if (dot < 0) query.append('properties[]', property)
    else query.append(`properties[${property.slice(0, dot)}][]`, property.slice(dot + 1))
  }
  if (collection.pageSize)
    query.set(collection.pageSize.parameter, String(collection.pageSize.value))
  return query
}

/** The page a call of `read_collection` reads. */
function pageOf(context: ToolContext, args: Record<string, unknown>): PageCursor {
  refuseUnknown(READ_COLLECTION, args, READ_ARGUMENTS)
  if (args.cursor !== undefined) {
    const cursor = readCursor(args.cursor, context.catalog, context.base, FOREIGN_CURSOR)
    const extra = ['filters', 'order', 'properties'].find((name) => args[name] !== undefined)
    if (extra !== undefined)
      throw new ToolArgumentError(
        `A cursor carries its query: pass it without ${extra} (or without the cursor).`
      )
    if (args.collection !== undefined) {
      const { collection } = collectionNamed(context, args.collection)
      if (collection !== cursor.collection) throw new ToolArgumentError(FOREIGN_CURSOR)
    }
    return cursor
  }
  const { collection, path } = collectionNamed(context, args.collection)
  const search = queryOf(collection, args).toString()
  return { link: search ? `${path}?${search}` : path, from: 0, collection }
}

/** The answer to a call of `read_collection` with `args`. */
export function readCollection(
  context: ToolContext,
  args: Record<string, unknown>
): Promise<ToolResult> {
  return readPage(context, pageOf(context, args))
}
