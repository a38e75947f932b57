/**
 * @module
 * The OpenAPI side of the API (docs/openapi.md): `/openapi.json`, the OpenAPI 3.1 document, and
 * `/docs`, a page showing it with Swagger UI, whose files are served from memory (no CDN: the page
 * works offline and behind a firewall; no file system: it works on every runtime).
 */
import type { Context, TypedResponse } from 'hono'
import { HydraError } from '../../errors.js'
import type { ApiDescription } from '../../hydra/documentation.js'
import { openApiPath, renderOpenApi } from '../../openapi/document.js'
import { apiLocation, mountPrefix } from '../request/location.js'
import { validatedText } from '../response/validated.js'

/** The path of the documentation page under the mount path. */
const API_REFERENCE_PATH = '/docs'

const OPENAPI_TYPE = 'application/json; charset=utf-8'

/**
 * The documents rendered for an API, by origin and mount path: a description does not change
 * while the app runs, and rendering the example's takes tens of milliseconds. A few places at
 * most (the origins an app answers are bounded by `allowedHosts`, which may be `*`): the oldest
 * is dropped past that.
 */
const rendered = new WeakMap<ApiDescription, Map<string, string>>()
const RENDERED_PLACES = 8

function openApiText(api: ApiDescription, origin: string, base: string): string {
  let texts = rendered.get(api)
  if (!texts) {
    texts = new Map()
    rendered.set(api, texts)
  }
  const place = `${origin} ${base}`
  let text = texts.get(place)
  if (text === undefined) {
    text = JSON.stringify(renderOpenApi(api, { origin, base }))
    if (texts.size >= RENDERED_PLACES) texts.delete(texts.keys().next().value as string)
    texts.set(place, text)
  }
  return text
}

/**
 * `GET /openapi.json`: the OpenAPI document, with an `ETag` (`304` when unchanged).
 *
 * @example
 * ```ts
 * const api = { title: 'Library API', types: [...hydraTypes, genreType] }
 * app.get('/openapi.json', (c) => serveOpenApi(c, api))
 * app.get('/docs', (c) => serveApiReference(c, api))
 * ```
 */
export function serveOpenApi(
  c: Context,
  api: ApiDescription
): Response & TypedResponse<Record<string, unknown>, 200, 'json'> {
  const { origin, base } = apiLocation(c)
  return validatedText(c, openApiText(api, origin, base), {
    'Content-Type': OPENAPI_TYPE,
  }) as Response & TypedResponse<Record<string, unknown>, 200, 'json'>
}

/** The files of Swagger UI the page loads, by the name it loads them under. */
const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const
export type ApiReferenceAsset = keyof typeof ASSETS

/**
 * A file of Swagger UI, embedded at build time (scripts/embed-swagger-ui.mjs); its module, about
 * 2 MB, is loaded the first time a file is asked for, not when the app starts.
 */
async function assetText(name: ApiReferenceAsset): Promise<string> {
  const files = await import('../../openapi/swagger-ui-files.js')
  return name === 'swagger-ui.css' ? files.SWAGGER_UI_CSS : files.SWAGGER_UI_BUNDLE
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

/** The page: Swagger UI over the API's OpenAPI document, everything under the mount path. */
function apiReferencePage(title: string, base: string): string {
  const assets = `${base}${API_REFERENCE_PATH}`
  // JSON.stringify gives a JavaScript string literal; `<` escaped so it cannot close the script.
  const url = JSON.stringify(openApiPath(base)).replace(/</g, '\\u003c')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(assets)}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${escapeHtml(assets)}/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: ${url}, dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: true })
</script>
</body>
</html>
`
}

/** `GET /docs`: the documentation page, Swagger UI over `/openapi.json` (see {@link serveOpenApi}). */
export function serveApiReference(c: Context, api: ApiDescription): Response {
  return validatedText(c, apiReferencePage(api.title, mountPrefix(c)), {
    'Content-Type': 'text/html; charset=utf-8',
  })
}

/** `GET /docs/:asset`: a file of Swagger UI; a 404 problem for any other name. */
export async function serveApiReferenceAsset(c: Context): Promise<Response> {
  const name = c.req.param('asset') ?? ''
  if (!Object.hasOwn(ASSETS, name))
    throw new HydraError(404, `No file "${name}" in ${API_REFERENCE_PATH}.`)
  const asset = name as ApiReferenceAsset
  return validatedText(c, await assetText(asset), { 'Content-Type': ASSETS[asset] })
}
