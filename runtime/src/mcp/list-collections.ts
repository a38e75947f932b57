/**
 * @module
 * `list_collections`: every collection of the catalog as an agent chooses one to read, compactly
 * (docs/mcp.md#list_collections): its name and path (an IRI template where a parent's key goes),
 * its members' type, how it pages, and the names of the filters, positions and orders its caller
 * may use (caller-collections.ts) and of the fields `search` reads it by, or why its caller may
 * not read it; as many as a tenth of a client's
 * budget holds, with a `nextCursor` (the index of the next one) while more follow. Given a
 * `collection`, that one in full: each filter with the OpenAPI document's words and schema, the
 * properties its members may be reduced to, its item template.
 */
import { type CallerCollection, callerCollection } from './caller-collections.js'
import type { CatalogCollection } from './collection-catalog.js'
import { collectionAt } from './iri-paths.js'
import { membersWithin, textOf } from './page-budget.js'
import { ToolArgumentError } from './tool-argument-error.js'
import { refuseUnknown } from './tool-arguments.js'
import type { ToolContext } from './tool-context.js'
import { structured, type ToolResult, toolError } from './tool-result.js'

export const LIST_COLLECTIONS = 'list_collections'

/**
 * The most characters of a result listing the collections: a tenth of the 50,000 past which Claude
 * Code writes a tool's result to a file rather than reading it (docs/mcp.md), so that the list an
 * agent reads first costs it little.
 */
const LIST_BUDGET = 5_000

/**
 * Fewer characters than any entry of the list holds, with its comma: the shortest,
 * `{"name":"a","path":"/a","type":"A","paging":"pages","filters":[],"order":[]}`, has 76.
 */
const SHORTEST_ENTRY = 60

/** A collection as the list shows it, its path under the mount path: its parameters by name. */
function compact({ collection, refused }: CallerCollection, base: string): Record<string, unknown> {
  const { name, path, type, paging, filters, positions, order, searchable } = collection
  return {
    name,
    path: `${base}${path}`,
    type,
    paging,
    filters: filters.map((filter) => filter.name),
    ...(positions.length > 0 ? { positions } : {}),
    order,
    ...(searchable.length > 0 ? { search: searchable } : {}),
    ...(refused !== undefined ? { refused } : {}),
  }
}

/** A collection in full, its paths under the mount path. */
function detailed(
  { collection, refused }: CallerCollection,
  base: string
): Record<string, unknown> {
  const { name, path, type, description, item, paging, counted, filters, order, properties } =
    collection
  return {
    name,
    path: `${base}${path}`,
    type,
    description,
    ...(item ? { item: `${base}${item}` } : {}),
    paging,
    counted,
    filters: filters.map((filter) => ({
      name: filter.name,
      description: filter.description,
      schema: filter.schema,
    })),
    ...(collection.positions.length > 0 ? { positions: collection.positions } : {}),
    order,
    properties,
    ...(collection.searchable.length > 0 ? { search: collection.searchable } : {}),
    ...(refused !== undefined ? { refused } : {}),
  }
}

/** The collection `named`: its name, or its path as the list gives it or with a parent's key. */
function collectionNamed(context: ToolContext, named: unknown): CatalogCollection {
  if (typeof named !== 'string' || named === '')
    throw new ToolArgumentError('The argument collection is the name or the path of a collection.')
  const { catalog, base } = context
  const found =
    catalog.find((entry) => entry.name === named || `${base}${entry.path}` === named) ??
    collectionAt(catalog, base, named.split('?', 1)[0] ?? named)
  if (found === undefined)
    throw new ToolArgumentError(
      `No collection of this API is ${named}: list_collections lists their names and paths.`
    )
  return found
}

/** The answer to a call of `list_collections` for one collection, `named`. */
async function describeCollection(context: ToolContext, named: unknown): Promise<ToolResult> {
  const entry = detailed(
    await callerCollection(context, collectionNamed(context, named)),
    context.base
  )
  if (textOf({ collection: entry }).length > context.budget)
    return toolError(`The description of ${named} is longer than ${context.budget} characters.`)
  return structured({ collection: entry })
}

/** The answer to a call of `list_collections` with `args`. */
export async function listCollections(
  context: ToolContext,
  args: Record<string, unknown>
): Promise<ToolResult> {
  refuseUnknown(LIST_COLLECTIONS, args, ['cursor', 'collection'])
  const { cursor, collection } = args
  if (collection !== undefined) {
    if (cursor !== undefined)
      throw new ToolArgumentError('The argument collection is read alone, without a cursor.')
    return describeCollection(context, collection)
  }
  const from = cursor === undefined ? 0 : Number(cursor)
  if (
    cursor !== undefined &&
    (typeof cursor !== 'string' || !/^[1-9][0-9]*$/.test(cursor) || from >= context.catalog.length)
  )
    throw new ToolArgumentError('The cursor is not one list_collections answered.')
  const budget = Math.min(context.budget, LIST_BUDGET)
  // No collection past what one result can hold is read: each costs a request of the caller's.
  const rest = context.catalog.slice(from, from + Math.ceil(budget / SHORTEST_ENTRY))
  const listed = (await Promise.all(rest.map((entry) => callerCollection(context, entry)))).map(
    (entry) => compact(entry, context.base)
  )
  const frame = (kept: readonly unknown[]) => {
    const after = from + kept.length
    return {
      collections: kept,
      ...(after < context.catalog.length ? { nextCursor: String(after) } : {}),
    }
  }
  const count = membersWithin(listed, budget, frame)
  if (count === 0 && listed.length > 0)
    return toolError(`A collection's entry is longer than ${budget} characters.`)
  return structured(frame(listed.slice(0, count)))
}
