/**
 * @module
 * Errors as problem+json responses: the app's error and not-found handlers, and the restyling of
 * errors thrown inside a route.
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { type ErrorOptions, HydraError, isHydraError, problemResponse } from '../errors.js'
import { mountPrefix } from './location.js'
import { notAcceptableDetail } from './negotiation.js'
import { apiState, withApiHeaders } from './request-state.js'

/**
 * Client errors thrown while serving (bad parameters) are written for the route: under its mount
 * path and with or without the `hydra:` prefix, as its responses are.
 */
export function restyleRouteError(
  error: unknown,
  style: { base: string; hydraPrefix: boolean | undefined }
): never {
  // Errors of the runtime's own checks are rewritten in the route's style; others pass as thrown.
  // (A try/catch in each route rather than a wrapper: every frame between a route and its Prisma
  // query is walked again each time Prisma records where a query was called from.)
  if (isHydraError(error) && error.constructor === HydraError)
    throw new HydraError(error.status, error.detail, {
      ...style,
      cause: error,
      headers: error.headers,
    })
  throw error
}

/**
 * The error handler and not-found handler of an app whose own errors are written with or without
 * the `hydra:` prefix (client errors thrown by routes keep the style their route gave them).
 */
export function hydraErrorHandlers(options: Pick<ErrorOptions, 'hydraPrefix'> = {}): {
  onError: ErrorHandler
  notFound: NotFoundHandler
} {
  const style = (c: Context): ErrorOptions => ({ ...options, base: mountPrefix(c) })
  /** A client that accepts neither JSON-LD nor JSON gets the 406 in place of any problem. */
  const refusal = (c: Context): Response | undefined =>
    apiState(c).type === undefined
      ? withApiHeaders(c, problemResponse(406, notAcceptableDetail(c), style(c)))
      : undefined
  return {
    onError(error, c) {
      // Failures of the server are logged whatever the client is answered.
      if (!(error instanceof HTTPException)) console.error(error)
      const refused = refusal(c)
      if (refused) return refused
      if (
        isHydraError(error) &&
        (error.style.base === undefined || error.style.hydraPrefix === undefined)
      ) {
        const app = style(c)
        return withApiHeaders(
          c,
          problemResponse(error.status, error.detail, {
            base: error.style.base ?? app.base,
            hydraPrefix: error.style.hydraPrefix ?? app.hydraPrefix,
          })
        )
      }
      if (error instanceof HTTPException) {
        const response = error.getResponse()
        if (response.headers.get('Content-Type')?.startsWith('application/problem+json'))
          return withApiHeaders(c, response)
        return withApiHeaders(
          c,
          problemResponse(error.status as 400, error.message || response.statusText, style(c))
        )
      }
      return withApiHeaders(
        c,
        problemResponse(500, 'The server could not complete the request.', style(c))
      )
    },
    notFound: (c) =>
      refusal(c) ??
      withApiHeaders(
        c,
        problemResponse(404, `No route matches ${c.req.method} ${c.req.path}.`, style(c))
      ),
  }
}

const defaults = hydraErrorHandlers()

/**
 * Error handler for a generated app: client errors keep their problem+json response; anything
 * else is logged and becomes a 500 problem that reveals nothing of the cause.
 */
export const hydraErrorHandler: ErrorHandler = defaults.onError

/** A 404 problem naming the method and path no route matches. */
export const hydraNotFound: NotFoundHandler = defaults.notFound
