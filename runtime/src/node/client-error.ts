/**
 * @module
 * Requests Node's HTTP parser refuses before any app sees them (a malformed request line, raw
 * UTF-8 in the URL, a request head over its `maxHeaderSize`), answered as problems rather than
 * with Node's bodiless 400 and 431 (docs/deployment.md#limits).
 */
import { maxHeaderSize } from 'node:http'
import type { Duplex } from 'node:stream'
import { type ErrorOptions, errorBody, PROBLEM_JSON } from '../errors.js'
import { MAX_REQUEST_TARGET } from '../hono/request/request-target.js'

/** The error of Node's `clientError` event: a parser error carries its code and the bytes read. */
export interface ClientError extends Error {
  /** Node's parser error code (`HPE_INVALID_METHOD`, `HPE_HEADER_OVERFLOW`...). */
  code?: string | undefined
  /** The bytes the parser was reading. */
  rawPacket?: Buffer | undefined
}

/**
 * Whether the bytes Node's parser was reading start a request whose request line alone passes the
 * 8 KB the API reads (MAX_REQUEST_TARGET): a 414, as the app answers shorter ones, not a 431.
 */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (packet === undefined || !/^[A-Z]+ [^ ]/.test(packet.subarray(0, 32).toString('latin1')))
    return false
  const end = packet.indexOf('\r\n')
  return end === -1 || end > MAX_REQUEST_TARGET
}

/** Status and detail of a request Node's parser refused, by the parser's error code. */
function answerTo(error: ClientError): { status: 400 | 408 | 414 | 431; detail: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW': {
      return requestLineTooLong(error.rawPacket)
        ? {
            status: 414,
            detail: `The request line is longer than the ${MAX_REQUEST_TARGET} bytes this API reads.`,
          }
        : {
            status: 431,
            detail: `The request head (request line and headers) is larger than the ${maxHeaderSize} bytes this server reads.`,
          }
    }
    case 'HPE_INVALID_URL':
      return {
        status: 400,
        detail:
          'The request target holds a character a URL cannot: percent-encode spaces and non-ASCII characters (é as %C3%A9).',
      }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, detail: 'The request did not arrive in time.' }
    default:
      return {
        status: 400,
        detail: `The request is not well-formed HTTP: ${error.message.replace(/^Parse Error: /, '')}.`,
      }
  }
}

const REASONS = {
  400: 'Bad Request',
  408: 'Request Timeout',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
}

/**
 * A listener of Node's `clientError` event: answers the request with a problem+json body and closes
 * the connection (a client that is gone, or a socket already written to, is just closed). Its
 * IRIs are at the root (`/errors/400`); `createHydraServer({ base })` writes them under a mount.
 *
 * ```ts
 * const server = createServer(getRequestListener(app.fetch, { errorHandler: hydraRequestError }))
 * server.on('clientError', hydraClientError)
 * ```
 */
export function hydraClientError(error: ClientError, socket: Duplex): void {
  answerClientError(error, socket, {})
}

/** hydraClientError, its problem written in `style` (under the API's mount path). */
export function answerClientError(error: ClientError, socket: Duplex, style: ErrorOptions): void {
  const written = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || written?.headersSent) {
    socket.destroy()
    return
  }
  const { status, detail } = answerTo(error)
  const body = JSON.stringify(errorBody(status, detail, style))
  // A HEAD request is answered without the body (its client would read it as a next answer).
  const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD '
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\n` +
      `Content-Type: ${PROBLEM_JSON}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      (head ? '' : body)
  )
}
