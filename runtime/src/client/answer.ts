/**
 * @module
 * One request of a walk and its answer, read: the first request through the client that made it
 * (`hc`, openapi-fetch), each link through `fetch`, retried while a `503` or `429` asks to wait.
 */
import { HydraProblemError } from './problem-error.js'
import {
  DEFAULT_MAX_RETRY_AFTER,
  DEFAULT_RETRIES,
  type RetryOptions,
  retryDelay,
  wait,
} from './retry-after.js'

/** An answer, its body parsed (JSON when it is, else its text). */
export interface Answer {
  /** Whether the status is a success. */
  readonly ok: boolean
  /** The HTTP status. */
  readonly status: number
  /** The response's headers. */
  readonly headers: Headers
  /** The URL that answered, absolute. */
  readonly url: string
  /** The body. */
  readonly body: unknown
}

/** Sends one request, under the walk's signal. */
export type Send = (signal: AbortSignal | undefined) => Promise<Answer>

/** How a walker sends the requests of the links it follows. */
export interface FollowOptions {
  /** The fetch to follow links with (default the global one): give the one the client uses. */
  fetch?: typeof fetch | undefined
  /** Headers sent with every link followed (an `Authorization`): give those the client sends. */
  headers?: HeadersInit | undefined
}

/** The parts of a `Response` (or of `hc`'s `ClientResponse`) an answer reads. */
export interface ResponseLike {
  /** Whether the status is a success. */
  readonly ok: boolean
  /** The HTTP status. */
  readonly status: number
  /** The response's headers. */
  readonly headers: Headers
  /** The URL that answered. */
  readonly url: string
  /** The body as text. */
  text(): Promise<string>
}

/** The answer of a response, its body read. */
export async function answerOf(response: ResponseLike): Promise<Answer> {
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON (a proxy's page): the text stands as the body.
  }
  const { ok, status, headers, url } = response
  return { ok, status, headers, url, body }
}

/** The request of a link: a GET of its absolute URL asking for JSON-LD, with the headers given. */
export function follow(url: string, options: FollowOptions): Send {
  const fetchLink = options.fetch ?? globalThis.fetch
  return async (signal) => {
    const headers = new Headers(options.headers)
    if (!headers.has('Accept')) headers.set('Accept', 'application/ld+json')
    return answerOf(await fetchLink(url, { headers, ...(signal ? { signal } : {}) }))
  }
}

/**
 * The successful answer of `send`: a `503` or `429` with `Retry-After` is sent again after the
 * wait it asks, at most `retries` times; any other failure, or one past the retries, throws its
 * HydraProblemError. The signal aborts the request and the wait.
 */
export async function sendWithRetries(
  send: Send,
  signal: AbortSignal | undefined,
  options: RetryOptions
): Promise<Answer> {
  const retries = options.retries ?? DEFAULT_RETRIES
  const maxSeconds = options.maxRetryAfter ?? DEFAULT_MAX_RETRY_AFTER
  for (let attempt = 0; ; attempt += 1) {
    signal?.throwIfAborted()
    const answer = await send(signal)
    if (answer.ok) return answer
    const delay =
      attempt < retries
        ? retryDelay(answer.status, answer.headers.get('Retry-After'), maxSeconds)
        : undefined
    if (delay === undefined) throw new HydraProblemError(answer.status, answer.url, answer.body)
    await wait(delay, signal)
  }
}
