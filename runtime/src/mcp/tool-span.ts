/**
 * @module
 * Each tool call as an OpenTelemetry span (docs/operations.md#tracing), named and described as
 * OpenTelemetry's conventions for MCP name them (`tools/call read_collection`, `mcp.method.name`,
 * `gen_ai.tool.name`); the spans of the API's routes it runs (`hydra Book.collection`, and their
 * queries) are its children. A tool error is `error.type: tool_error`, its status left unset as a
 * client's error is.
 */
import { inSpan, tracerOf } from '../observe/tracing.js'
import type { ToolResult } from './tool-result.js'

/** `answer()`, the call of tool `name`, in a span of its own when the app traces. */
export async function tracedCall(
  tracing: boolean | undefined,
  name: string,
  answer: () => Promise<ToolResult>
): Promise<ToolResult> {
  const tracer = await tracerOf(tracing)
  const attributes = {
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': name,
    'gen_ai.operation.name': 'execute_tool',
  }
  return inSpan(tracer, `tools/call ${name}`, attributes, async (span) => {
    const result = await answer()
    if (result.isError) span?.setAttributes({ 'error.type': 'tool_error' })
    return result
  })
}
