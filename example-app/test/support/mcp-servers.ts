/**
 * An app with the MCP endpoint served over real HTTP with the SDK's client of it, and the MCP
 * Inspector's command line (`mcp-inspector --cli`, a process a call) spoken to such an endpoint:
 * what the MCP tests share of their set-up.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { startServer } from './harness.js'

type Json = Record<string, unknown>

/** A served app with its MCP client; `close` ends both. */
interface ServedMcp {
  origin: string
  client: Client
  close: () => Promise<void>
}

/** `fetch` (an app's) served, and the SDK's client `name` connected to its `/mcp`. */
export async function serveWithClient(
  fetch: (request: Request) => Response | Promise<Response>,
  name: string
): Promise<ServedMcp> {
  const { origin, close } = await startServer(fetch)
  const client = new Client({ name, version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)))
  return {
    origin,
    client,
    close: async () => {
      await client.close()
      await close()
    },
  }
}

/** The text of a tool result's first content. */
export const resultText = (result: Json) =>
  ((result.content as { text?: string }[])[0]?.text ?? '') as string

const INSPECTOR = new URL('../../../node_modules/.bin/mcp-inspector', import.meta.url).pathname

/**
 * What the Inspector's command line prints for `method` at the endpoint `endpoint` (`rest`: its
 * further arguments; `headers`: headers it sends), as JSON.
 */
export async function inspectorCall(
  endpoint: string,
  method: string,
  rest: string[],
  headers: Record<string, string> = {}
): Promise<Json> {
  const args = ['--cli', endpoint, '--transport', 'http', '--method', method, ...rest]
  for (const [name, value] of Object.entries(headers)) args.push('--header', `${name}: ${value}`)
  const { stdout } = await promisify(execFile)(INSPECTOR, args, { timeout: 60_000 })
  return JSON.parse(stdout) as Json
}
