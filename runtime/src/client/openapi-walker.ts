/**
 * @module
 * A walker from openapi-fetch: a call of the client for the first page (`client.GET` with its
 * path and parameters), typed by the document openapi-typescript generated for it; or the
 * client's `GET` itself, given the path and parameters of the first page, whose `properties[]`
 * then narrow the members.
 */
import type { Answer } from './answer.js'
import type { MemberOf, OpenApiDocument } from './members-of.js'
import type { SelectedMember } from './selection.js'
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
  return createWalker(
    async (signal) => answerOfResult(await call(signal ? { signal } : {})),
    options
  )
}

/** The answer of an openapi-fetch result: the document of a success, else the error's body. */
function answerOfResult({ data, error, response }: OpenApiResult): Answer {
  const { ok, status, headers, url } = response
  return { ok, status, headers, url, body: ok ? data : error }
}

/** What openApiWalkers takes besides the method: WalkerOptions, and the property filter's name. */
export interface OpenApiWalkerOptions<N extends string> extends WalkerOptions {
  /** The property filter's parameter, when renamed (`parameterName`; default `properties`). */
  properties?: N | undefined
}

/**
 * The walkers of openapi-fetch's method `get` (a client's `GET`): given the first request's path
 * and parameters, as `get` takes them (checked by openapi-fetch against the document), a walker
 * whose first page is that request, sent with the walk's signal, and whose other pages follow the
 * links the server wrote, through `options.fetch` with `options.headers` (give those given
 * `createClient`). Members are typed as openapi-typescript typed the answer, narrowed to what the
 * literal `properties[]` and `properties[<relation>][]` of the parameters select (SelectedMember:
 * the document's member schema gives an embedded relation's fields their types).
 *
 * @example
 * ```ts
 * const client = createClient<paths>({ baseUrl: 'http://localhost:3000' })
 * const books = openApiWalkers(client.GET)('/books', {
 *   params: { query: { 'properties[]': ['title'], 'properties[author][]': ['name'] } },
 * })
 * for await (const book of books.members())
 *   console.log(book.title, typeof book.author === 'string' ? book.author : book.author.name)
 * ```
 */
export function openApiWalkers<
  P extends [url: string, ...init: unknown[]],
  R extends OpenApiResult,
  const N extends string = 'properties',
>(
  get: (...args: P) => Promise<R>,
  options?: OpenApiWalkerOptions<N>
): (
  ...args: P
) => HydraWalker<SelectedMember<MemberOf<OpenApiDocument<R>>, P[1], N>, OpenApiDocument<R>>
/*
 * What the walkers do with `get`, whatever the document types: a path and the parameters given
 * (an object, or none), sent with the walk's signal in one object, as openapi-fetch reads both.
 */
export function openApiWalkers(
  get: (url: string, init: { signal?: AbortSignal }) => Promise<OpenApiResult>,
  options: OpenApiWalkerOptions<string> = {}
): (url: string, init?: object) => HydraWalker<unknown, unknown> {
  return (url, init) =>
    createWalker(
      async (signal) => answerOfResult(await get(url, { ...init, ...(signal ? { signal } : {}) })),
      options
    )
}
