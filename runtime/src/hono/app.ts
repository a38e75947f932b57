import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import {
  type ErrorOptions,
  errorKind,
  HydraError,
  isHydraError,
  problemResponse,
} from '../errors.js'
import { hydraTerm } from '../hydra/terms.js'
import { apiState, mountPrefix, notAcceptableDetail, withApiHeaders } from './api-state.js'
import { validatedJsonLd } from './validated.js'

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

/** `/contexts/Error`: the context of problem bodies. */
export function serveErrorContext(c: Context) {
  return validatedJsonLd(c, {
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

/**
 * `/errors/{status}`: what an error's `@id` and `type` (`/errors/404`) lead to, a document
 * describing that kind of error; a status the API never answers is a 404.
 */
export function serveErrorDocument(c: Context, options: Pick<ErrorOptions, 'hydraPrefix'> = {}) {
  const raw = c.req.param('status') ?? ''
  const kind = /^[1-5][0-9]{2}$/.test(raw) ? errorKind(Number(raw)) : undefined
  const base = mountPrefix(c)
  const hydraPrefix = options.hydraPrefix !== false
  if (!kind) throw new HydraError(404, `No error document for "${raw}".`, { base, hydraPrefix })
  const iri = `${base}/errors/${raw}`
  const description = hydraPrefix
    ? { 'hydra:title': kind.title, 'hydra:description': kind.description }
    : { title: kind.title, description: kind.description }
  return validatedJsonLd(c, {
    '@context': `${base}/contexts/Error`,
    '@id': iri,
    '@type': hydraTerm('Error', hydraPrefix),
    title: kind.title,
    status: Number(raw),
    ...description,
  })
}
