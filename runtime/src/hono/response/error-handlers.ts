/**
 * @module
 * Errors as problem+json responses: the app's error and not-found handlers, and the restyling of
 * errors thrown inside a route.
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { asOutage, isDatabaseUnavailable, isOutage, type OutageLog } from '../../database/outage.js'
import { outageReason } from '../../database/outage-reason.js'
import { DEFAULT_RETRY_AFTER } from '../../database/timeouts.js'
import { statusTitle } from '../../error-kinds.js'
import { type ErrorOptions, HydraError, isHydraError } from '../../errors.js'
import { type HydraLogger, loggerOf } from '../../observe/logger.js'
import { enterApi } from '../request/api-mount.js'
import { insideApi, outsideNotFound } from '../request/api-scope.js'
import { apiState, withApiHeaders } from '../request/request-state.js'
import { apiProblem, hydraErrorProblem, refusalProblem } from './api-problem.js'

/**
 * Client errors thrown while serving (bad parameters) are written for the route: under its mount
 * path and with or without the `hydra:` prefix, as its responses are. An outage of the database
 * becomes its 503 with `Retry-After` (logged once per episode in `log`, the route's database's),
 * written the same way.
 */
export function restyleRouteError(
  thrown: unknown,
  style: { base: string; hydraPrefix: boolean | undefined },
  retryAfter: number,
  log: OutageLog
): never {
  // Errors of the runtime's own checks are rewritten in the route's style; others pass as thrown.
  // (A try/catch in each route rather than a wrapper: every frame between a route and its Prisma
  // query is walked again each time Prisma records where a query was called from.)
  const error = asOutage(thrown, retryAfter, log)
  if (isHydraError(error) && (error.constructor === HydraError || isDatabaseUnavailable(error)))
    throw new HydraError(error.status, error.detail, {
      ...style,
      cause: error,
      headers: error.headers,
    })
  throw error
}

/** The options of `hydraErrorHandlers`. */
export interface HydraErrorHandlersOptions extends Pick<ErrorOptions, 'hydraPrefix'> {
  /** Where failures of the server are logged (default: the console). */
  logger?: HydraLogger | undefined
}

/**
 * The error handler and not-found handler of an app whose own errors are written with or without
 * the `hydra:` prefix (client errors thrown by routes keep the style their route gave them), its
 * failures logged through `logger`: `app.onError(hydraErrorHandlers({ logger }).onError)`.
 *
 * @example
 * ```ts
 * import { hydraErrorHandlers } from '@prisma-hydra/runtime'
 *
 * const logger: HydraLogger = (record) => pino[record.level](record.fields, record.message)
 * const errors = hydraErrorHandlers({ logger })
 * app.onError(errors.onError)
 * app.notFound(errors.notFound)
 * ```
 */
export function hydraErrorHandlers(options: HydraErrorHandlersOptions = {}): {
  /** The error handler, for `app.onError`. */
  onError: ErrorHandler
  /** The not-found handler, for `app.notFound`. */
  notFound: NotFoundHandler
} {
  const { hydraPrefix } = options
  const log = loggerOf(options.logger)
  return {
    async onError(thrown, c) {
      const response = await answerError(thrown, c, options, log)
      // Hono hands the thrown error to the middleware before (`c.error`), and HTTP
      // instrumentations (`@hono/otel`) record it as the request span's error; a client's error
      // is no failure of the server, whose span status stays unset (docs/operations.md#tracing).
      if (isClientError(thrown)) c.error = undefined
      return response
    },
    notFound: (c) => {
      // Outside every mount path of the API, its links would lead nowhere.
      if (!insideApi(c)) return outsideNotFound(c)
      return apiState(c).type === undefined
        ? refusalProblem(c, hydraPrefix)
        : apiProblem(c, 404, `No route matches ${c.req.method} ${c.req.path}.`, options)
    },
  }
}

/** Whether `error` is a client's (a HydraError's, an HTTPException's status below 500). */
function isClientError(error: unknown): boolean {
  return (isHydraError(error) || error instanceof HTTPException) && error.status < 500
}

