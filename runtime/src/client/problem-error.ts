/**
 * @module
 * The error a walker throws for an answer that is no page: the API's problem+json document
 * (docs/errors.md) as it was sent, its status and the URL asked.
 */
import type { HydraErrorBody } from '../errors.js'

/** A problem document as the API writes it, with or without the `hydra:` prefix. */
export type ClientProblem = HydraErrorBody<boolean>

/** Whether a parsed body has the fields every problem of the API carries. */
function isProblem(body: unknown): body is ClientProblem {
  if (typeof body !== 'object' || body === null) return false
  const { title, detail, status } = body as Record<string, unknown>
  return typeof title === 'string' && typeof detail === 'string' && typeof status === 'number'
}

/**
 * An answer other than a page: a `4xx` or `5xx` (a `503` once its retries are spent). `problem`
 * is the API's problem+json document; it is undefined when something else answered (a proxy's
 * HTML page), whose text is then the message.
 *
 * @example
 * ```ts
 * try {
 *   for await (const book of books.members()) console.log(book.title)
 * } catch (error) {
 *   if (error instanceof HydraProblemError) console.log(error.status, error.problem?.detail)
 * }
 * ```
 */
export class HydraProblemError extends Error {
  /** The response's HTTP status. */
  readonly status: number
  /** The URL that answered. */
  readonly url: string
  /** The problem+json document, when the API wrote one. */
  readonly problem: ClientProblem | undefined

  constructor(status: number, url: string, body: unknown) {
    const problem = isProblem(body) ? body : undefined
    const text = typeof body === 'string' ? body.slice(0, 200) : ''
    super(`${status} from ${url}: ${problem?.detail ?? (text || 'no problem document')}`)
    this.name = 'HydraProblemError'
    this.status = status
    this.url = url
    this.problem = problem
  }
}
