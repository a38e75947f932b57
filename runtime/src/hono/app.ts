import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { asOutage } from '../database/outage.js'
import { type ErrorOptions, isHydraError, problemResponse } from '../errors.js'
import { apiState, mountPrefix, notAcceptableDetail, withApiHeaders } from './api-state.js'
import { jsonLd } from './serve.js'

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
    onError(thrown, c) {
      // An outage is a 503, logged once per episode; other failures of the server are logged
      // whatever the client is answered.
      const error = asOutage(thrown)
      if (!(error instanceof HTTPException)) console.error(error)
      const refused = refusal(c)
      if (refused) return refused
      if (
        isHydraError(error) &&
        (error.style.base === undefined || error.style.hydraPrefix === undefined)
      ) {
        const app = style(c)
        const response = problemResponse(error.status, error.detail, {
          base: error.style.base ?? app.base,
          hydraPrefix: error.style.hydraPrefix ?? app.hydraPrefix,
        })
        for (const [name, value] of Object.entries(error.headers ?? {}))
          if (name !== 'Link' && name !== 'Vary') response.headers.set(name, value)
        return withApiHeaders(c, response)
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

/** `/contexts/Error`: the context of problem bodies. */
export function serveErrorContext(c: Context) {
  return jsonLd(c, {
    '@context': {
      '@vocab': 'http://www.w3.org/ns/hydra/core#',
      hydra: 'http://www.w3.org/ns/hydra/core#',
      title: 'hydra:title',
      description: 'hydra:description',
      detail: 'https://www.rfc-editor.org/rfc/rfc9457#detail',
      status: 'https://www.rfc-editor.org/rfc/rfc9457#status',
      type: { '@id': 'https://www.rfc-editor.org/rfc/rfc9457#type', '@type': '@id' },
    },
  })
}
