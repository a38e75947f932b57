/**
 * @module
 * The `hydraCompression` middleware (docs/operations.md#compression): gzip or deflate, as each
 * client accepts, of the responses past a threshold, and the same decision for the answers that
 * carry no body. A response it compresses gets `Content-Encoding` and a weak `ETag` (`W/"…"`: its
 * bytes are no longer those the strong tag hashes); every response past the threshold, compressed
 * or not, varies by `Accept-Encoding`. A `HEAD` (which Hono answers with the `GET`'s response)
 * and a `304` (which stands for the `200` the route would have sent: http-cache.ts) carry the
 * `ETag` and `Vary` of that `200`, as RFC 9110 (9.3.2, 15.4.5) asks; `hono/compress` leaves both
 * as the route wrote them.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/compress'
import { representationOf } from './http-cache.js'

/** A content coding the middleware writes. */
export type ContentCoding = 'gzip' | 'deflate'

/** Options of the `hydraCompression` middleware. */
export interface CompressionOptions {
  /** Responses of fewer bytes go as they are (default 1,024); a stream has no length: compressed. */
  threshold?: number | undefined
  /** The codings offered, the preferred first when a client accepts several alike (default both). */
  encodings?: readonly ContentCoding[] | undefined
}

/** What decides a response's compression: its type, its length, its `Cache-Control`. */
interface Shape {
  type: string | null
  length: number | undefined
  cacheControl: string | null
}

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i
const VARY_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i

/**
 * The shape of the response this request's answer is, or stands for (a `304` the runtime wrote);
 * undefined when no coding applies: a partial or empty response, one already encoded, a `304`
 * written elsewhere.
 */
function shapeOf(c: Context): Shape | undefined {
  const { headers, status } = c.res
  const cacheControl = headers.get('Cache-Control')
  if (status === 304) {
    const representation = representationOf(c)
    return representation && { ...representation, cacheControl }
  }
  if (status === 204 || status === 206 || c.res.body === null) return undefined
  if (headers.has('Content-Encoding') || headers.has('Transfer-Encoding')) return undefined
  const length = headers.get('Content-Length')
  return {
    type: headers.get('Content-Type'),
    length: length === null ? undefined : Number(length),
    cacheControl,
  }
}

/** Whether a coding applies to a response of this shape. */
function compressible(shape: Shape, threshold: number): boolean {
  if (shape.type === null || !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(shape.type)) return false
  if (shape.cacheControl !== null && NO_TRANSFORM.test(shape.cacheControl)) return false
  return shape.length === undefined || shape.length >= threshold
}

/**
 * The quality of each coding an `Accept-Encoding` header names (lower-cased; `*` included). Read
 * here rather than by `hono/accepts`, whose matching never takes `*` for a value (it reads it as a
 * media range), which Accept-Encoding's wildcard needs.
 */
function qualities(header: string): Map<string, number> {
  const accepted = new Map<string, number>()
  for (const entry of header.split(',')) {
    const [name = '', ...parameters] = entry.split(';')
    const coding = name.trim().toLowerCase()
    if (coding === '') continue
    const q = parameters.map((parameter) => /^\s*q\s*=\s*(\S*)\s*$/i.exec(parameter)).find(Boolean)
    // A quality that is not a number accepts nothing: identity is always there instead.
    const quality = q ? Number(q[1]) : 1
    accepted.set(coding, Number.isNaN(quality) ? 0 : Math.min(Math.max(quality, 0), 1))
  }
  return accepted
}

/**
 * The coding of the response to a request sending `header`: the offered coding of the highest
 * quality above zero, the earlier offered on a tie; undefined (identity) for none.
 */
export function codingFor(
  header: string | undefined,
  offered: readonly ContentCoding[]
): ContentCoding | undefined {
  if (header === undefined) return undefined
  const accepted = qualities(header)
  const wildcard = accepted.get('*') ?? 0
  let best: { coding: ContentCoding; quality: number } | undefined
  for (const coding of offered) {
    const quality = accepted.get(coding) ?? wildcard
    if (quality > 0 && (best === undefined || quality > best.quality)) best = { coding, quality }
  }
  return best?.coding
}

/**
 * Middleware compressing the responses after it (put it before the API): the responses past
 * `threshold` bytes of a compressible type, unless their `Cache-Control` says `no-transform`.
 *
 * @example
 * ```ts
 * import { hydraCompression } from '@prisma-hydra/runtime/compression'
 *
 * const app = new Hono()
 *   .use(hydraCompression({ threshold: 1024 }))
 *   .route('/', createHydraApp({ prisma }))
 * ```
 */
export function hydraCompression(options: CompressionOptions = {}): MiddlewareHandler {
  const threshold = options.threshold ?? 1024
  const offered = options.encodings ?? ['gzip', 'deflate']
  return async function hydraCompression(c, next) {
    await next()
    const shape = shapeOf(c)
    if (shape === undefined || !compressible(shape, threshold)) return
    const coding = codingFor(c.req.header('Accept-Encoding'), offered)
    const { body } = c.res
    // A HEAD's response is the GET's, whose body Hono drops once the app has answered: it gets the
    // GET's headers, and its body is not compressed for nothing.
    const sent =
      coding !== undefined && body !== null && c.req.method !== 'HEAD'
        ? body.pipeThrough(new CompressionStream(coding))
        : body
    // Hono copies the headers of the response it replaces: they change on the new one.
    c.res = new Response(sent, c.res)
    const { headers } = c.res
    const vary = headers.get('Vary')
    if (vary === null) headers.set('Vary', 'Accept-Encoding')
    else if (vary !== '*' && !VARY_ENCODING.test(vary))
      headers.set('Vary', `${vary}, Accept-Encoding`)
    if (coding === undefined) return
    const tag = headers.get('ETag')
    if (tag !== null && !tag.startsWith('W/')) headers.set('ETag', `W/${tag}`)
    if (c.res.status === 304) return
    headers.set('Content-Encoding', coding)
    headers.delete('Content-Length')
  }
}
