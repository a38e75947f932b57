/**
 * What makes a set of collections a Hydra API a client can discover: the entrypoint and the API
 * documentation, the `Link` header pointing at the documentation on every response, content
 * negotiation, and CORS for browser clients on other origins.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { PROBLEM_JSON, problemResponse } from '../errors.js'
import {
  type ApiDescription,
  type DocumentedType,
  entrypointContext,
  entrypointKey,
  renderDocumentation,
  renderEntrypoint,
} from '../hydra/documentation.js'
import type { IdKind, Resource } from '../hydra/resource.js'
import {
  apiLocation,
  apiState,
  hasApiState,
  LD,
  mountPrefix,
  notAcceptableDetail,
  withApiHeaders,
} from './api-state.js'
import type { CollectionOperation, JsonLdResponse } from './serve.js'
import { validatedJsonLd } from './validated.js'

export { API_DOCUMENTATION_REL, negotiate } from './api-state.js'

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

/** Whether a response is one of the API's documents (JSON-LD, or a problem). */
function isApiResponse(response: Response): boolean {
  const type = response.headers.get('Content-Type') ?? ''
  return type.startsWith(LD) || type.startsWith(PROBLEM_JSON.split(';')[0] as string)
}

/**
 * Middleware for the routes of a Hydra API: CORS (when origins are given), content negotiation
 * and `Link: <…/docs.jsonld>; rel="…#apiDocumentation"`. The runtime's builders already give the
 * API's own responses (JSON-LD, and problems through the generated error handlers) the `Link`
 * header and the negotiated type without it, and refuse with a 406 a client that accepts neither
 * JSON-LD nor JSON; the middleware adds CORS, the `Link` on problems written by other error
 * handlers (Hono's default one), and the 406 in place of API responses built elsewhere. Other
 * routes of the app it is mounted in keep their responses as they are. Applied twice (the
 * generated app's and the app's own), it acts once.
 */
export function hydraHeaders(options: HydraHeadersOptions = {}): MiddlewareHandler {
  const headers: MiddlewareHandler = async function hydraHeaders(c, next) {
    const { type, link } = apiState(c)
    await next()
    // The API's responses were built with their type and Link. Left: errors written by another
    // error handler (Hono's default one) get the Link too, and a refusal replaces the response.
    if (type !== undefined) {
      if (
        c.res.status >= 400 &&
        isApiResponse(c.res) &&
        !c.res.headers.get('Link')?.includes(link)
      ) {
        const response = withApiHeaders(c, c.res)
        if (response !== c.res) c.res = response
      }
      return
    }
    if (!isApiResponse(c.res)) return
    await c.res.body?.cancel()
    c.res = withApiHeaders(
      c,
      problemResponse(406, notAcceptableDetail(c), {
        base: mountPrefix(c),
        hydraPrefix: options.hydraPrefix,
      })
    )
  }
  const allowCors =
    options.cors === undefined
      ? undefined
      : cors({
          origin: options.cors,
          allowMethods: ['GET', 'HEAD', 'OPTIONS'],
          exposeHeaders: ['Link', 'Content-Type'],
        })
  // A request whose state is decided (by another `hydraHeaders`, which decides first) is left alone.
  if (!allowCors) {
    return function hydraApi(c, next) {
      return hasApiState(c) ? next() : headers(c, next)
    }
  }
  return function hydraApiWithCors(c, next) {
    return hasApiState(c)
      ? next()
      : allowCors(c, async () => {
          await headers(c, next)
        })
  }
}

/** `GET /`: the Hydra entrypoint, a link to every collection of the API. */
export function serveEntrypoint(
  c: Context,
  api: ApiDescription
): JsonLdResponse<Record<string, string>> {
  return validatedJsonLd(c, renderEntrypoint(api, mountPrefix(c)))
}

/** `GET /contexts/Entrypoint`: the entrypoint's context. */
export function serveEntrypointContext(c: Context, api: ApiDescription) {
  return validatedJsonLd(c, entrypointContext(api, apiLocation(c)))
}

/** `GET /docs.jsonld`: the Hydra API documentation. */
export function serveDocumentation(
  c: Context,
  api: ApiDescription
): JsonLdResponse<Record<string, unknown>> {
  return validatedJsonLd(c, renderDocumentation(api, apiLocation(c)))
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
