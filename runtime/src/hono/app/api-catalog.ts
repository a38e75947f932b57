/**
 * @module
 * The API's catalog (RFC 9727): `/.well-known/api-catalog` under the mount path, a linkset
 * (RFC 9264) whose first link context is the catalog itself, listing as its `item`s the API's
 * entrypoint and, when it is on, its MCP endpoint; and whose second is the entrypoint, with its
 * machine-readable descriptions (`service-desc`: the OpenAPI document and the Hydra API
 * documentation) and its page for people (`service-doc`: the API reference). The entrypoint sends
 * the same links as `Link` headers (RFC 8288), with `api-catalog` to the catalog.
 */
import type { Context } from 'hono'
import { type ApiLocation, docsUrl, entrypointPath } from '../../hydra/documentation.js'
import { openApiPath } from '../../openapi/document.js'
import { apiLocation } from '../request/location.js'
import { validatedText } from '../response/validated.js'

/** The catalog's path under the mount path: the well-known URI where the API is at the root. */
export const API_CATALOG_PATH = '/.well-known/api-catalog'

/** The catalog's media type: a JSON linkset of RFC 9727's profile. */
const API_CATALOG_TYPE =
  'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'

/** A link's target in a JSON linkset: its URL, and its media type or title. */
interface Target {
  href: string
  type?: string
  title?: string
}

/** The descriptions and documentation of the API at `location`, by relation type. */
function serviceLinks({ origin, base }: ApiLocation): Record<string, Target[]> {
  return {
    'service-desc': [
      { href: `${origin}${openApiPath(base)}`, type: 'application/json', title: 'OpenAPI 3.1' },
      {
        href: docsUrl({ origin, base }),
        type: 'application/ld+json',
        title: 'Hydra API documentation',
      },
    ],
    'service-doc': [{ href: `${origin}${base}/docs`, type: 'text/html', title: 'API reference' }],
  }
}

/** The catalog of the API at `location`, its MCP endpoint listed when `mcp`. */
function renderApiCatalog(location: ApiLocation, mcp: boolean): Record<string, unknown> {
  const { origin, base } = location
  const entrypoint = `${origin}${entrypointPath(base)}`
  const items: Target[] = [
    { href: entrypoint, type: 'application/ld+json', title: 'Hydra entrypoint' },
  ]
  if (mcp) items.push({ href: `${origin}${base}/mcp`, title: 'MCP (Streamable HTTP)' })
  return {
    linkset: [
      { anchor: `${origin}${base}${API_CATALOG_PATH}`, item: items },
      { anchor: entrypoint, ...serviceLinks(location) },
    ],
  }
}

/** The `Link` header values the entrypoint adds: the catalog, descriptions and documentation. */
export function catalogLinks(location: ApiLocation): string {
  const links = [`<${location.origin}${location.base}${API_CATALOG_PATH}>; rel="api-catalog"`]
  for (const [relation, targets] of Object.entries(serviceLinks(location)))
    for (const { href, type } of targets)
      links.push(`<${href}>; rel="${relation}"${type ? `; type="${type}"` : ''}`)
  return links.join(', ')
}

/** `GET /.well-known/api-catalog`: the catalog, with a validator as the other documents. */
export function serveApiCatalog(c: Context, mcp: boolean): Response {
  const text = JSON.stringify(renderApiCatalog(apiLocation(c), mcp))
  return validatedText(c, text, { 'Content-Type': API_CATALOG_TYPE })
}
