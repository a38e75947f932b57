/**
 * @module
 * One `POST /mcp` answered in the protocol revision its client speaks: the 2026-07-28 revision by
 * the SDK's `createMcpHandler`, the 2025 revisions by a server over the SDK's stateless Streamable
 * HTTP transport, answering JSON as the endpoint always has (the SDK's own fallback for them
 * answers with a stream of server-sent events, which a 2025 client reads too, but curl and the
 * docs' examples less well). Both are stateless: each request is answered by a server of its own.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server'

/** The protocol revisions a request may speak: 2026-07-28 (`modern`), or a 2025 one. */
export type ProtocolEra = 'modern' | 'legacy'

/** The answer to `request`, an MCP `POST`, by a server `serverOf(era)` makes for it. */
export async function answerMcp(
  request: Request,
  serverOf: (era: ProtocolEra) => Server
): Promise<Response> {
  if (!(await isLegacyRequest(request)))
    return createMcpHandler(() => serverOf('modern'), { legacy: 'reject' }).fetch(request)
  const server = serverOf('legacy')
  // No session id generator: stateless.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request)
  } finally {
    await server.close()
  }
}
