/**
 * @module
 * HTTP caching of the API's responses (docs/hydra.md#http-caching), decided in this file alone:
 *
 * - **Validators.** A response whose body is written whole (the documentation, contexts, the
 *   entrypoint, pages of every paging mode, items, sub-collections, custom collections given as
 *   a paginator or an array) carries a strong `ETag`: a hash of its exact bytes and media type,
 *   so two responses share a tag exactly when a client could not tell them apart. A streamed
 *   (unpaged) collection has none: its bytes are known only once the last is sent, after the
 *   headers. `If-None-Match` (weak comparison, `*` included) answers `304 Not Modified`; a failed
 *   `If-Match` (strong comparison; `*` holds for any response that exists) answers `412`
 *   problem+json (RFC 9110 13.1.1, 13.1.2, evaluated in the order of 13.2.2). A request that
 *   would not be answered `200` (a 404, a 400) ignores its preconditions (13.2.1).
 * - **`Cache-Control`**: the operation's (or, for items, the resource's) `cacheHeaders`
 *   annotation, written at generation time; none by default. Documents that change only with the
 *   API are `no-cache` (revalidated on every use).
 * - **`Vary: Accept`** on every negotiated response, 304s included.
 * - **Compression** is a middleware's after the route (compression.ts): each 304 written here
 *   notes the type and length of the 200 it stands for, so that the middleware gives it the
 *   `ETag` and `Vary` it gives that 200.
 * - **Caller-dependent responses**: a response an access rule bore on (data/caller-view.ts,
 *   docs/security.md) is never stored by a shared cache: its `Cache-Control` becomes `private`
 *   (`public`, `s-maxage` and `proxy-revalidate` dropped, the rest kept) whatever the annotation
 *   says, and `Vary` names the headers the caller is known by (`Authorization`, `Cookie`). The
 *   one exception is the answer to an anonymous request whose rules read only credentials
 *   (docs/caching.md): every anonymous caller gets it, so it keeps the configured directives, and
 *   its `Vary` keeps it from requests with credentials.
 * - **Count preferences** (docs/paging.md#client-totals): the response of an operation that lets
 *   clients choose their totals varies by `Prefer`; one that honours `Prefer: count=…` says so
 *   with `Preference-Applied`, which its `ETag` covers with the body, so that the answers to two
 *   preferences never share a tag, even with the same bytes.
 */
import { createHash } from 'node:crypto'
import type { Context } from 'hono'
import { HydraError } from '../../errors.js'
import { callerAnswer } from '../access/request-caller.js'
import { countPreferenceOf } from '../request/count-preference.js'
import { cacheTagHeader } from './cache-tags.js'

/** Revalidate on every use: the documents are small, the `304` cheaper than any staleness. */
export const DOCUMENT_CACHE_CONTROL = 'no-cache'

/**
 * A strong validator of a body and its media type (JSON-LD and JSON differ in type): SHA-256,
 * 162 bits of it in base64url. Node's hash is native code; its cost per response is a row of
 * bench/RESULTS.md (`npm run bench:validators`).
 */
export function entityTag(text: string | Uint8Array, type: string): string {
  return `"${createHash('sha256').update(type).update('\n').update(text).digest('base64url').slice(0, 27)}"`
}

/** The entity tags of an `If-Match` / `If-None-Match` list, each with whether it is weak. */
function tagsOf(header: string): Array<{ weak: boolean; tag: string }> {
  return [...header.matchAll(/(W\/)?("[^"]*")/g)].map((match) => ({
    weak: match[1] !== undefined,
    tag: match[2] as string,
  }))
}

/** Whether an `If-None-Match` header names the tag (`*`, or in its list, weakly compared). */
function matchesEntityTag(header: string | undefined, tag: string | undefined): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  return tag !== undefined && tagsOf(header).some((candidate) => candidate.tag === tag)
}

/** Whether an `If-Match` header holds: `*`, or the tag in its list, strongly compared. */
function ifMatchHolds(header: string, tag: string | undefined): boolean {
  if (header.trim() === '*') return true
  return (
    tag !== undefined &&
    tagsOf(header).some((candidate) => !candidate.weak && candidate.tag === tag)
  )
}

/**
 * The answer RFC 9110 13.2.2 gives a GET or HEAD of a representation that exists, tagged `tag`
 * (undefined: it has no validator): `send` it, `304`, or `412`.
 */
export function preconditionAnswer(
  ifMatch: string | undefined,
  ifNoneMatch: string | undefined,
  tag: string | undefined
): 'send' | 304 | 412 {
  if (ifMatch !== undefined && !ifMatchHolds(ifMatch, tag)) return 412
  if (matchesEntityTag(ifNoneMatch, tag)) return 304
  return 'send'
}

/** What makes a response depend on its caller (an access rule that bore on the request). */
export interface CallerDependence {
  /** Request headers the response depends on, added to `Vary` (`Authorization`, `Cookie`). */
  vary?: readonly string[] | undefined
  /**
   * Whether every anonymous caller gets this response (docs/caching.md): its `Cache-Control` is
   * then the configured one, public directives included.
   */
  shared?: boolean | undefined
}

/** How this request's response depends on its caller, or undefined when it does not. */
function callerOf(c: Context): CallerDependence | undefined {
  return callerAnswer(c)
}

/** Directives only shared caches read, or that let them store: dropped from a private response. */
const SHARED_ONLY = /^(public|s-maxage|proxy-revalidate)$/i

