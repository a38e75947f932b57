/**
 * @module
 * `search` and `fetch`, in the shape ChatGPT's connectors and deep research call: `search` takes
 * one `query` and answers `{ results: [{ id, title, url }] }`, `fetch` takes one of those `id`s
 * and answers `{ id, title, text, url, metadata }`, each as one text block of that JSON (and as
 * structured content). An `id` is an item's IRI, its `url` the IRI on the API's origin, which
 * the connector cites. `search` reads, for the caller, the first page of each top-level
 * collection by each text filter the caller may use (one request a filter: caller-collections.ts),
 * filtered by the query, until it holds `SEARCH_RESULTS` items; a collection the caller may not
 * read adds nothing.
 */
import { callersOf } from './cache-hint.js'
import { callerCollection } from './caller-collections.js'
import { itemIri, readItem } from './fetch-iri.js'
import { localIri } from './iri-paths.js'
import { membersWithin, textOf } from './page-budget.js'
import { ToolArgumentError } from './tool-argument-error.js'
import { refuseUnknown } from './tool-arguments.js'
import type { ToolContext } from './tool-context.js'
import { answered, structured, type ToolResult, term, toolError } from './tool-result.js'

export const SEARCH = 'search'
export const FETCH = 'fetch'

/** The most results a search answers. */
const SEARCH_RESULTS = 20

type Json = Record<string, unknown>

/** What an item is called: its first text field of a name-like property, else its type and IRI. */
function titleOf(item: Json, preferred: readonly string[]): string {
  for (const name of [...preferred, 'title', 'name', 'label', 'summary']) {
    const value = item[name]
    if (typeof value === 'string' && value !== '') return value
  }
  return `${String(item['@type'])} ${String(item['@id'])}`
}

/** The results of `query` in one collection's text filter `filter`, for the caller. */
async function matches(
  context: ToolContext,
  path: string,
  filter: string,
  query: string
): Promise<Json[]> {
  const target = `${context.base}${path}?${new URLSearchParams({ [filter]: query })}`
  const response = await context.api.search(context.c, target)
  if (!response.ok) return []
  const found = term((await response.json()) as Json, 'member')
  return Array.isArray(found) ? (found as Json[]) : []
}

/** The answer to a call of `search` with `args`. */
export async function search(context: ToolContext, args: Json): Promise<ToolResult> {
  refuseUnknown(SEARCH, args, ['query'])
  const { query } = args
  if (typeof query !== 'string' || query.trim() === '')
    throw new ToolArgumentError('The argument query is the text to search for.')
  const results: Json[] = []
  const seen = new Set<string>()
  for (const listed of context.catalog) {
    if (listed.path.includes('{') || listed.searchable.length === 0) continue
    if (results.length >= SEARCH_RESULTS) break
    // The text filters the caller may use: the API ignores another, which would match every row.
    const { collection, refused } = await callerCollection(context, listed)
    if (refused !== undefined) continue
    for (const filter of collection.searchable) {
      if (results.length >= SEARCH_RESULTS) break
      for (const member of await matches(context, collection.path, filter, query.trim())) {
        const id = member['@id']
        if (typeof id !== 'string' || seen.has(id) || results.length >= SEARCH_RESULTS) continue
        seen.add(id)
        results.push({ id, title: titleOf(member, [filter]), url: `${context.origin}${id}` })
      }
    }
  }
  const frame = (kept: readonly unknown[]) => ({ results: kept })
  return structured(frame(results.slice(0, membersWithin(results, context.budget, frame))))
}

/** The answer to a call of `fetch` with `args`. */
export async function fetchItem(context: ToolContext, args: Json): Promise<ToolResult> {
  refuseUnknown(FETCH, args, ['id'])
  const iri = localIri(args.id, context.origin, 'id')
  const path = itemIri(context, iri)
  if (path === undefined)
    throw new ToolArgumentError(`${iri} is not the IRI of an item of this API.`)
  const read = await readItem(context, path)
  if ('error' in read) return read.error
  const { item } = read
  const id = String(item['@id'] ?? path)
  const document = {
    id,
    title: titleOf(item, []),
    text: textOf(item),
    url: `${context.origin}${id}`,
    metadata: { type: item['@type'] },
  }
  // The item's text, quoted inside the document's, may pass the budget the item kept to.
  if (textOf(document).length > context.budget)
    return toolError(`The item ${id} is longer than a result's ${context.budget} characters.`)
  return answered(document, read.response, callersOf(context.api.description))
}
