/**
 * @module
 * The end of a streamed response that failed after it began (collection-response.ts): its status
 * and first bytes are sent, so the only answer left is to cut the connection, so that no client
 * takes the body it has for a whole one.
 */
import type { Context } from 'hono'

/** What `@hono/node-server` hands a request as `c.env.outgoing`: Node's `ServerResponse`. */
interface NodeOutgoing {
  destroy(): unknown
}

/**
 * Cuts the connection of `c`'s streamed response, whose body `controller` writes. On Node
 * (`@hono/node-server`, which gives each request its `ServerResponse` as `c.env.outgoing`), the
 * response is destroyed, which cancels the body: an errored body would make the adapter print
 * the error and its stack to the standard error, past the app's logger, and write its message
 * into the body before closing. Elsewhere, the body is errored: each runtime then cuts the
 * connection itself.
 */
export function cutStream(
  c: Context,
  controller: ReadableStreamDefaultController<Uint8Array>,
  error: unknown
): void {
  const outgoing = (c.env as { outgoing?: Partial<NodeOutgoing> } | undefined)?.outgoing
  if (typeof outgoing?.destroy === 'function') outgoing.destroy()
  else controller.error(error)
}
