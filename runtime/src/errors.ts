import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { type HydraTerm, hydraTerm } from './hydra/terms.js'

const TITLES: Partial<Record<number, string>> = {
  400: 'An error occurred',
  404: 'Not Found',
  406: 'Not Acceptable',
  500: 'Internal Server Error',
}

/** What each kind of error the API answers means: the document at its `@id` (`/errors/404`). */
const DESCRIPTIONS: Partial<Record<number, string>> = {
  400: 'A parameter of the request was refused; the detail of the answer names it and says why.',
  404: 'No resource is at the IRI asked for: no route matches it, or no item has its key.',
  406: 'The request accepts neither application/ld+json nor application/json.',
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

export interface ErrorOptions {
  /** The path prefix the app is mounted under ('' at the root). */
  base?: string | undefined
  /** Whether Hydra keys carry the `hydra:` prefix. Default true. */
  hydraPrefix?: boolean | undefined
}

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
  const title = TITLES[status] ?? 'An error occurred'
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

export function problemResponse(
  status: ContentfulStatusCode,
  detail: string,
  options: ErrorOptions = {}
): Response {
  return new Response(JSON.stringify(errorBody(status, detail, options)), {
    status,
    headers: {
      'Content-Type': PROBLEM_JSON,
      Link: '<http://www.w3.org/ns/hydra/error>; rel="http://www.w3.org/ns/json-ld#error"',
    },
  })
}

/**
 * An error a client caused (a bad parameter, a missing item). Thrown anywhere in a request; Hono's
 * default error handler (or the generated app's) turns it into its problem+json response.
 */
export class HydraError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    readonly detail: string,
    options: HydraErrorOptions = {}
  ) {
    const { cause, headers, ...style } = options
    super(status, {
      message: detail,
      res: withHeaders(problemResponse(status, detail, style), headers),
      cause,
    })
    this.name = 'HydraError'
    this.style = style
    this.headers = headers
  }

  /** The style it was given; an error handler fills in what is left out (mount path, prefix). */
  readonly style: ErrorOptions
  readonly headers: Readonly<Record<string, string>> | undefined
}

function withHeaders(response: Response, headers: Readonly<Record<string, string>> | undefined) {
  for (const [name, value] of Object.entries(headers ?? {})) response.headers.append(name, value)
  return response
}

export function isHydraError(error: unknown): error is HydraError {
  return error instanceof HydraError
}

/** 400 Bad Request with the given message. */
export function badRequest(detail: string): HydraError {
  return new HydraError(400, detail)
}
