/**
 * @module
 * What lets a client discover the API: the entrypoint, its context and the Hydra API
 * documentation.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { IdKind } from '../../contract/keys.js'
import { keyFields } from '../../contract/keys.js'
import type { CollectionOperation } from '../../contract/operations.js'
import type { Resource } from '../../contract/resource.js'
import { changesPath } from '../../hydra/change-feed.js'
import {
  type ApiDescription,
  type DocumentedType,
  entrypointContext,
  entrypointKey,
  entrypointPath,
  renderDocumentation,
  renderEntrypoint,
} from '../../hydra/documentation.js'
import { markInsideApi } from '../request/api-scope.js'
import { apiLocation, mountPrefix } from '../request/location.js'
import type { JsonLdResponse } from '../response/json-ld.js'
import { validatedJsonLd } from '../response/validated.js'
import { catalogLinks } from './api-catalog.js'

/**
 * `GET /`: the Hydra entrypoint, a link to every collection of the API; its `Link` header also
 * names the API catalog, the API's descriptions and its reference page (api-catalog.ts).
 */
export function serveEntrypoint(
  c: Context,
  api: ApiDescription
): JsonLdResponse<Record<string, string>> {
  const base = mountPrefix(c)
  const links = catalogLinks(apiLocation(c))
  return validatedJsonLd(c, renderEntrypoint(api, base), entrypointPath(base), links)
}

/**
 * The last route of a generated app, for every request under its mount path that no route of
 * the app answers: `<mount>/` (a trailing slash) is the entrypoint, as `<mount>` is; anything
 * else goes on to the app's not-found handler. A request that matches no route at all has no
 * mount path, so the handler of the app the API is mounted in (`hydraNotFound`) would write its
 * 404 under `/`, where neither `/contexts/Error` nor `/docs.jsonld` exists; past this route it
 * sees the API's mount path.
 */
export function serveUnmatched(api: ApiDescription): MiddlewareHandler {
  return (c, next) => {
    const base = mountPrefix(c)
    if (base !== '' && c.req.method === 'GET' && c.req.path === `${base}/`) {
      return Promise.resolve(serveEntrypoint(c, api))
    }
    markInsideApi(c)
    return next()
  }
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
    ...(resource.links ? { links: resource.links } : {}),
    itemPath: resource.collectionPath,
    idKind: resource.id.kind,
    keyNames: keyFields(resource.id).map((field) => field.name),
    ...(resource.id.fields ? { keyFields: resource.id.fields } : {}),
    ...(resource.properties ? { properties: resource.properties } : {}),
    ...(resource.embedded ? { embedded: resource.embedded } : {}),
    ...(resource.changes ? { changesPath: changesPath(resource.collectionPath) } : {}),
    collections: Object.entries(operations).map(([name, operation]) => ({
      name: entrypointKey(resource.name, name),
      operation: name,
      path: operation.path,
      paging: operation.paging,
      query: operation.query,
      ...(operation.totals ? { totals: operation.totals.mode } : {}),
      hydraPrefix: operation.hydraPrefix !== false,
    })),
  }
}
