import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

const TITLES: Partial<Record<number, string>> = {
  400: 'An error occurred',
  404: 'Not Found',
  406: 'Not Acceptable',
  500: 'Internal Server Error',
}

/** The problem+json body of an error, in the reference's JSON-LD shape (with the `hydra:` prefix). */
export interface HydraErrorBody {
  '@context': string
  '@id': string
  '@type': 'hydra:Error'
  type: string
  title: string
  detail: string
  status: number
  'hydra:title': string
  'hydra:description': string
}

export const PROBLEM_JSON = 'application/problem+json; charset=utf-8'

export function errorBody(status: number, detail: string, base = ''): HydraErrorBody {
  const title = TITLES[status] ?? 'An error occurred'
  return {
    '@context': `${base}/contexts/Error`,
    '@id': `${base}/errors/${status}`,
    '@type': 'hydra:Error',
    type: `${base}/errors/${status}`,
    title,
    detail,
    status,
    'hydra:title': title,
    'hydra:description': detail,
  }
}

export function problemResponse(status: ContentfulStatusCode, detail: string, base = ''): Response {
  return new Response(JSON.stringify(errorBody(status, detail, base)), {
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
    readonly detail: string
  ) {
    super(status, { message: detail, res: problemResponse(status, detail) })
    this.name = 'HydraError'
  }
}

export function isHydraError(error: unknown): error is HydraError {
  return error instanceof HydraError
}

/** 400 Bad Request with the given message. */
export function badRequest(detail: string): HydraError {
  return new HydraError(400, detail)
}
