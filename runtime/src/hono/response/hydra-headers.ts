/**
 * @module
 * The `hydraHeaders` middleware: the `Link` header pointing at the documentation on every
 * response of the API, content negotiation, and CORS for browser clients on other origins.
 */
import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { PROBLEM_JSON } from '../../errors.js'
import { LD } from '../request/negotiation.js'
import { apiState, hasApiState, withApiHeaders } from '../request/request-state.js'
import { refusalProblem } from './api-problem.js'

/** Which browser origins may read the API: Hono's `cors` `origin` option. */
export type CorsOrigin = NonNullable<Parameters<typeof cors>[0]>['origin']

/** Options of the `hydraHeaders` middleware. */
export interface HydraHeadersOptions {
  /**
   * Browser origins allowed to read the API from another origin (`'https://admin.example.com'`,
   * a list, or a function of the request's origin). The `Link` header is exposed to them. Left out:
   * no CORS headers, so only same-origin pages can read responses.
   */
  cors?: CorsOrigin | undefined
  /** Whether error bodies written here (406) use the `hydra:` prefix. Default true. */
  hydraPrefix?: boolean | undefined
}

/** Whether a response is one of the API's documents (JSON-LD, or a problem). */
function isApiResponse(response: Response): boolean {
  const type = response.headers.get('Content-Type') ?? ''
  return type.startsWith(LD) || type.startsWith(PROBLEM_JSON.split(';')[0] as string)
}

/**
 * Middleware for the routes of a Hydra API: CORS (when origins are given), content negotiation
 * and `Link: <…/docs.jsonld>; rel="…#apiDocumentation"`. The runtime's builders already give the
 * API's own responses (JSON-LD, and problems through the generated error handlers) the `Link`
 * header and the negotiated type without it, and refuse with a 406 a client that accepts neither
 * JSON-LD nor JSON; the middleware adds CORS, the `Link` on problems written by other error
 * handlers (Hono's default one), and the 406 in place of API responses built elsewhere. Other
 * routes of the app it is mounted in keep their responses as they are. Applied twice (the
 * generated app's and the app's own), it acts once.
 *
 * @example
 * Custom collections served without the generated app:
 * ```ts
 * const app = new Hono()
 *   .use(hydraHeaders({ cors: ['https://admin.example.com'] }))
 *   .get('/genres', hydraCollection({ context: '/contexts/Genre' }, listGenres))
 * ```
 */
export function hydraHeaders(options: HydraHeadersOptions = {}): MiddlewareHandler {
  const headers: MiddlewareHandler = async function hydraHeaders(c, next) {
    const { type, link } = apiState(c)
    await next()
    // The API's responses were built with their type and Link. Left: errors written by another
    // error handler (Hono's default one) get the Link too, and a refusal replaces the response.
    if (type !== undefined) {
      if (
        c.res.status >= 400 &&
        isApiResponse(c.res) &&
        !c.res.headers.get('Link')?.includes(link)
      ) {
        const response = withApiHeaders(c, c.res)
        if (response !== c.res) c.res = response
      }
      return
    }
    if (!isApiResponse(c.res)) return
    await c.res.body?.cancel()
    c.res = refusalProblem(c, options.hydraPrefix)
  }
  const allowCors =
    options.cors === undefined
      ? undefined
      : cors({
          origin: options.cors,
          allowMethods: ['GET', 'HEAD', 'OPTIONS'],
          // ETag: a browser client revalidates what it read (If-None-Match) and writes conditionally.
          exposeHeaders: ['Link', 'Content-Type', 'ETag'],
        })
  // A request whose state is decided (by another `hydraHeaders`, which decides first) is left alone.
  if (!allowCors) {
    return function hydraApi(c, next) {
      return hasApiState(c) ? next() : headers(c, next)
    }
  }
  return function hydraApiWithCors(c, next) {
    return hasApiState(c)
      ? next()
      : allowCors(c, async () => {
          await headers(c, next)
        })
  }
}
