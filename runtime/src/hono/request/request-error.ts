import { type ErrorOptions, problemResponse } from '../../errors.js'
import { consoleLogger, type HydraLogger } from '../../observe/logger.js'

/** The detail of a request whose `Host` is missing or not `host[:port]`. */
export const BAD_HOST = 'The Host header must be a host name or address, with an optional port.'

/** The detail of a request that names no host: no `Host` header, and a target in origin form. */
export const MISSING_HOST = 'The request names no host: send a Host header.'

/** The detail of a request whose target, in absolute form, names a host that is not `host[:port]`. */
export const BAD_TARGET_HOST =
  'The host of the request target must be a host name or address, with an optional port.'

/**
 * The answer to a request Node's adapter cannot hand to the app: a backslash in its path or a
 * target that is no URL (`@hono/node-server` throws a `RequestError` before any route runs, and
 * answers an empty 400 unless given this). Pass it as the `errorHandler` of `getRequestListener`:
 *
 * ```ts
 * createServer(getRequestListener(app.fetch, { errorHandler: hydraRequestError })).listen(3000)
 * ```
 *
 * Anything else that reaches it escaped the app's own error handler: logged, and a 500 problem.
 */
export function hydraRequestError(error: unknown): Response {
  return requestErrorAnswer(error, consoleLogger)
}

/**
 * hydraRequestError, logging what escaped the app through `logger` (createHydraServer's), its
 * problems written in `style` (under the API's mount path).
 */
export function requestErrorAnswer(
  error: unknown,
  logger: HydraLogger,
  style: ErrorOptions = {}
): Response {
  if (error instanceof Error && error.name === 'RequestError') {
    if (/^missing host header/i.test(error.message))
      return problemResponse(400, MISSING_HOST, style)
    if (/host header/i.test(error.message)) return problemResponse(400, BAD_HOST, style)
    return problemResponse(400, `The request target cannot be read: ${error.message}.`, style)
  }
  logger({
    level: 'error',
    message: 'a request failed outside the app; answering 500',
    fields: { event: 'server.error', error },
  })
  return problemResponse(500, 'The server could not complete the request.', style)
}
