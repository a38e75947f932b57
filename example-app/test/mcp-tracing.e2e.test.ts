/**
 * Each MCP tool call as an OpenTelemetry span (docs/operations.md#tracing), exported by the SDK's
 * in-memory exporter: the example served with `mcp: hydraMcp()` over real HTTP, called by the
 * MCP SDK's client. A call is the span `tools/call <tool>` with OpenTelemetry's MCP attributes,
 * the API's operation span it runs (`hydra Book.collection`) under it; a tool error marks its
 * span `error.type: tool_error`; with `tracing: false` no tool call is a span.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

const exporter = new InMemorySpanExporter()
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
provider.register()

let database: TestDatabase
let prisma: PrismaClient

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
}, 120_000)

afterAll(async () => {
  await prisma?.$disconnect()
  await database?.remove()
  await provider.shutdown()
})

/** The spans exported while `tool` is called with `args` on the example (`tracing` its option). */
async function spansOfCall(tool: string, args: Record<string, unknown>, tracing?: boolean) {
  const app = createApp(prisma, { mcp: hydraMcp(), ...(tracing === undefined ? {} : { tracing }) })
  const { origin, close } = await startServer(app.fetch)
  const client = new Client({ name: 'mcp tracing test', version: '1.0.0' })
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)))
    exporter.reset()
    const result = await client.callTool({ name: tool, arguments: args })
    await provider.forceFlush()
    return { result, spans: exporter.getFinishedSpans() }
  } finally {
    await client.close()
    await close()
  }
}

/** Whether `span` is under `ancestor`, through the spans of `spans`. */
function isUnder(spans: ReadableSpan[], span: ReadableSpan, ancestor: ReadableSpan): boolean {
  const byId = new Map(spans.map((one) => [one.spanContext().spanId, one]))
  let parent = span.parentSpanContext?.spanId
  while (parent !== undefined) {
    if (parent === ancestor.spanContext().spanId) return true
    parent = byId.get(parent)?.parentSpanContext?.spanId
  }
  return false
}

it('names each tool call in a span, the operation it runs under it', async () => {
  const { result, spans } = await spansOfCall('read_collection', { collection: 'book' })
  expect(result.isError).toBeFalsy()
  const call = spans.filter((span) => span.name === 'tools/call read_collection')
  expect(call, spans.map((span) => span.name).join(', ')).toHaveLength(1)
  const [span] = call as [ReadableSpan]
  expect(span.attributes).toMatchObject({
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'read_collection',
    'gen_ai.operation.name': 'execute_tool',
  })
  expect(span.attributes['error.type']).toBeUndefined()
  const operation = spans.find((one) => one.name === 'hydra Book.collection')
  expect(operation, spans.map((one) => one.name).join(', ')).toBeDefined()
  expect(isUnder(spans, operation as ReadableSpan, span)).toBe(true)
})

it('marks a tool error, and makes no span with tracing off', async () => {
  const refused = await spansOfCall('read_collection', { collection: 'nope' })
  expect(refused.result.isError).toBe(true)
  const span = refused.spans.find((one) => one.name === 'tools/call read_collection')
  expect(span?.attributes['error.type']).toBe('tool_error')
  const off = await spansOfCall('read_collection', { collection: 'book' }, false)
  expect(off.result.isError).toBeFalsy()
  expect(off.spans.filter((one) => one.name.startsWith('tools/call'))).toEqual([])
})
