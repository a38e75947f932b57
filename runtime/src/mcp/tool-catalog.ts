/**
 * @module
 * The MCP tools of an API: one per GET operation of its OpenAPI document that the generated app
 * serves (each collection operation, item route and sub-collection), named by its `operationId`,
 * described by its summary and description, its parameters the tool's input, each described as the
 * document describes it (the `hydra:search` template's words). Nothing here describes a parameter
 * a second time: only the tool's own `cursor` is described here.
 */
import type { ApiDescription } from '../hydra/documentation.js'
import { renderOpenApi } from '../openapi/document.js'
import type { Schema } from '../openapi/schemas.js'

/** What the tools read of an OpenAPI parameter. */
interface DocumentedParameter {
  name: string
  in: 'query' | 'path' | 'header'
  required: boolean
  description: string
  schema: Schema
}

/** What the tools read of an OpenAPI GET operation. */
interface DocumentedOperation {
  operationId: string
  summary: string
  description?: string
  parameters: DocumentedParameter[]
}

/** One argument of a tool: its key in the tool's input, and where the request carries it. */
export interface ToolArgument {
  /** Its key in the tool's arguments (`order.title`). */
  key: string
  /** The parameter it sets (`order[title]`, `id`). */
  name: string
  /** A path parameter fills the path's `{name}`; a query parameter is sent in the query string. */
  in: 'path' | 'query'
}

/** A tool of the API: what `tools/list` shows, and the route a call reads. */
export interface HydraTool {
  /** The operation's `operationId` (`getBookCollection`, `getBook`). */
  name: string
  /** The operation's summary. */
  title: string
  /** The operation's summary and description, and how a collection pages. */
  description: string
  /** The route's path under the mount path, `{id}` for a key (`/books/{id}`). */
  path: string
  /** Whether it answers a page of a collection (and takes a `cursor`), not an item. */
  collection: boolean
  /** Its arguments, in the document's order. */
  arguments: ToolArgument[]
  /** The parameters turning a collection's paging off, which no cursor may carry. */
  switches: ReadonlySet<string>
  /** The JSON Schema of its arguments. */
  inputSchema: { type: 'object'; properties: Record<string, Schema>; required?: string[] }
}

/** The tools' own argument: the page a previous call named. */
export const CURSOR = 'cursor'

const CURSOR_SCHEMA: Schema = {
  type: 'string',
  description:
    'The nextCursor of a previous call of this tool: the next page of the same query (the other ' +
    'arguments are then not read). Left out: the first page.',
}

const PAGING_NOTE =
  ' Answers a page: its members (each with its @id), its totalItems when counted, and a nextCursor ' +
  'while more members follow; pass it back as cursor for the next page.'

/** Keys agents' function-calling schemas accept as property names. */
const PLAIN_KEY = /^[A-Za-z0-9_.-]{1,64}$/

/** A parameter's name with its brackets as dots: `order.title`, `properties.author`, `genre`. */
const plain = (name: string) => name.replace(/\[\]$/, '').replace(/\[([^\]]*)\]/g, '.$1')

/**
 * The key of each parameter in a tool's input, since function-calling APIs refuse brackets in
 * property names: a path parameter's name (`id`); a query parameter's name with its brackets as
 * dots (`order[title]` is `order.title`, `properties[author][]` is `properties.author`) where no
 * other parameter's is the same, else its own name, `<key>.list` for a list (`genre[]` beside
 * `genre`) or `query.<key>` (a filter `id` beside a sub-collection's key), the first free.
 */
function argumentKeys(
  parameters: readonly DocumentedParameter[]
): Map<DocumentedParameter, string> {
  const shared = new Map<string, number>()
  for (const { name } of parameters) shared.set(plain(name), (shared.get(plain(name)) ?? 0) + 1)
  const taken = new Set([CURSOR])
  const keys = new Map<DocumentedParameter, string>()
  const path = parameters.filter((parameter) => parameter.in === 'path')
  for (const parameter of path) {
    keys.set(parameter, parameter.name)
    taken.add(parameter.name)
  }
  for (const parameter of parameters) {
    if (parameter.in === 'path') continue
    const { name } = parameter
    const key = plain(name)
    const candidates = [
      ...(shared.get(key) === 1 ? [key] : []),
      name,
      ...(name.endsWith('[]') ? [`${key}.list`] : []),
      `query.${key}`,
    ]
    const free = candidates.find((entry) => PLAIN_KEY.test(entry) && !taken.has(entry)) ?? name
    keys.set(parameter, free)
    taken.add(free)
  }
  return keys
}

/** A tool of one GET operation; `skipped` names parameters a tool does not offer. */
function toolOf(
  path: string,
  operation: DocumentedOperation,
  skipped: ReadonlySet<string>
): HydraTool {
  const collection = !path.endsWith('}')
  const parameters = operation.parameters.filter(
    (parameter) => parameter.in !== 'header' && !skipped.has(parameter.name)
  )
  const keys = argumentKeys(parameters)
  const properties: Record<string, Schema> = {}
  const args: ToolArgument[] = []
  const required: string[] = []
  for (const parameter of parameters) {
    const key = keys.get(parameter) ?? parameter.name
    // The parameter's name as the API reads it, its description and values as the document's.
    properties[key] = {
      title: parameter.name,
      ...parameter.schema,
      description: parameter.description,
    }
    args.push({ key, name: parameter.name, in: parameter.in === 'path' ? 'path' : 'query' })
    if (parameter.required) required.push(key)
  }
  if (collection) properties[CURSOR] = CURSOR_SCHEMA
  const described = operation.description
    ? `${operation.summary} ${operation.description}`
    : operation.summary
  return {
    name: operation.operationId,
    title: operation.summary,
    description: collection ? `${described}${PAGING_NOTE}` : described,
    path,
    collection,
    arguments: args,
    switches: skipped,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
  }
}

/**
 * The tools of `api` mounted at `base`, for the operations `served` says the app answers (custom
 * collections the documentation lists are other apps' routes). A collection's unpaged form (its
 * `pagination` parameter) is not offered: a tool answers pages.
 */
export function hydraTools(
  api: ApiDescription,
  base: string,
  served: (path: string) => boolean
): HydraTool[] {
  const document = renderOpenApi(api, { origin: '', base })
  const paths = document.paths as Record<string, { get: DocumentedOperation }>
  const unpaged = new Set(
    api.types.flatMap((type) => type.collections.map((entry) => entry.paging.parameters.enabled))
  )
  return Object.entries(paths)
    .filter(([path]) => served(path))
    .map(([path, { get }]) => toolOf(path, get, unpaged))
}
