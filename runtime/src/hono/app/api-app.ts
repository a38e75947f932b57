/**
 * @module
 * The parts of a generated API's app that are the same for every schema (`createHydraApp`): the
 * middleware it starts with, its discovery and error documents, and what it ends with (the 405 of
 * other methods, the unmatched requests and the error handlers). The generated index wires the
 * resources' sub-apps between them.
 */
import { type Env, Hono, type Schema } from 'hono'
import type { HonoBase } from 'hono/hono-base'
import type { ApiDescription } from '../../hydra/documentation.js'
import { hydraArrival } from '../request/arrival.js'
import { publicOrigin } from '../request/public-origin.js'
import { hydraErrorHandlers } from '../response/error-handlers.js'
import { hydraHeaders } from '../response/hydra-headers.js'
import type { HydraAppSettings } from '../routes/app-options.js'
import { API_CATALOG_PATH, serveApiCatalog } from './api-catalog.js'
import { serveErrorContext } from './context-routes.js'
import {
  serveDocumentation,
  serveEntrypoint,
  serveEntrypointContext,
  serveUnmatched,
} from './discovery-routes.js'
import { serveErrorDocument } from './error-documents.js'
import { serveMcp } from './mcp-route.js'
import { allowReadsOnly } from './method-not-allowed.js'
import { serveApiReference, serveApiReferenceAsset, serveOpenApi } from './openapi-routes.js'
import {
  declaresBearer,
  linkResourceMetadata,
  PROTECTED_RESOURCE_PATH,
  serveProtectedResource,
} from './protected-resource.js'

/**
 * The app an API starts from: the first middleware records each request's arrival, from which its
 * budget counts (database/request-deadline.ts); one refuses overlong targets and hosts that are malformed
 * or not allowed (the origin of links); with `cors`, CORS headers. The routes negotiate and write
 * their `Link` themselves. With a bearer challenge, its 401s name the protected-resource metadata.
 */
export function apiBase(settings: HydraAppSettings, hydraPrefix: boolean): Hono {
  const base = new Hono()
  base.use(hydraArrival())
  base.use(publicOrigin(settings))
  if (settings.cors !== undefined) base.use(hydraHeaders({ cors: settings.cors, hydraPrefix }))
  if (declaresBearer(settings.authentication)) base.use(linkResourceMetadata)
  return base
}

/**
 * The discovery routes of an API: the entrypoint and its context, the Hydra documentation, the
 * OpenAPI document and the API reference page with its assets.
 */
export function discoveryRoutes(api: ApiDescription) {
  return new Hono()
    .get('/', (c) => serveEntrypoint(c, api))
    .get('/contexts/Entrypoint', (c) => serveEntrypointContext(c, api))
    .get('/docs.jsonld', (c) => serveDocumentation(c, api))
    .get('/openapi.json', (c) => serveOpenApi(c, api))
    .get('/docs', (c) => serveApiReference(c, api))
    .get('/docs/:asset', (c) => serveApiReferenceAsset(c))
}

/** The error routes of an API: the errors' context and the document of each status. */
export function errorRoutes(hydraPrefix: boolean) {
  return new Hono()
    .get('/contexts/Error', (c) => serveErrorContext(c))
    .get('/errors/:status', (c) => serveErrorDocument(c, { hydraPrefix }))
}

/**
 * Ends an API's app once its routes are in place: the API catalog at
 * `/.well-known/api-catalog` (api-catalog.ts) and, with a bearer challenge, the protected-resource
 * metadata (protected-resource.ts); other methods on its paths are a 405
 * (`allowReadsOnly`); with `mcp`, the MCP endpoint at `/mcp`, its tools calling those routes;
 * last, and out of the chain (clients' route types), the entrypoint at
 * `<mount>/` and the mount path for the not-found handler of the app the API is mounted in
 * (`serveUnmatched`: every request now matches two routes, which Hono composes); then the error
 * handlers, logging through the app's `logger`. Returns `app`.
 */
export function completeApi<E extends Env, S extends Schema, B extends string, P extends string>(
  app: HonoBase<E, S, B, P>,
  api: ApiDescription,
  hydraPrefix: boolean,
  settings: Pick<HydraAppSettings, 'authentication' | 'logger' | 'mcp' | 'tracing'> = {}
): HonoBase<E, S, B, P> {
  app.get(API_CATALOG_PATH, (c) => serveApiCatalog(c, settings.mcp !== undefined))
  const { authentication } = settings
  if (authentication && declaresBearer(authentication))
    app.get(PROTECTED_RESOURCE_PATH, (c) => serveProtectedResource(c, authentication))
  allowReadsOnly(app)
  if (settings.mcp) serveMcp(app, api, settings.mcp, settings)
  app.all('/*', serveUnmatched(api))
  const errors = hydraErrorHandlers({ hydraPrefix, logger: settings.logger })
  app.onError(errors.onError)
  app.notFound(errors.notFound)
  return app
}
