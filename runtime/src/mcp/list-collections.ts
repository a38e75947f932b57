/**
 * @module
 * `list_collections`: every collection of the catalog as an agent needs it to read one: its name
 * and path (an IRI template where a parent's key goes), its members' type and item template, how
 * it pages, and the filters (with the OpenAPI document's words and schemas), orders and
 * properties its caller may use (caller-collections.ts), or why its caller may not read it; as
 * many as the budget holds, with a `nextCursor` (the index of the next one) while more follow.
 */
import { type CallerCollection, callerCollection } from './caller-collections.js'
import { membersWithin } from './page-budget.js'
import { ToolArgumentError } from './tool-argument-error.js'
import { refuseUnknown } from './tool-arguments.js'
import type { ToolContext } from './tool-context.js'
import { structured, type ToolResult, toolError } from './tool-result.js'

export const LIST_COLLECTIONS = 'list_collections'

/** A collection as the result lists it, its paths under the mount path. */
function listed({ collection, refused }: CallerCollection, base: string): Record<string, unknown> {
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
    ...(refused !== undefined ? { refused } : {}),
  }
}

/** The answer to a call of `list_collections` with `args`. */
export async function listCollections(
  context: ToolContext,
  args: Record<string, unknown>
): Promise<ToolResult> {
  refuseUnknown(LIST_COLLECTIONS, args, ['cursor'])
  const { cursor } = args
  const from = cursor === undefined ? 0 : Number(cursor)
  if (
    cursor !== undefined &&
    (typeof cursor !== 'string' || !/^[1-9][0-9]*$/.test(cursor) || from >= context.catalog.length)
  )
    throw new ToolArgumentError('The cursor is not one list_collections answered.')
  const rest = (
    await Promise.all(
      context.catalog.slice(from).map((collection) => callerCollection(context, collection))
    )
  ).map((collection) => listed(collection, context.base))
  const frame = (kept: readonly unknown[]) => {
    const after = from + kept.length
    return {
      collections: kept,
      ...(after < context.catalog.length ? { nextCursor: String(after) } : {}),
    }
  }
  const count = membersWithin(rest, context.budget, frame)
  if (count === 0 && rest.length > 0)
    return toolError(`A collection's description is longer than ${context.budget} characters.`)
  return structured(frame(rest.slice(0, count)))
}
