/**
 * @module
 * The answers a stopping server writes: each says `Connection: close` (RFC 9112 §9.6), so that its
 * client sends no other request on a connection about to be closed, and asks again on a new one,
 * which another instance accepts. Kept alive instead, the next request of a client that reuses its
 * connection (Node's Agent with `keepAlive`, undici, a proxy's pool) meets the close and fails with
 * `ECONNRESET`.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { HydraServerResponse, type OutgoingHeaders } from './server-response.js'

/** Whether a server's stop has begun (its drain), and whether its answers close. */
interface StopState {
  draining: boolean
  begun: boolean
}

/** The servers createHydraServer made, each with its stop's state. */
const states = new WeakMap<Server, StopState>()

/**
 * The response class of a server createHydraServer makes, and how to tell it the stop began: a
 * HydraServerResponse that, once it has, writes its head with `Connection: close`.
 */
export function closingResponses(): {
  Response: typeof ServerResponse
  known(server: Server): void
  stopping(): boolean
} {
  const state: StopState = { draining: false, begun: false }
  class ClosingResponse<
    Request extends IncomingMessage = IncomingMessage,
  > extends HydraServerResponse<Request> {
    override writeHead(
      statusCode: number,
      message?: string | OutgoingHeaders,
      headers?: OutgoingHeaders
    ): this {
      if (state.begun) this.setHeader('Connection', 'close')
      return typeof message === 'string'
        ? super.writeHead(statusCode, message, headers)
        : super.writeHead(statusCode, message)
    }
  }
  return {
    Response: ClosingResponse,
    known: (server) => void states.set(server, state),
    stopping: () => state.draining,
  }
}

/**
 * Tells the app that `server` is stopping (createHydraServer's servers: readiness answers `503`);
 * it serves on as before. Whether it could: false for a server createHydraServer did not make.
 */
export function beginDrain(server: Server): boolean {
  const state = states.get(server)
  if (state) state.draining = true
  return state !== undefined
}

/**
 * Makes every answer `server` writes from now on close its connection: on createHydraServer's
 * servers every head written from now on, the requests in flight's too; on others, the answers
 * of the requests read from now on.
 */
export function answerWithClose(server: Server): void {
  const state = states.get(server)
  if (state) state.begun = true
  else
    server.prependListener('request', (_: IncomingMessage, response: ServerResponse) => {
      if (!response.headersSent) response.setHeader('Connection', 'close')
    })
}
