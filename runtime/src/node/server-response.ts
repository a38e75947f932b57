/**
 * @module
 * Node's response to a request, as createHydraServer writes it: a `304 Not Modified` without the
 * `Content-Type` `@hono/node-server` gives every response that has none (`text/plain;
 * charset=UTF-8`). A `304` sends no more than the `200` it stands for would (RFC 9110 §15.4.5),
 * and a cache that freshens a stored page with it would take that type for the page's; Bun, Deno
 * and Workers send none.
 */
import {
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http'

/** The headers `writeHead` takes: an object by name, or a list of names and values. */
export type OutgoingHeaders = OutgoingHttpHeaders | OutgoingHttpHeader[]

/** `headers` without `Content-Type`, in whichever case it is written. */
function untyped(headers: OutgoingHeaders | undefined): OutgoingHeaders | undefined {
  if (headers === undefined) return headers
  if (Array.isArray(headers)) {
    // Names and values, one after the other: each pair whose name is not Content-Type is kept.
    const kept: OutgoingHttpHeader[] = []
    for (let at = 0; at + 1 < headers.length; at += 2) {
      const [name, value] = [headers[at], headers[at + 1]] as [
        OutgoingHttpHeader,
        OutgoingHttpHeader,
      ]
      if (String(name).toLowerCase() !== 'content-type') kept.push(name, value)
    }
    return kept
  }
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type')
  )
}

/**
 * `node:http`'s ServerResponse, whose `304`s carry no `Content-Type`: createHydraServer's, and
 * the `ServerResponse` option of a server built otherwise (docs/deployment.md#the-nodejs-server).
 */
export class HydraServerResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  /** Node's `writeHead`, without `Content-Type` on a `304`. */
  override writeHead(
    statusCode: number,
    message?: string | OutgoingHeaders,
    headers?: OutgoingHeaders
  ): this {
    if (statusCode !== 304) {
      return typeof message === 'string'
        ? super.writeHead(statusCode, message, headers)
        : super.writeHead(statusCode, message)
    }
    this.removeHeader('Content-Type')
    return typeof message === 'string'
      ? super.writeHead(statusCode, message, untyped(headers))
      : super.writeHead(statusCode, untyped(message))
  }
}
