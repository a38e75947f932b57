/**
 * What makes a set of collections a Hydra API a client can discover: the entrypoint and the API
 * documentation, the `Link` header pointing at the documentation on every response, content
 * negotiation, and CORS for browser clients on other origins.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { accepts } from 'hono/accepts'
import { cors } from 'hono/cors'
import { problemResponse } from '../errors.js'
import {
  type ApiDescription,
  type ApiLocation,
  type DocumentedType,
  docsUrl,
  entrypointContext,
  renderDocumentation,
  renderEntrypoint,
} from '../hydra/documentation.js'
import type { IdKind, Resource } from '../hydra/resource.js'
import { type CollectionOperation, type JsonLdResponse, jsonLd, mountPrefix } from './serve.js'

const LD = 'application/ld+json'
const JSON_TYPE = 'application/json'
export const API_DOCUMENTATION_REL = 'http://www.w3.org/ns/hydra/core#apiDocumentation'

/** Which browser origins may read the API: Hono's `cors` `origin` option. */
export type CorsOrigin = NonNullable<Parameters<typeof cors>[0]>['origin']

export interface HydraHeadersOptions {
  /**
   * Browser origins allowed to read the API from another origin (`'https://admin.example.com'`,
   * a list, or a function of the request's origin). The `Link` header is exposed to them. Left out:
   * no CORS headers, so only same-origin pages can read responses.
   */
  cors?: CorsOrigin | undefined
  /** Whether error bodies written here (406) use the `hydra:` prefix. Default true. */
  hydraPrefix?: boolean | undefined
}

/**
 * The media type a request's `Accept` header allows: JSON-LD unless the client prefers plain JSON
 * (the same document, served as `application/json`); undefined when it accepts neither.
 */
export function negotiate(c: Context): typeof LD | typeof JSON_TYPE | undefined {
  const chosen = accepts(c, {
    header: 'Accept',
    supports: [LD, JSON_TYPE],
    default: LD,
    match: (ranges) => {
      const refused = new Set(
        ranges.filter((range) => range.q === 0).map((range) => range.type.toLowerCase())
      )
      const wanted = ranges
        .filter((range) => range.q > 0)
        .sort((a, b) => b.q - a.q || specificity(b.type) - specificity(a.type))
      for (const { type } of wanted) {
        const lower = type.toLowerCase()
        if (lower === LD || lower === JSON_TYPE) return lower
        if (lower === '*/*' || lower === '*' || lower === 'application/*') {
          const usable = [LD, JSON_TYPE].find((candidate) => !refused.has(candidate))
          if (usable) return usable
        }
      }
      return ''
    },
  })
  return chosen === LD || chosen === JSON_TYPE ? chosen : undefined
}

function specificity(type: string): number {
  if (type === '*/*' || type === '*') return 1
  return type.endsWith('/*') ? 2 : 3
}

/**
 * Middleware for every route of a Hydra API: CORS (when origins are given), content negotiation
 * (406 problem+json for a client that accepts neither JSON-LD nor JSON; `application/json` served
 * when preferred) and `Link: <…/docs.jsonld>; rel="…#apiDocumentation"` on every response.
 */
export function hydraHeaders(options: HydraHeadersOptions = {}): MiddlewareHandler {
  const headers: MiddlewareHandler = async function hydraHeaders(c, next) {
    const type = negotiate(c)
    const link = `<${docsUrl(location(c))}>; rel="${API_DOCUMENTATION_REL}"`
    if (type === undefined) {
      c.res = problemResponse(
        406,
        `This API serves ${LD} and ${JSON_TYPE}; the request accepts only: ${c.req.header('Accept')}.`,
        { base: mountPrefix(c), hydraPrefix: options.hydraPrefix }
      )
    } else {
      await next()
      if (type === JSON_TYPE && c.res.headers.get('Content-Type')?.startsWith(LD))
        c.res.headers.set('Content-Type', `${JSON_TYPE}; charset=utf-8`)
    }
    c.res.headers.append('Link', link)
    c.res.headers.append('Vary', 'Accept')
  }
  if (options.cors === undefined) return headers
  const allowCors = cors({
    origin: options.cors,
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    exposeHeaders: ['Link', 'Content-Type'],
  })
  return async function hydraCors(c, next) {
    return allowCors(c, async () => {
      await headers(c, next)
    })
  }
}

function location(c: Context): ApiLocation {
  return { origin: new URL(c.req.url).origin, base: mountPrefix(c) }
}

/** `GET /`: the Hydra entrypoint, a link to every collection of the API. */
export function serveEntrypoint(
  c: Context,
  api: ApiDescription
): JsonLdResponse<Record<string, string>> {
  return jsonLd(c, renderEntrypoint(api, mountPrefix(c)))
}

/** `GET /contexts/Entrypoint`: the entrypoint's context. */
export function serveEntrypointContext(c: Context, api: ApiDescription) {
  return jsonLd(c, entrypointContext(api, location(c)))
}

/** `GET /docs.jsonld`: the Hydra API documentation. */
export function serveDocumentation(
  c: Context,
  api: ApiDescription
): JsonLdResponse<Record<string, unknown>> {
  return jsonLd(c, renderDocumentation(api, location(c)))
}

/** The entrypoint key of an operation: `book` for a resource's collection, `bookRecent` for others. */
export function entrypointKey(resourceName: string, operation: string): string {
  const base = resourceName.charAt(0).toLowerCase() + resourceName.slice(1)
  return operation === 'collection'
    ? base
    : `${base}${operation.charAt(0).toUpperCase()}${operation.slice(1)}`
}

/** A generated resource and its collection operations, as the API documentation describes them. */
export function documentResource<M>(
  resource: Resource<M, IdKind>,
  operations: Readonly<Record<string, CollectionOperation<M, boolean>>>
): DocumentedType {
  return {
    name: resource.name,
    iri: resource.iri,
    description: resource.description,
    fields: resource.fields,
    itemPath: resource.collectionPath,
    collections: Object.entries(operations).map(([name, operation]) => ({
      name: entrypointKey(resource.name, name),
      path: operation.path,
      paging: operation.paging,
    })),
  }
}
