/**
 * @module
 * A walker from Hono's RPC client (`hc`): the route's `$get` and its arguments, literal, so that
 * the members are typed by the route's answer and narrowed by the `properties[]` the arguments
 * select.
 */
import { answerOf, type ResponseLike } from './answer.js'
import type { HcDocument, MemberOf } from './members-of.js'
import type { SelectedMember } from './selection.js'
import { createWalker, type HydraWalker, type WalkerOptions } from './walker.js'

/** A route's `$get` of `hc`: its arguments `A` and request options, its typed response `R`. */
type HcGet<A, R> = (args: A, options?: { init?: RequestInit }) => Promise<R>

/** What hcWalker takes besides the request: WalkerOptions, and the property filter's name. */
export interface HcWalkerOptions<N extends string> extends WalkerOptions {
  /** The property filter's parameter, when renamed (`parameterName`; default `properties`). */
  properties?: N | undefined
}

/**
 * The walkers of one route: given the first request's arguments (literal, so that their
 * `properties[]` narrow the members), its walker.
 */
export type HcWalkers<A, R, N extends string> = <const S extends A | undefined = undefined>(
  args?: S
) => HydraWalker<SelectedMember<MemberOf<HcDocument<R>>, S, N>, HcDocument<R>>

/**
 * The walkers of the collection `call` (an `hc` route's `$get`) answers: given the arguments of
 * the first request, a walker whose first page is that request, sent through `hc` with the walk's
 * signal, and whose other pages follow the links the server wrote, through `options.fetch` with
 * `options.headers` (give those given `hc`). Members are typed by the route's answer, narrowed to
 * what `properties[]` selects (SelectedMember). The arguments come in a call of their own so that
 * TypeScript reads their values, checked against the route's parameters, as written.
 *
 * @example
 * ```ts
 * const client = hc<typeof app>('http://localhost:3000')
 * const books = hcWalker(client.books.$get)({ query: { 'properties[]': ['title', 'price'] } })
 * for await (const book of books.members()) console.log(book.title, book.price)
 * ```
 */
export function hcWalker<A, R extends ResponseLike, const N extends string = 'properties'>(
  call: HcGet<A, R>,
  options: HcWalkerOptions<N> = {}
): HcWalkers<A, R, N> {
  return (args) =>
    createWalker(
      async (signal) => answerOf(await call(args as A, signal ? { init: { signal } } : {})),
      options
    )
}
