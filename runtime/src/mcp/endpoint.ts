/**
 * @module
 * The MCP endpoint of an API (docs/mcp.md): its tools (collection-tools.ts, and the per-operation
 * ones of tool-catalog.ts) and resources over Streamable HTTP at `/mcp`, stateless: each `POST`
 * answered by a server of its own (protocol-revisions.ts: the 2026-07-28 revision and the 2025
 * ones), with the official TypeScript SDK, from a web-standard `Request` as Hono hands it on every
 * runtime. Its low-level `Server` takes the tools' JSON Schemas as they are (the API's parameters
 * are described by its OpenAPI document, not by zod). Hono's own `@hono/mcp` wraps the SDK in a
 * transport of its own, with peers of its own: the SDK alone serves here.
 */
import { type JSONObject, Server } from '@modelcontextprotocol/server'
import type { Context, MiddlewareHandler } from 'hono'
import { apiLocation, mountPrefix } from '../hono/request/location.js'
import { apiProblem } from '../hono/response/api-problem.js'
import type { McpApi, McpEndpoint } from '../hono/routes/app-options.js'
import { listResources, listResourceTemplates, readResource } from './api-resources.js'
import { type CatalogCollection, collectionCatalog } from './collection-catalog.js'
import { COLLECTION_TOOLS } from './collection-tools.js'
import { itemResult } from './fetch-iri.js'
import { type MountingApp, throughApp, throughServingApp } from './outer-dispatch.js'
import { readPage } from './page-reader.js'
import { answerMcp, type ProtocolEra } from './protocol-revisions.js'
import { checkSearchFields, withSearchFields } from './search-fields.js'
import { ToolArgumentError } from './tool-argument-error.js'
import { refuseUnknown } from './tool-arguments.js'
import { CURSOR, type HydraTool, hydraTools } from './tool-catalog.js'
import type { ToolContext } from './tool-context.js'
import { toolTarget } from './tool-request.js'
import { ITEM_SCHEMA, PAGE_SCHEMA, type ToolResult, toolError } from './tool-result.js'
import { tracedCall } from './tool-span.js'

/** The most GET operations for which the per-operation tools are on unless told. */
const OPERATION_TOOLS_UP_TO = 5

/** The characters a result's text holds at most unless told: under Claude Code's 50,000. */
const DEFAULT_BUDGET = 40_000

/** Options of `hydraMcp`. */
export interface HydraMcpOptions {
  /** The server's name in its `initialize` answer; default: the API documentation's title. */
  name?: string | undefined
  /** The server's version; default: the API documentation's version, else `0.0.0`. */
  version?: string | undefined
  /** What the server tells agents of itself (`instructions`); default: the API's description. */
  instructions?: string | undefined
  /**
   * Whether a tool per GET operation is listed after the five of every API
   * (`getBookCollection`, `getBook`...); default: when the app serves at most five of them.
   */
  operationTools?: boolean | undefined
  /**
   * The app the API is mounted in, as a function (it is made after the API's app): each tool call
   * is then a request through it, meeting every middleware it puts on the API's paths, as the
   * caller's HTTP request does. Left out: through the app `createHydraServer` serves, where it
   * serves the `/mcp` request; elsewhere through the API's own app alone.
   */
  app?: (() => MountingApp) | undefined
  /**
   * The most characters a result's text holds: a whole number of at least 1,000 (default
   * 40,000); another is refused when the endpoint is made.
   */
  budget?: number | undefined
  /**
   * The text filters `search` reads, by top-level collection name as `list_collections` gives it
   * (`{ book: ['title', 'author.name'] }`): each a search filter of a String field of that
   * collection, its own or a relation's, matched whatever its case. A collection left out is read
   * by its own filters matching part of a text (`partial`, `start`, `end`, `word_start`); one given
   * `[]` is not searched. A name that is no such collection or filter is refused when the app is
   * made.
   */
  searchFields?: Readonly<Record<string, readonly string[]>> | undefined
}

/**
 * A tool's schema as the SDK types a tool's: JSON. The schemas are JSON values, as the OpenAPI
 * document writes them (openapi/schemas.ts), whose `Schema` type declares its fields optional
 * rather than as an index of JSON values.
 */
const json = (schema: object) => schema as { type: 'object' } & JSONObject

/** What one mount path's `/mcp` requests are answered from. */
interface Tools {
  catalog: CatalogCollection[]
  items: string[]
  operations: HydraTool[]
}

/**
 * The answer to a call of `tool` by the caller of the context's `/mcp` request, within the
 * budget as `read_collection`'s and `fetch_iri`'s are: a page cut where the budget ends, its
 * `nextCursor` the same page from the next member; an item past the budget a tool error.
 */
async function call(
  context: ToolContext,
  tool: HydraTool | undefined,
  args: Record<string, unknown>
): Promise<ToolResult> {
  if (tool === undefined) return toolError('No tool of this server has that name.')
  const known = tool.arguments.map((argument) => argument.key)
  refuseUnknown(tool.name, args, tool.collection ? [...known, CURSOR] : known)
  const target = toolTarget(tool, args, context.base)
  return tool.collection ? readPage(context, target) : itemResult(context, target.link)
}

