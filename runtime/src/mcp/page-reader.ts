/**
 * @module
 * A collection page as a tool answers it: the API's page at a link, read for the caller, its
 * members from the cursor's on, as many as the budget holds, with the page's `totalItems` when
 * it counts them, and a `nextCursor` while members follow: the same page from the first member
 * not answered, else the page's own `next` link. The last result has none.
 */
import { callersOf } from './cache-hint.js'
import { membersWithin } from './page-budget.js'
import { cursorOf, type PageCursor } from './page-cursor.js'
import type { ToolContext } from './tool-context.js'
import { answered, problemResult, type ToolResult, term, toolError } from './tool-result.js'

/**
 * The result of reading the page `cursor` names, from its `from`-th member on (a cursor of
 * `read_collection`, or of a tool per operation: only its link and member are read).
 */
export async function readPage(
  context: ToolContext,
  cursor: Pick<PageCursor, 'link' | 'from'>
): Promise<ToolResult> {
  const response = await context.api.dispatch(context.c, cursor.link)
  if (!response.ok) return problemResult(response)
  const document = (await response.json()) as Record<string, unknown>
  const found = term(document, 'member')
  const members = Array.isArray(found) ? (found as unknown[]) : []
  if (cursor.from > 0 && cursor.from >= members.length)
    return toolError('The cursor names no member of its page: read the collection again.')
  const total = term(document, 'totalItems')
  const view = term(document, 'view') as Record<string, unknown> | undefined
  const own = view?.['@id']
  const next = view ? term(view, 'next') : undefined
  // The page's own IRI, as the API wrote it; an unpaged collection's is the link read.
  const link = typeof own === 'string' ? own : cursor.link
  const rest = members.slice(cursor.from)
  const frame = (kept: readonly unknown[]) => {
    const after = cursor.from + kept.length
    const nextCursor =
      after < members.length ? cursorOf(link, after) : typeof next === 'string' ? next : undefined
    return {
      members: kept,
      ...(typeof total === 'number' ? { totalItems: total } : {}),
      ...(nextCursor !== undefined ? { nextCursor } : {}),
    }
  }
  const count = membersWithin(rest, context.budget, frame)
  if (count === 0 && rest.length > 0) {
    const id = (rest[0] as Record<string, unknown> | undefined)?.['@id']
    return toolError(
      `The member ${String(id)} alone is longer than a result's ${context.budget} characters: ` +
        'read it with fewer properties.'
    )
  }
  return answered(frame(rest.slice(0, count)), response, callersOf(context.api.description))
}
