/**
 * @module
 * Writing a JSON-LD document as the response: the negotiated type, the `Link` to the
 * documentation and `Vary: Accept`.
 */
import type { Context, TypedResponse } from 'hono'
import { canonicalFor, jsonLdHeaders } from './request-state.js'

/** A response whose body is the JSON-LD document `T` (typed for Hono's client). */
export type JsonLdResponse<T> = Response & TypedResponse<T, 200, 'json'>

/**
 * A JSON-LD response (or JSON, as negotiated); throws the 406 error when neither is accepted.
 * `iri`, the document's main resource, is linked as canonical when the request spelled it
 * otherwise (D6).
 */
export function jsonLd<T>(c: Context, body: T, iri?: string): JsonLdResponse<T> {
  const canonical = iri === undefined ? undefined : canonicalFor(c, iri)
  const headers = jsonLdHeaders(c, canonical)
  return c.body(JSON.stringify(body), 200, headers) as unknown as JsonLdResponse<T>
}
