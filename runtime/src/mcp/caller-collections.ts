/**
 * @module
 * A collection of the catalog as one caller may query it, for `list_collections`: its filters and
 * orders narrowed to those of the caller's `hydra:search` (a field a rule hides from the caller,
 * or shows on some rows only, has none there: filters/caller-spec.ts) and its properties to those
 * the caller may select, as the collection's route answers a search probe for that caller
 * (hono/request/search-probe.ts), so nothing here reads a rule again. A collection whose guards
 * refuse the caller keeps none of them, and says why as `read_collection` would.
 */
import type { SearchProbeAnswer } from '../hono/request/search-probe.js'
import type { CatalogCollection } from './collection-catalog.js'
import type { ToolContext } from './tool-context.js'
import { problemResult, term } from './tool-result.js'

/** A collection as the caller may query it, and why not when its guards refuse the caller. */
export interface CallerCollection {
  collection: CatalogCollection
  /** The tool error's text `read_collection` answers the caller, when refused. */
  refused?: string
}

/** The variables of a `hydra:search` block (`title`, `order[title]`, `properties[]`). */
function variablesOf(search: Record<string, unknown> | null): Set<string> {
  const mappings = search ? term(search, 'mapping') : undefined
  const variables = new Set<string>()
  for (const mapping of Array.isArray(mappings) ? mappings : []) {
    const variable = (mapping as Record<string, unknown>).variable
    if (typeof variable === 'string') variables.add(variable)
  }
  return variables
}

/** Whether the probe's properties offer `property` (`title`, or `author.name` of a relation). */
function selectable(answer: SearchProbeAnswer, property: string): boolean {
  const dot = property.indexOf('.')
  const parameter = dot < 0 ? 'properties[]' : `properties[${property.slice(0, dot)}][]`
  return (
    answer.properties[parameter]?.includes(dot < 0 ? property : property.slice(dot + 1)) ?? false
  )
}

/** `collection` as the caller of the context's `/mcp` request may query it. */
export async function callerCollection(
  context: ToolContext,
  collection: CatalogCollection
): Promise<CallerCollection> {
  // A sub-collection's probe names a parent by any key: its route reads none to answer it.
  const path = `${context.base}${collection.path.replace(/\{[^}]+\}/g, '0')}`
  const response = await context.api.probe(context.c, path)
  if (!response.ok) {
    const { content } = await problemResult(response)
    const none = { filters: [], positions: [], searchable: [], order: [], properties: [] }
    return { collection: { ...collection, ...none }, refused: content[0]?.text ?? '' }
  }
  const answer = (await response.json()) as SearchProbeAnswer
  const variables = variablesOf(answer.search)
  const filters = collection.filters.filter((filter) => variables.has(filter.name))
  return {
    collection: {
      ...collection,
      filters,
      searchable: collection.searchable.filter((name) => variables.has(name)),
      order: collection.order.filter((name) => variables.has(`order[${name}]`)),
      properties: collection.properties.filter((name) => selectable(answer, name)),
    },
  }
}
