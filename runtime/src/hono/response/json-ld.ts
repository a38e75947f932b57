/**
 * @module
 * Writing a JSON-LD document as the response: the negotiated type, the `Link` to the
 * documentation, `Vary: Accept`, and its validator and caching headers (http-cache.ts).
 */
import type { Context, TypedResponse } from 'hono'
import { canonicalFor, jsonLdHeaders } from '../request/request-state.js'
import { cacheableBody } from './http-cache.js'

/** A response whose body is the JSON-LD document `T` (typed for Hono's client). */
export type JsonLdResponse<T> = Response & TypedResponse<T, 200, 'json'>

/**
 * A JSON-LD response (or JSON, as negotiated) with its `ETag`, or `304`; throws the 406 error when
 * neither is accepted and the 412 error on a failed `If-Match`. `iri`, the document's main
 * resource, is linked as canonical when the request spelled it otherwise (D6). `cacheControl` is
 * the operation's or resource's `Cache-Control` (none by default).
 */
export function jsonLd<T>(
  c: Context,
  body: T,
  iri?: string,
  cacheControl?: string | undefined
): JsonLdResponse<T> {
  return jsonLdText<T>(c, JSON.stringify(body), iri, cacheControl)
}

/**
 * jsonLd for a document written as text already (`T` is its type); `pages`, a page's view links as
 * `Link` values, are linked too.
 */
export function jsonLdText<T>(
  c: Context,
  text: string,
  iri?: string,
  cacheControl?: string | undefined,
  pages?: string
): JsonLdResponse<T> {
  const canonical = iri === undefined ? undefined : canonicalFor(c, iri)
  const headers = jsonLdHeaders(c, canonical, pages)
  const response = cacheableBody(c, text, headers, {
    cacheControl,
    kept: { Link: headers.Link as string },
  })
  return asJsonLd<T>(response)
}

/**
 * The response typed as the JSON-LD document `T` for Hono's client: `TypedResponse` is a type
 * alone (none of its properties exists at run time), so the document's type is stated once, here.
 */
export function asJsonLd<T>(response: Response): JsonLdResponse<T> {
  return response as JsonLdResponse<T>
}
