/**
 * A collection walked to its end the two ways an agent and an HTTP client walk it: over HTTP by
 * `hydra:next`, and by the MCP tool `read_collection` by `nextCursor` (docs/mcp.md), each through
 * the caller's own request function, so that a test holds every answer to its own checks on the
 * way. The MCP tests compare the two walks.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'

type Json = Record<string, unknown>

/** A tool call's result, as the SDK's client answers it. */
type ToolResult = Awaited<ReturnType<Client['callTool']>>

/** The text of a tool result's first content. */
export const toolText = (result: ToolResult): string => {
  const [first] = result.content as { type: string; text?: string }[]
  return first?.text ?? ''
}

/** A problem answer as a tool error's text says it. */
export const refusalText = (status: number, body: Json) => `${status} ${body.title}: ${body.detail}`

/** Every member of a collection over HTTP from `path`, following `hydra:next`; or the refusal. */
export async function walkPages(
  get: (path: string) => Promise<{ status: number; body: Json }>,
  path: string,
  most: number
) {
  const members: Json[] = []
  let next: string | undefined = path
  let total: unknown
  for (let page = 0; next !== undefined; page++) {
    if (page > most) throw new Error(`${path} did not end in ${most} pages`)
    const { status, body } = await get(next)
    if (status !== 200) return { refused: refusalText(status, body) }
    members.push(...((body['hydra:member'] ?? body.member) as Json[]))
    total ??= body['hydra:totalItems'] ?? body.totalItems
    const view = (body['hydra:view'] ?? body.view) as Json | undefined
    next = (view?.['hydra:next'] ?? view?.next) as string | undefined
  }
  return { members, total }
}

/** Every member of a collection by `read_collection`, following `nextCursor`; or the refusal. */
export async function walkResults(
  read: (args: Json) => Promise<ToolResult>,
  collection: string,
  most: number
) {
  const members: Json[] = []
  let cursor: string | undefined
  let total: unknown
  for (let calls = 1; ; calls++) {
    if (calls > most) throw new Error(`${collection} did not end in ${most} results`)
    const result = await read(cursor === undefined ? { collection } : { cursor })
    if (result.isError) return { refused: toolText(result) }
    const content = result.structuredContent as { members: Json[]; nextCursor?: string }
    members.push(...content.members)
    total ??= (content as Json).totalItems
    cursor = content.nextCursor
    if (cursor === undefined) return { members, total, calls }
  }
}
