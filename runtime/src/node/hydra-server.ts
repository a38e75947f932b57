/**
 * @module
 * A Node.js HTTP server for a Hono app that answers every request it refuses as a problem
 * (docs/deployment.md#limits): `@hono/node-server`'s listener with `hydraRequestError` (what its
 * adapter cannot read), `hydraClientError` (what Node's parser refuses), and a request without
 * `Host`, which Node would answer with a bodiless 400 of its own before any listener runs; its
 * `304`s without the `Content-Type` the adapter adds (server-response.ts). An HTTP/1.0 request
 * without `Host` (a load balancer's health check) is served as the address it came to.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { getRequestListener } from '@hono/node-server'
import { type ErrorOptions, problemResponse } from '../errors.js'
import { MISSING_HOST, requestErrorAnswer } from '../hono/request/request-error.js'
import { recordServerStop } from '../hono/request/server-stop.js'
import { recordServingFetch, type ServingFetch } from '../hono/request/serving-fetch.js'
import { type HydraLogger, loggerOf } from '../observe/logger.js'
import { answerClientError, type ClientError } from './client-error.js'
import { closingResponses } from './closing-answers.js'

/** The `fetch` of a Hono app (`app.fetch`), as `@hono/node-server` calls it. */
export type FetchCallback = Parameters<typeof getRequestListener>[0]

/**
 * Answers an HTTP/1.1 request without `Host` with its 400 (RFC 9112 §3.2), as a problem, and
 * closes the connection as Node does.
 */
async function refuseMissingHost(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  style: ErrorOptions
) {
  const response = problemResponse(400, MISSING_HOST, style)
  const body = await response.text()
  outgoing.writeHead(400, {
    ...Object.fromEntries(response.headers),
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  })
  outgoing.end(incoming.method === 'HEAD' ? undefined : body)
}

/**
 * The authority of the address `socket` was accepted on (`127.0.0.1:3000`, `[::1]:3000`), an IPv4
 * address mapped into IPv6 written as IPv4; `localhost` on a Unix socket: what an HTTP/1.0 request that sends no `Host` names,
 * having come to that address (RFC 9112 §3.2 requires `Host` of HTTP/1.1 requests only).
 */
function localAuthority(socket: Socket): string {
  const { localAddress, localPort } = socket
  // A Unix socket has neither: the request came to this machine.
  if (!localAddress || localPort === undefined) return 'localhost'
  // A link-local address's zone (`fe80::1%eth0`) has no place in a URL's host (RFC 3986 §3.2.2).
  const address = localAddress.replace(/^::ffff:(?=\d+\.)/, '').replace(/%.*$/, '')
  const host = address.includes(':') ? `[${address}]` : address
  return `${host}:${localPort}`
}

/** `base` as a prefix of paths: `/api` for `/api/`, '' for `/`; a path it must be. */
function mountPath(base: string | undefined): string | undefined {
  if (base === undefined) return undefined
  if (!base.startsWith('/'))
    throw new TypeError(`createHydraServer's base is a path starting with "/", not "${base}"`)
  return base.replace(/\/+$/, '')
}

/**
 * `node:http`'s server options, where the server logs what escapes the app, and how it writes the
 * problems it answers itself: `base`, the path the API is mounted under (`/api` for
 * `app.route('/api', createHydraApp(...))`), under which their `@context`, `@id` and `type` are
 * written so that they resolve (default: the root), and `hydraPrefix`, as the API's.
 */
export interface HydraServerOptions extends ServerOptions, ErrorOptions {
  /** The app's logger (`createHydraApp({ logger })`); default: the console. */
  logger?: HydraLogger | undefined
}

/**
 * A server for `fetch` (`app.fetch`) that answers as problems the requests its adapter and Node's
 * HTTP parser refuse before the app sees them; `options` are `node:http`'s (`maxHeaderSize`...)
 * and its `logger`. An MCP endpoint of the app sends its tool calls through `fetch`, with the
 * bindings the server gave the `/mcp` request (docs/mcp.md): a `fetch` that hands the app other
 * bindings leaves them to the API's own routes.
 *
 * ```ts
 * createHydraServer(app.fetch).listen(3000)
 * ```
 */
export function createHydraServer(fetch: FetchCallback, options: HydraServerOptions = {}): Server {
  const { logger, base, hydraPrefix, ...serverOptions } = options
  const log = loggerOf(logger)
  const style = { base: mountPath(base), hydraPrefix }
  // Its answers say Connection: close once closeGracefully begins (closing-answers.ts), and
  // readiness answers 503 (hydraReadiness reads the stop from each request's bindings).
  const closing = closingResponses()
  // Each request's bindings name the app's fetch: an MCP tool call goes through the whole app.
  const served: FetchCallback = (request, env) => {
    // The adapter writes the Response an app's fetch answers; a tool call reads it the same way.
    recordServingFetch(env, fetch as ServingFetch)
    recordServerStop(env, closing.stopping)
    return fetch(request, env)
  }
  const listener = getRequestListener(served, {
    errorHandler: (error) => requestErrorAnswer(error, log, style),
  })
  // Node's own check of Host answers before any listener, with no body: this one answers instead.
  const server = createServer(
    {
      ServerResponse: closing.Response,
      ...serverOptions,
      requireHostHeader: false,
    },
    (incoming, outgoing) => {
      if (incoming.headers.host === undefined) {
        if (incoming.httpVersion !== '1.0') return void refuseMissingHost(incoming, outgoing, style)
        // Health checks send HTTP/1.0 without Host (HAProxy's `option httpchk`): the request
        // names the address it came to, which the app's host check sees as any other host.
        incoming.headers.host = localAuthority(incoming.socket)
      }
      return listener(incoming, outgoing)
    }
  )
  closing.known(server)
  server.on('clientError', (error: ClientError, socket: Duplex) =>
    answerClientError(error, socket, style)
  )
  return server
}
