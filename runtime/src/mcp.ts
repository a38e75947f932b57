/**
 * `@prisma-hydra/runtime/mcp`: the MCP endpoint of a generated API (docs/mcp.md), for its `mcp`
 * option. It needs `@modelcontextprotocol/server`, an optional peer dependency of the runtime: apps
 * that do not import this entry load nothing of it.
 *
 * @module \@prisma-hydra/runtime/mcp
 */

export type { McpApi, McpEndpoint, ToolDispatch } from './hono/routes/app-options.js'
export { type HydraMcpOptions, hydraMcp } from './mcp/endpoint.js'
export type { MountingApp } from './mcp/outer-dispatch.js'
