/**
 * Documents that change only when the API does (the documentation, the contexts, the entrypoint)
 * served with a validator: an `ETag` of their text and `Cache-Control: no-cache`, so a client asks
 * again each time (`If-None-Match`) and gets a bodiless `304` while nothing changed. Hydra clients
 * fetch the documentation after every response they read (alcaeus does); without a validator each
 * of those is a full download and a new parse. The rules are http-cache.ts's, as for every page.
 */
import type { Context } from 'hono'
import { canonicalFor, jsonLdHeaders } from '../request/request-state.js'
import { cacheableBody, DOCUMENT_CACHE_CONTROL } from './http-cache.js'
import { asJsonLd, type JsonLdResponse } from './json-ld.js'

/**
 * A JSON-LD document with its `ETag`, or `304 Not Modified` when the client has it already.
 * `iri`, the document's main resource, is linked as canonical when the request spelled it
 * otherwise (`/api/` for the entrypoint `/api`); `links` are more values of its `Link` header.
 */
export function validatedJsonLd<T>(
  c: Context,
  body: T,
  iri?: string,
  links?: string
): JsonLdResponse<T> {
  const headers = jsonLdHeaders(c, iri === undefined ? undefined : canonicalFor(c, iri))
  if (links !== undefined) headers.Link = `${headers.Link}, ${links}`
  const text = validatedText(c, JSON.stringify(body), headers, { Link: headers.Link as string })
  return asJsonLd<T>(text)
}

/**
 * A text with its `ETag` (of the text and its `Content-Type`), or `304 Not Modified` with the
 * `kept` headers when the client has it already; a failed `If-Match` is the 412 error.
 */
export function validatedText(
  c: Context,
  text: string,
  headers: Record<string, string>,
  kept: Record<string, string> = {}
): Response {
  return cacheableBody(c, text, headers, { cacheControl: DOCUMENT_CACHE_CONTROL, kept })
}
