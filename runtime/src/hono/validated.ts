/**
 * Documents that change only when the API does (the documentation, the contexts, the entrypoint)
 * served with a validator: an `ETag` of their text and `Cache-Control: no-cache`, so a client asks
 * again each time (`If-None-Match`) and gets a bodiless `304` while nothing changed. Hydra clients
 * fetch the documentation after every response they read (alcaeus does); without a validator each
 * of those is a full download and a new parse.
 */
import { createHash } from 'node:crypto'
import type { Context, TypedResponse } from 'hono'
import { canonicalFor, jsonLdHeaders } from './request-state.js'

type Validated<T> = Response & TypedResponse<T, 200, 'json'>

/** Revalidate on every use: the text is small, the `304` cheaper than any staleness. */
export const DOCUMENT_CACHE_CONTROL = 'no-cache'

/** A strong validator of a document's text and media type (JSON-LD and JSON differ in type). */
function entityTag(text: string, type: string): string {
  return `"${createHash('sha256').update(type).update('\n').update(text).digest('base64url').slice(0, 27)}"`
}

/** Whether an `If-None-Match` header names the tag (`*`, or in its list, weakly compared). */
export function matchesEntityTag(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag)
}

/**
 * A JSON-LD document with its `ETag`, or `304 Not Modified` when the client has it already.
 * `iri`, the document's main resource, is linked as canonical when the request spelled it
 * otherwise (`/api/` for the entrypoint `/api`).
 */
export function validatedJsonLd<T>(c: Context, body: T, iri?: string): Validated<T> {
  const headers = jsonLdHeaders(c, iri === undefined ? undefined : canonicalFor(c, iri))
  return validatedText(c, JSON.stringify(body), headers as Record<string, string>, {
    Link: headers.Link as string,
    Vary: headers.Vary as string,
  }) as unknown as Validated<T>
}

/**
 * A text with its `ETag` (of the text and its `Content-Type`), or `304 Not Modified` with the
 * `kept` headers when the client has it already.
 */
export function validatedText(
  c: Context,
  text: string,
  headers: Record<string, string>,
  kept: Record<string, string> = {}
): Response {
  const tag = entityTag(text, headers['Content-Type'] as string)
  const validators = { ...kept, ETag: tag, 'Cache-Control': DOCUMENT_CACHE_CONTROL }
  if (matchesEntityTag(c.req.header('If-None-Match'), tag)) return c.body(null, 304, validators)
  return c.body(text, 200, { ...headers, ...validators })
}
