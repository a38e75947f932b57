import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { type ErrorStatusCode, statusTitle } from './error-kinds.js'
import { type HydraTerm, hydraTerm } from './terms.js'

/** The rel of a `Link` to the context a JSON document (here `application/problem+json`) has. */
export const JSON_LD_CONTEXT_REL = 'http://www.w3.org/ns/json-ld#context'

/**
 * The problem+json body of an error, in the reference's JSON-LD shape: with the `hydra:` prefix,
 * `@type` is `hydra:Error` and `hydra:title` / `hydra:description` carry the title and message;
 * without it (`P` false), `Error`, `title` and `description` (docs/errors.md).
 *
 * @example
 * What `new HydraError(422, 'The loan is already returned.')` answers, thrown by an app's route
 * under an API mounted at `/api`:
 * ```json
 * {
 *   "@context": "/api/contexts/Error", "@id": "/api/errors/422", "@type": "hydra:Error",
 *   "type": "/api/errors/422", "title": "Unprocessable Content",
 *   "detail": "The loan is already returned.", "status": 422,
 *   "hydra:title": "Unprocessable Content", "hydra:description": "The loan is already returned."
 * }
 * ```
 */
export type HydraErrorBody<P extends boolean = true> = {
  /** The JSON-LD context of errors, `<mount path>/contexts/Error`. */
  '@context': string
  /** The error document of its status, `<mount path>/errors/<status>`: the kind of error. */
  '@id': string
  /** `hydra:Error` (`Error` without the prefix). */
  '@type': HydraTerm<'Error', P>
  /** The same IRI as `@id`, as RFC 9457 names a problem's type. */
  type: string
  /** The status's title: its reason phrase ("An error occurred" for 400 and unregistered ones). */
  title: string
  /** What went wrong this time: the message the error was created with. */
  detail: string
  /** The HTTP status of the response. */
  status: number
} & (P extends false
  ? {
      /** The `detail` again, as Hydra's `description`. */
      description: string
    }
  : {
      /** The `title` again, as Hydra's `hydra:title`. */
      'hydra:title': string
      /** The `detail` again, as Hydra's `hydra:description`. */
      'hydra:description': string
    })

/** The style of a problem body: the mount path it is written under and the `hydra:` prefix. */
export interface ErrorOptions {
  /** The path prefix the app is mounted under ('' at the root). */
  base?: string | undefined
  /** Whether Hydra keys carry the `hydra:` prefix. Default true. */
  hydraPrefix?: boolean | undefined
}

/** How a `HydraError` is written: its style, its cause and extra headers. */
export interface HydraErrorOptions extends ErrorOptions {
  /** The error this one reports. */
  cause?: unknown
  /** Headers added to its problem response (the API's `Link` and `Vary`). */
  headers?: Readonly<Record<string, string>> | undefined
}

export const PROBLEM_JSON = 'application/problem+json; charset=utf-8'

export function errorBody(
  status: number,
  detail: string,
  options: ErrorOptions = {}
): HydraErrorBody<boolean> {
  const { base = '', hydraPrefix = true } = options
  const title = statusTitle(status)
  const body = {
    '@context': `${base}/contexts/Error`,
    '@id': `${base}/errors/${status}`,
    '@type': hydraTerm('Error', hydraPrefix),
    type: `${base}/errors/${status}`,
    title,
    detail,
    status,
  }
  return hydraPrefix
    ? { ...body, 'hydra:title': title, 'hydra:description': detail }
    : { ...body, description: detail }
}

/** The `Link` every problem carries: the JSON-LD context of Hydra's error vocabulary. */
const ERROR_LINK = '<http://www.w3.org/ns/hydra/error>; rel="http://www.w3.org/ns/json-ld#error"'

export interface ProblemOptions extends ErrorOptions {
  /** Headers added after the problem's own (the API's `Link` and `Vary`). */
  headers?: Iterable<readonly [string, string]> | undefined
}

/**
 * The problem+json response of an error: the one place where a problem document becomes a
 * `Response`, for routes, error handlers, not-found handlers and refusals alike.
 */
export function problemResponse(
  status: ContentfulStatusCode,
  detail: string,
  options: ProblemOptions = {}
): Response {
  const headers = new Headers([
    ['Content-Type', PROBLEM_JSON],
    ['Link', ERROR_LINK],
  ])
  for (const [name, value] of options.headers ?? []) headers.append(name, value)
  return new Response(JSON.stringify(errorBody(status, detail, options)), { status, headers })
}

/**
 * An error a client caused (a bad parameter, a missing item). Thrown anywhere in a request; the
 * runtime's error handler, or Hono's default one, turns it into its problem+json response, which
 * is built only then.
 *
 * Its status is one of HTTP's client and server errors as Hono lists them ({@link ErrorStatusCode}:
 * 400 to 418, 421 to 426, 428, 429, 431, 451, 500 to 508, 510 and 511); the type refuses any other.
 * Each has its error document, `/errors/<status>`, which the API serves. The response is
 * `application/problem+json` with a {@link HydraErrorBody} and a `Link` to Hydra's error context
 * (docs/errors.md#hydraerror).
 *
 * @example
 * A route of the app's own answering 404 as the API does:
 * ```ts
 * import { HydraError, hydraErrorHandler } from '@prisma-hydra/runtime'
 * import { Hono } from 'hono'
 *
 * const shelves = new Map([['a', 12], ['b', 0]])
 * const app = new Hono().get('/shelves/:name', (c) => {
 *   const books = shelves.get(c.req.param('name'))
 *   if (books === undefined) throw new HydraError(404, `No shelf is named "${c.req.param('name')}".`)
 *   return c.json({ books })
 * })
 * app.onError(hydraErrorHandler)
 * ```
 */
export class HydraError extends HTTPException {
  /** An error's status: one of HTTP's client and server errors, each with its error document. */
  declare readonly status: ErrorStatusCode

  /**
   * @param status - The response's status: an error status Hono lists ({@link ErrorStatusCode}).
   * @param detail - The problem's `detail` (and `hydra:description`): what went wrong, for the
   *   client to read.
   * @param options - Its style (mount path, `hydra:` prefix), its cause and extra headers; the
   *   error handler fills in the style left out.
   */
  constructor(
    status: ErrorStatusCode,
    readonly detail: string,
    options: HydraErrorOptions = {}
  ) {
    const { cause, headers, ...style } = options
    super(status, { message: detail, cause })
    this.name = 'HydraError'
    this.style = style
    this.headers = headers
  }

  /** The style it was given; an error handler fills in what is left out (mount path, prefix). */
  readonly style: ErrorOptions
  /** Headers its problem response carries besides its own (`options.headers`). */
  readonly headers: Readonly<Record<string, string>> | undefined

  /** Its problem response, in its own style or, for what it leaves out, in `defaults`. */
  problem(defaults: ErrorOptions = {}): Response {
    return problemResponse(this.status, this.detail, {
      base: this.style.base ?? defaults.base,
      hydraPrefix: this.style.hydraPrefix ?? defaults.hydraPrefix,
      headers: Object.entries(this.headers ?? {}),
    })
  }

  /** Hono's default error handler asks for this. */
  override getResponse(): Response {
    return this.problem()
  }
}

export function isHydraError(error: unknown): error is HydraError {
  return error instanceof HydraError
}

/** 400 Bad Request with the given message. */
export function badRequest(detail: string): HydraError {
  return new HydraError(400, detail)
}