/** The problem answering an error thrown while serving `c`, failures of the server logged. */
async function answerError(
  thrown: unknown,
  c: Context,
  options: HydraErrorHandlersOptions,
  log: HydraLogger
): Promise<Response> {
  // An outage of the database is a 503; other failures of the server are logged whatever the
  // client is answered. Generated routes and custom collections answer their outages
  // themselves (logged once per episode of their database's log); one that reaches this
  // handler comes from a route of the application's, whose database is not known here: it is
  // logged as it comes.
  if (isOutage(thrown) && !isHydraError(thrown))
    log({
      level: 'error',
      message: `a database outage reached the error handler (${outageReason(thrown)}); answering 503`,
      fields: { event: 'outage.unattributed', reason: outageReason(thrown), error: thrown },
    })
  const error = asOutage(thrown, DEFAULT_RETRY_AFTER)
  if (!(error instanceof HTTPException))
    log({
      level: 'error',
      message: `${c.req.method} ${c.req.path} failed; answering 500`,
      fields: { event: 'server.error', method: c.req.method, path: c.req.path, error },
    })
  // An error of the app's own middleware is answered under the API's mount path.
  enterApi(c)
  // A client that accepts neither JSON-LD nor JSON gets the 406 in place of any problem.
  if (apiState(c).type === undefined) return refusalProblem(c, options.hydraPrefix)
  if (isHydraError(error)) return hydraErrorProblem(c, error, options)
  if (error instanceof HTTPException) {
    const response = error.getResponse()
    if (response.headers.get('Content-Type')?.startsWith('application/problem+json'))
      return withApiHeaders(c, response)
    // Its response's own headers stay (hono/jwt's WWW-Authenticate, RFC 9110 §11.6.1).
    return apiProblem(
      c,
      error.status,
      await exceptionDetail(error),
      options,
      exceptionHeaders(response)
    )
  }
  return apiProblem(c, 500, 'The server could not complete the request.', options)
}

/** The most of an HTTPException's plain-text body read for a problem's detail: a message. */
const DETAIL_BYTES = 1024

/**
 * What an HTTPException says of itself: its message, else the start of its response's plain text
 * (where hono/bearer-auth and hono/basic-auth write theirs: "Unauthorized", or the app's own text),
 * else its status's title; never an empty detail. The text is read from a copy of the response,
 * which stays whole for any handler that reads the exception after this one.
 */
async function exceptionDetail(error: HTTPException): Promise<string> {
  if (error.message) return error.message
  const text = error.res?.headers.get('Content-Type')?.startsWith('text/plain')
    ? await textStart(error.res.clone())
    : ''
  return text || statusTitle(error.status)
}

/** The first DETAIL_BYTES of `response`'s body as text, trimmed; the rest is never read. */
async function textStart(response: Response): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array<ArrayBuffer>[] = []
  let size = 0
  try {
    while (size < DETAIL_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } finally {
    // Not awaited: a copy's cancel settles only once the original is read or cancelled too.
    reader.cancel().catch(() => {})
  }
  return (await new Blob(chunks).slice(0, DETAIL_BYTES).text()).trim()
}

/** Headers describing a body of their own, which the problem replaces. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'etag'])

/** The headers of an HTTPException's response that its problem keeps. */
function exceptionHeaders(response: Response): [string, string][] {
  return [...response.headers].filter(([name]) => !BODY_HEADERS.has(name))
}

const defaults = hydraErrorHandlers()

/**
 * Error handler for a generated app: client errors keep their problem+json response; anything
 * else is logged and becomes a 500 problem that reveals nothing of the cause.
 *
 * @example
 * ```ts
 * import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
 *
 * const app = new Hono().route('/api', createHydraApp({ prisma }))
 * app.onError(hydraErrorHandler)
 * app.notFound(hydraNotFound)
 * ```
 */
export const hydraErrorHandler: ErrorHandler = defaults.onError

/** A 404 problem naming the method and path no route matches (see {@link hydraErrorHandler}). */
export const hydraNotFound: NotFoundHandler = defaults.notFound
