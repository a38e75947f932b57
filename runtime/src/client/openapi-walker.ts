/**
 * @module
 * A walker from openapi-fetch: a call of the client for the first page (`client.GET` with its
 * path and parameters), typed by the document openapi-typescript generated for it.
 */
import type { Answer } from './answer.js'
import type { MemberOf, OpenApiDocument } from './members-of.js'
import { createWalker, type HydraWalker, type WalkerOptions } from './walker.js'

/** What openapi-fetch's methods resolve to: the document, or the error, and the response. */
export interface OpenApiResult {
  /** The document of a success. */
  readonly data?: unknown
  /** The parsed body of a failure. */
  readonly error?: unknown
  /** The response. */
  readonly response: Response
}

/**
 * A walker over the collection `call` answers: `call` sends the first request with openapi-fetch
 * (`(init) => client.GET('/books', { ...init, params })`: it passes the walk's `signal` on); the
 * other pages follow the links the server wrote, through `options.fetch` with `options.headers`
 * (give those given `createClient`). Members are typed as openapi-typescript typed the answer.
 *
 * @example
 * ```ts
 * const client = createClient<paths>({ baseUrl: 'http://localhost:3000' })
 * const activities = openApiWalker((init) => client.GET('/activities', init))
 * for await (const page of activities.pages()) console.log(page.members.length)
 * ```
 */
export function openApiWalker<R extends OpenApiResult>(
  call: (init: { signal?: AbortSignal }) => Promise<R>,
  options: WalkerOptions = {}
): HydraWalker<MemberOf<OpenApiDocument<R>>, OpenApiDocument<R>> {
  return createWalker(async (signal): Promise<Answer> => {
    const { data, error, response } = await call(signal ? { signal } : {})
    const { ok, status, headers, url } = response
    return { ok, status, headers, url, body: ok ? data : error }
  }, options)
}
