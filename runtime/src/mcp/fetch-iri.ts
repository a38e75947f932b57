/**
 * @module
 * `fetch_iri`: any item or page of the API by its IRI, as a link in an answer gives it (`/books/1`,
 * `/authors/3/books`, a page's `next` link), or as a URL on the API's origin. A page is read as
 * `read_collection` reads a cursor, within the budget; an item is answered as it is, unless it
 * is longer than the budget.
 */
import { callersOf } from './cache-hint.js'
import { collectionAt, localIri, matchesTemplate, samePath } from './iri-paths.js'
import { textOf } from './page-budget.js'
import { readCursor } from './page-cursor.js'
import { readPage } from './page-reader.js'
import { refuseUnknown } from './tool-arguments.js'
import type { ToolContext } from './tool-context.js'
import { answered, problemResult, type ToolResult, toolError } from './tool-result.js'

export const FETCH_IRI = 'fetch_iri'

/**
 * The path and query of an item IRI of the API, or undefined when it names no item. A collection's
 * own path under another's (`/books/recent`, an extra operation's) matches that one's item template
 * (`/books/{id}`) too: it names the collection, whose pages are read as pages.
 */
export function itemIri(context: ToolContext, iri: string): string | undefined {
  const question = iri.indexOf('?')
  const path = question < 0 ? iri : iri.slice(0, question)
  if (iri.includes('#') || !samePath(path)) return undefined
  if (collectionAt(context.catalog, context.base, path)) return undefined
  return context.items.some((template) => matchesTemplate(template, context.base, path))
    ? iri
    : undefined
}

/** The item at `iri` (a path of an item route) for the caller, within the budget. */
export async function readItem(
  context: ToolContext,
  iri: string
): Promise<{ item: Record<string, unknown>; response: Response } | { error: ToolResult }> {
  const response = await context.api.dispatch(context.c, iri)
  if (!response.ok) return { error: await problemResult(response) }
  const item = (await response.json()) as Record<string, unknown>
  if (textOf(item).length > context.budget)
    return {
      error: toolError(
        `The item ${iri} is longer than a result's ${context.budget} characters: ` +
          'read it with fewer properties.'
      ),
    }
  return { item, response }
}

/** The result of reading the item at `iri` for the caller: the item, or the tool error. */
export async function itemResult(context: ToolContext, iri: string): Promise<ToolResult> {
  const read = await readItem(context, iri)
  return 'error' in read
    ? read.error
    : answered(read.item, read.response, callersOf(context.api.description))
}

/** The answer to a call of `fetch_iri` with `args`. */
export async function fetchIri(
  context: ToolContext,
  args: Record<string, unknown>
): Promise<ToolResult> {
  refuseUnknown(FETCH_IRI, args, ['iri'])
  const iri = localIri(args.iri, context.origin, 'iri')
  const item = itemIri(context, iri)
  if (item !== undefined) return itemResult(context, item)
  const refusal = `${iri} is not the IRI of an item or a page of this API.`
  return readPage(context, readCursor(iri, context.catalog, context.base, refusal))
}