/** A tool error of a refused argument; any other failure goes on. */
async function refusing(answer: () => ToolResult | Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await answer()
  } catch (error) {
    if (error instanceof ToolArgumentError) return toolError(error.message)
    throw error
  }
}

/**
 * What the SDK's server reports to the app's logger: a request it refused before any handler
 * (a body that is no JSON-RPC, an `Accept` it cannot answer), a result it could not encode or send.
 */
function reporting(api: McpApi): (error: Error) => void {
  return (error) =>
    api.logger({
      level: 'warn',
      message: `the MCP endpoint: ${error.message}`,
      fields: { event: 'mcp.error', error },
    })
}

/** A server answering one `/mcp` request of the caller of `c` with `tools`, in `era`'s revision. */
function serverFor(
  api: McpApi,
  c: Context,
  tools: Tools,
  options: HydraMcpOptions,
  era: ProtocolEra
): Server {
  const { description } = api
  const instructions = options.instructions ?? description.description
  const server = new Server(
    {
      name: options.name ?? description.title,
      version: options.version ?? description.version ?? '0.0.0',
    },
    { capabilities: { tools: {}, resources: {} }, ...(instructions ? { instructions } : {}) }
  )
  const annotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false }
  const context: ToolContext = {
    api,
    c,
    catalog: tools.catalog,
    items: tools.items,
    base: mountPrefix(c),
    origin: apiLocation(c).origin,
    budget: options.budget ?? DEFAULT_BUDGET,
  }
  server.onerror = reporting(api)
  const byName = new Map(tools.operations.map((tool) => [tool.name, tool]))
  server.setRequestHandler('tools/list', () => ({
    tools: [
      ...COLLECTION_TOOLS.map(({ name, title, description, inputSchema, outputSchema }) => ({
        name,
        title,
        description,
        inputSchema: json(inputSchema),
        outputSchema: json(outputSchema),
        annotations,
      })),
      ...tools.operations.map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: json(tool.inputSchema),
        outputSchema: json(tool.collection ? PAGE_SCHEMA : ITEM_SCHEMA),
        annotations,
      })),
    ],
  }))
  server.setRequestHandler('tools/call', (request) => {
    const { name, arguments: args = {} } = request.params
    const constant = COLLECTION_TOOLS.find((tool) => tool.name === name)
    return tracedCall(api.tracing, name, () =>
      refusing(() =>
        constant ? constant.answer(context, args) : call(context, byName.get(name), args)
      )
    )
  })
  server.setRequestHandler('resources/list', () => listResources(context))
  server.setRequestHandler('resources/templates/list', () => listResourceTemplates(context))
  server.setRequestHandler('resources/read', (request) =>
    readResource(context, request.params.uri, era === 'modern')
  )
  return server
}

/** How many mount paths' tool lists are kept: a mount path with parameters has one a value. */
const CATALOGS_KEPT = 32

/**
 * The MCP endpoint of a generated API, for its `mcp` option: `createHydraApp({ prisma, mcp:
 * hydraMcp() })` serves `/mcp` under the app's mount path: five tools whatever the API's size
 * (`list_collections`, `read_collection`, `fetch_iri`, `search`, `fetch`), and a tool per GET
 * operation where `operationTools` says so, each call answered by the app's own routes for the
 * caller of the `/mcp` request, under the same access rules (docs/mcp.md).
 */
export function hydraMcp(options: HydraMcpOptions = {}): McpEndpoint {
  const { budget } = options
  if (budget !== undefined && !(Number.isInteger(budget) && budget >= 1_000))
    throw new RangeError(`hydraMcp's budget is a whole number of at least 1000, not ${budget}.`)
  return (given) => {
    const { app, searchFields } = options
    if (searchFields !== undefined)
      checkSearchFields(collectionCatalog(given.description, '', given.serves), searchFields)
    const dispatch = app ? throughApp(given, app) : throughServingApp(given)
    const search = app ? throughApp(given, app, true) : throughServingApp(given, true)
    const api = { ...given, dispatch, search }
    const catalogs = new Map<string, Tools>()
    const toolsAt = (base: string) => {
      let tools = catalogs.get(base)
      if (tools === undefined) {
        const operations = hydraTools(api.description, base, api.serves)
        const listed = options.operationTools ?? operations.length <= OPERATION_TOOLS_UP_TO
        tools = {
          catalog: withSearchFields(
            collectionCatalog(api.description, base, api.serves),
            searchFields
          ),
          items: operations.filter((tool) => !tool.collection).map((tool) => tool.path),
          operations: listed ? operations : [],
        }
        // The oldest goes first: a mount path's parameters cannot grow the map without bound.
        if (catalogs.size >= CATALOGS_KEPT) catalogs.delete(catalogs.keys().next().value ?? '')
        catalogs.set(base, tools)
      }
      return tools
    }
    const endpoint: MiddlewareHandler = async function hydraMcpEndpoint(c) {
      if (c.req.method !== 'POST')
        return apiProblem(
          c,
          405,
          `${c.req.method} is not allowed on ${c.req.path}; it takes POST.`,
          {},
          [['Allow', 'POST']]
        )
      // Every request answered by a server of its own, for its caller.
      const tools = toolsAt(mountPrefix(c))
      return answerMcp(c.req.raw, (era) => serverFor(api, c, tools, options, era), reporting(api))
    }
    return endpoint
  }
}
