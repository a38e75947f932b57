import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { problemResponse } from '../errors.js'
import { jsonLd, mountPrefix } from './serve.js'

/**
 * Error handler for a generated app: client errors keep their problem+json response; anything
 * else is logged and becomes a 500 problem that reveals nothing of the cause.
 */
export const hydraErrorHandler: ErrorHandler = (error, c) => {
  if (error instanceof HTTPException) {
    const response = error.getResponse()
    if (response.headers.get('Content-Type')?.startsWith('application/problem+json'))
      return response
    return problemResponse(error.status as 400, error.message || response.statusText, {
      base: mountPrefix(c),
    })
  }
  console.error(error)
  return problemResponse(500, 'The server could not complete the request.', {
    base: mountPrefix(c),
  })
}

export const hydraNotFound: NotFoundHandler = (c) =>
  problemResponse(404, `No route matches ${c.req.method} ${c.req.path}.`)

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
      type: '@type',
    },
  })
}
