/**
 * @module
 * A tool's result, and its shapes: a page as its members (each with its `@id`), its
 * `totalItems` when the page counts them and a cursor of what follows (page-reader.ts); an item
 * as it is; a problem (a `400` of a refused parameter, the `401` of a guard, the `404` of a key
 * no visible row has) as a tool error carrying the problem's detail.
 */

import { withCacheHint } from './cache-hint.js'
import { withTiming } from './server-timing-meta.js'

/** A tool's result, as MCP's `tools/call` answers it. */
export interface ToolResult {
  [key: string]: unknown
  content: { type: 'text'; text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

/** The structured content of a collection tool: what a page holds for an agent. */
export const PAGE_SCHEMA = {
  type: 'object',
  properties: {
    members: {
      type: 'array',
      items: { type: 'object', properties: { '@id': { type: 'string' } }, required: ['@id'] },
    },
    totalItems: { type: 'integer' },
    nextCursor: { type: 'string' },
  },
  required: ['members'],
} as const

/** The structured content of an item tool: the item, with its `@id`. */
export const ITEM_SCHEMA = {
  type: 'object',
  properties: { '@id': { type: 'string' } },
  required: ['@id'],
} as const

/** A tool error of `text`. */
export function toolError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true }
}

/** A result holding `value`, as structured content and as its JSON text. */
export function structured(value: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value }
}

/**
 * A result holding `value`, read from one answer of the API, `response`: with the answer's cache
 * hint (cache-hint.ts, `callers` the app's caller headers) and its `Server-Timing`
 * (server-timing-meta.ts) in its `_meta`.
 */
export function answered(
  value: Record<string, unknown>,
  response: Response,
  callers: readonly string[]
): ToolResult {
  return withTiming(withCacheHint(structured(value), response, callers), response)
}

/** A term of a page with or without the `hydra:` prefix (the operation's style). */
export function term(document: Record<string, unknown>, name: string): unknown {
  return document[`hydra:${name}`] ?? document[name]
}

/** The JSON object of an answer's body; `{}` for another body. */
async function bodyOf(response: Response): Promise<Record<string, unknown>> {
  const body: unknown = await response.json().catch(() => undefined)
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
}

/**
 * The tool error of the API's problem answer: its status, title and detail, as an HTTP client
 * reads them (every problem of the API has its title and detail; another answer, its status).
 */
export async function problemResult(response: Response): Promise<ToolResult> {
  const { title, detail } = await bodyOf(response)
  const head = typeof title === 'string' ? `${response.status} ${title}` : String(response.status)
  return toolError(typeof detail === 'string' ? `${head}: ${detail}` : head)
}