/**
 * The `Cache-Control` of a response: the configured one, unless the response depends on the
 * caller (then `private` with the configured private directives).
 */
export function cacheControlFor(
  configured: string | undefined,
  caller: CallerDependence | undefined
): string | undefined {
  if (caller === undefined || caller.shared) return configured
  const kept = (configured ?? '')
    .split(',')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !SHARED_ONLY.test(directive.split('=')[0] as string))
    .filter((directive) => !/^private$/i.test(directive))
  return ['private', ...kept].join(', ')
}

/**
 * `Vary`: `Accept` for a negotiated response, the headers a caller-dependent one reads, and
 * `Prefer` for one whose totals the client chooses; '' for none.
 */
function varyFor(
  caller: CallerDependence | undefined,
  negotiated: boolean,
  preferred: boolean
): string {
  const names = [
    ...(negotiated ? ['Accept'] : []),
    ...(caller?.vary ?? []),
    ...(preferred ? ['Prefer'] : []),
  ]
  const seen = new Set<string>()
  return names
    .filter((name) => !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()))
    .join(', ')
}

/**
 * The caching headers of this request's response: `Vary` (`negotiated`: by `Accept`),
 * `Cache-Control` and `Preference-Applied`, each when it has a value.
 */
export function cachingHeaders(
  c: Context,
  configured: string | undefined,
  negotiated = true
): Record<string, string> {
  const caller = callerOf(c)
  const headers: Record<string, string> = {}
  const preference = countPreferenceOf(c)
  const vary = varyFor(caller, negotiated, preference !== undefined)
  if (vary !== '') headers.Vary = vary
  if (preference?.applied) headers['Preference-Applied'] = `count=${preference.applied}`
  const cacheControl = cacheControlFor(configured, caller)
  if (cacheControl !== undefined) headers['Cache-Control'] = cacheControl
  return headers
}

/** The 412 of a failed `If-Match`. */
function preconditionFailed(c: Context): HydraError {
  return new HydraError(
    412,
    `If-Match names no current representation of ${c.req.path}: it changed since it was read.`
  )
}

/** The context variable holding what this request's `304` stands for. */
const REPRESENTATION = 'prisma-hydra representation'

/** The `Content-Type` and length (undefined: streamed) of the `200` a `304` stands for. */
export interface Representation {
  type: string
  length: number | undefined
}

/**
 * What this request's `304` stands for, when the runtime answered it: a compression after the
 * route (compression.ts) gives the `304` the `ETag` and `Vary` it gives that `200`.
 */
export function representationOf(c: Context): Representation | undefined {
  return c.get(REPRESENTATION)
}

/** A `304` with `headers`, standing for `representation`. */
function notModified(
  c: Context,
  headers: Record<string, string>,
  representation: Representation
): Response {
  c.set(REPRESENTATION, representation)
  return c.body(null, 304, headers)
}

const encoder = new TextEncoder()

/**
 * A body written whole, with its validator: `200` with the body, `304` (the `kept` headers, the
 * validator and the caching headers, RFC 9110 15.4.5), or the 412 error thrown. `headers` holding
 * `Vary` marks a negotiated response (its `Vary` is then decided here). The body is sent as the
 * UTF-8 bytes its tag hashes, with their `Content-Length`, so a middleware after the route knows
 * its size (compression.ts compresses past its threshold only: docs/operations.md#compression).
 */
export function cacheableBody(
  c: Context,
  text: string,
  headers: Record<string, string>,
  options: { cacheControl?: string | undefined; kept?: Record<string, string> } = {}
): Response {
  const bytes = encoder.encode(text)
  const type = headers['Content-Type'] as string
  const negotiated = headers.Vary !== undefined
  const caching = cachingHeaders(c, options.cacheControl, negotiated)
  // The honoured preference is part of what the tag stands for (with the media type).
  const applied = caching['Preference-Applied']
  const tag = entityTag(bytes, applied === undefined ? type : `${type}\n${applied}`)
  const tags = cacheTagHeader(c, caching['Cache-Control'] ?? headers['Cache-Control'], text)
  const validators = { ETag: tag, ...caching, ...tags }
  const answer = preconditionAnswer(c.req.header('If-Match'), c.req.header('If-None-Match'), tag)
  if (answer === 412) throw preconditionFailed(c)
  if (answer === 304) {
    const representation = { type, length: bytes.byteLength }
    return notModified(c, { ...options.kept, ...validators }, representation)
  }
  const length = { 'Content-Length': String(bytes.byteLength) }
  return c.body(bytes, 200, { ...headers, ...validators, ...length })
}

/**
 * The preconditions of a response of type `type` without a validator (a streamed collection):
 * `304` on `If-None-Match: *`, the 412 error thrown on an `If-Match` naming a tag; else undefined
 * (send it).
 */
export function unvalidatedAnswer(
  c: Context,
  type: string,
  kept: Record<string, string>,
  cacheControl: string | undefined
): Response | undefined {
  const answer = preconditionAnswer(
    c.req.header('If-Match'),
    c.req.header('If-None-Match'),
    undefined
  )
  if (answer === 412) throw preconditionFailed(c)
  if (answer === 304) {
    const headers = { ...kept, ...cachingHeaders(c, cacheControl) }
    return notModified(c, headers, { type, length: undefined })
  }
  return undefined
}
