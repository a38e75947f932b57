/**
 * @module
 * The API's items and pages as MCP resources, addressed by their URLs on the API's origin: the
 * top-level collections are listed, the IRI templates of items and sub-collections are resource
 * templates, and `resources/read` answers an item or a page with the API's own JSON-LD for the
 * caller, byte for byte as over HTTP. A URI is read as `fetch_iri` reads an IRI: an item, or a
 * page of a collection, paged (never a link turning paging off); any other is a JSON-RPC error.
 */
import { ProtocolErrorCode } from '@modelcontextprotocol/server'
import { cacheHintOf, callersOf, withCacheHint } from './cache-hint.js'
import { itemIri } from './fetch-iri.js'
import { localIri } from './iri-paths.js'
import { readCursor } from './page-cursor.js'
import { ToolArgumentError } from './tool-argument-error.js'
import type { ToolContext } from './tool-context.js'

const JSON_LD = 'application/ld+json'

/**
 * A JSON-RPC error whose message is `message` as it is: the SDK's server answers an error's
 * `code` and `message`, where its `McpError` would prefix the message with `MCP error <code>:`.
 */
class ResourceError extends Error {
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message)
  }
}

/** The top-level collections, as resources. */
export function listResources(context: ToolContext) {
  const { catalog, origin, base } = context
  return {
    resources: catalog
      .filter((collection) => !collection.path.includes('{'))
      .map((collection) => ({
        uri: `${origin}${base}${collection.path}`,
        name: collection.name,
        description: collection.description,
        mimeType: JSON_LD,
      })),
  }
}

/** The IRI templates of items and sub-collections, as resource templates (RFC 6570). */
export function listResourceTemplates(context: ToolContext) {
  const { catalog, items, origin, base } = context
  const collections = catalog
    .filter((collection) => collection.path.includes('{'))
    .map((collection) => ({
      uriTemplate: `${origin}${base}${collection.path}`,
      name: collection.name,
      description: collection.description,
      mimeType: JSON_LD,
    }))
  const itemTemplates = items.map((template) => ({
    uriTemplate: `${origin}${base}${template}`,
    name: template,
    description: `An item of ${base}${template.slice(0, template.lastIndexOf('/'))}.`,
    mimeType: JSON_LD,
  }))
  return { resourceTemplates: [...itemTemplates, ...collections] }
}

/** The path and query under the mount path that `uri` names, refusing any but an item or a page. */
function targetOf(context: ToolContext, uri: string): string {
  const refusal = `${uri} is not the URL of an item or a page of this API.`
  try {
    const iri = localIri(uri, context.origin, 'uri')
    return itemIri(context, iri) ?? readCursor(iri, context.catalog, context.base, refusal).link
  } catch (error) {
    if (error instanceof ToolArgumentError)
      throw new ResourceError(ProtocolErrorCode.InvalidParams, error.message)
    throw error
  }
}

/** The title and detail of a problem's text; none of another. */
function problemOf(text: string): { title?: string; detail?: string } {
  try {
    const body: unknown = JSON.parse(text)
    return typeof body === 'object' && body !== null ? body : {}
  } catch {
    return {}
  }
}

/**
 * `resources/read`: the API's answer to the caller for `uri`, as its JSON-LD text, with its cache
 * hint in `_meta` and, where `cacheable` (the 2026-07-28 revision, which makes it one of its
 * cacheable results), in that revision's own fields.
 */
export async function readResource(context: ToolContext, uri: string, cacheable: boolean) {
  const response = await context.api.dispatch(context.c, targetOf(context, uri))
  const text = await response.text()
  if (!response.ok) {
    const { title, detail } = problemOf(text)
    // A resource that does not exist is invalid params, as the 2026-07-28 revision asks.
    const code =
      response.status === 404 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InvalidRequest
    throw new ResourceError(code, `${response.status} ${title}: ${detail}`)
  }
  const callers = callersOf(context.api.description)
  const result = withCacheHint({ contents: [{ uri, mimeType: JSON_LD, text }] }, response, callers)
  return cacheable ? { ...result, ...cacheHintOf(response, callers) } : result
}
