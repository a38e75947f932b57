import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { type HydraTerm, hydraTerm } from './terms.js'

const TITLES: Partial<Record<number, string>> = {
  400: 'An error occurred',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  412: 'Precondition Failed',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

/** The title of a problem of `status`, as the reference writes it ("An error occurred" for most). */
export function statusTitle(status: number): string {
  return TITLES[status] ?? 'An error occurred'
}

/** What each kind of error the API answers means: the document at its `@id` (`/errors/404`). */
const DESCRIPTIONS: Partial<Record<number, string>> = {
  400: 'A parameter of the request was refused; the detail of the answer names it and says why.',
  401: 'The resource is read by authenticated callers only: the WWW-Authenticate header says how.',
  403: 'The caller is known and may not read the resource.',
  404: 'No resource is at the IRI asked for: no route matches it, or no item has its key.',
  406: 'The request accepts neither application/ld+json nor application/json.',
  408: 'The request did not arrive within the time the server waits for it.',
  412: 'An If-Match of the request names no current representation: it changed since it was read.',
  414: 'The request target (path and query string) is longer than the server reads.',
  431: 'The request head (request line and headers) is larger than the server reads.',
  500: 'The server could not complete the request; the cause is logged, not told.',
}

/** The kinds of error the API answers, by status: the errors whose `@id` resolves. */
export function errorKind(status: number): { title: string; description: string } | undefined {
  const title = TITLES[status]
  const description = DESCRIPTIONS[status]
  return title && description ? { title, description } : undefined
}

/** The rel of a `Link` to the context a JSON document (here `application/problem+json`) has. */
export const JSON_LD_CONTEXT_REL = 'http://www.w3.org/ns/json-ld#context'

/**
 * The problem+json body of an error, in the reference's JSON-LD shape: with the `hydra:` prefix,
 * `@type` is `hydra:Error` and `hydra:title` / `hydra:description` carry the title and message;
 * without it (`P` false), `Error`, `title` and `description`.
 */
export type HydraErrorBody<P extends boolean = true> = {
  '@context': string
  '@id': string
  '@type': HydraTerm<'Error', P>
  type: string
  title: string
  detail: string
  status: number
} & (P extends false
  ? { description: string }
  : { 'hydra:title': string; 'hydra:description': string })

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
 */
export class HydraError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
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
