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
  isJSONRPCRequest,
  isLegacyRequest,
  isSpecType,
  type JSONRPCMessage,
  ProtocolErrorCode,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server'

/** The protocol revisions a request may speak: 2026-07-28 (`modern`), or a 2025 one. */
export type ProtocolEra = 'modern' | 'legacy'

/** Each request the endpoint's servers answer, by its method: its schema and its params. */
const REQUESTS: Record<string, { valid: (value: unknown) => boolean; params: string }> = {
  initialize: {
    valid: isSpecType.InitializeRequest,
    params: '{ protocolVersion, capabilities, clientInfo }',
  },
  ping: { valid: isSpecType.PingRequest, params: 'none' },
  'tools/list': { valid: isSpecType.ListToolsRequest, params: '{ cursor } or none' },
  'tools/call': { valid: isSpecType.CallToolRequest, params: '{ name, arguments }' },
  'resources/list': { valid: isSpecType.ListResourcesRequest, params: '{ cursor } or none' },
  'resources/templates/list': {
    valid: isSpecType.ListResourceTemplatesRequest,
    params: '{ cursor } or none',
  },
  'resources/read': { valid: isSpecType.ReadResourceRequest, params: '{ uri }' },
}

/**
 * The error answering `message` when it is a request of a method the server answers whose params
 * are not that method's (none at all, a `uri` that is no text): the JSON-RPC "invalid params", as
 * the 2026-07-28 revision answers it. The SDK's server answers them in a 2025 revision as an
 * internal error, with the list of what its validation found.
 */
function invalidParams(message: JSONRPCMessage): JSONRPCMessage | undefined {
  if (!isJSONRPCRequest(message) || !Object.hasOwn(REQUESTS, message.method)) return undefined
  const { valid, params } = REQUESTS[message.method] as (typeof REQUESTS)[string]
  if (valid(message)) return undefined
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: {
      code: ProtocolErrorCode.InvalidParams,
      message: `Invalid params of ${message.method}: it takes ${params}.`,
    },
  }
}

/**
 * The answer to `request`, an MCP `POST`, by a server `serverOf(era)` makes for it; what fails
 * on the way is told to `onerror`.
 */
export async function answerMcp(
  request: Request,
  serverOf: (era: ProtocolEra) => Server,
  onerror: (error: Error) => void
): Promise<Response> {
  if (!(await isLegacyRequest(request)))
    return createMcpHandler(() => serverOf('modern'), { legacy: 'reject', onerror }).fetch(request)
  const server = serverOf('legacy')
  // No session id generator: stateless.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
  await server.connect(transport)
  const deliver = transport.onmessage
  transport.onmessage = (message, extra) => {
    const refusal = invalidParams(message)
    if (refusal === undefined) deliver?.(message, extra)
    else transport.send(refusal).catch((error: Error) => transport.onerror?.(error))
  }
  try {
    return await transport.handleRequest(request)
  } finally {
    await server.close()
  }
}
