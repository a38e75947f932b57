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
 * `properties[]` narrow the members), its walker; `shaped<BookShapedMember>()`, the same walkers
 * typing the fields of the relations a request embeds (`properties[author][]`) as the generated
 * shaped member `S` types them (SelectedMember; without it, `unknown`).
 */
export interface HcWalkers<A, R, N extends string, S = MemberOf<HcDocument<R>>> {
  /** The walker whose first page the request with `args` answers. */
  <const Q extends A | undefined = undefined>(
    args?: Q
  ): HydraWalker<SelectedMember<MemberOf<HcDocument<R>>, Q, N, S>, HcDocument<R>>
  /**
   * These walkers, the items their requests embed typed by the resource's shaped member `T` (the
   * generated `BookShapedMember`, of the same type as the members).
   */
  shaped<
    T extends {
      /** The members' type. */
      '@type': MembersType<R>
    },
  >(): HcWalkers<A, R, N, T>
}

/** The `@type` of the members of `hc`'s response `R`. @hidden */
type MembersType<R> =
  MemberOf<HcDocument<R>> extends {
    /** The members' type. */
    '@type': infer Name
  }
    ? Name
    : never

/**
 * The walkers of the collection `call` (an `hc` route's `$get`) answers: given the arguments of
 * the first request, a walker whose first page is that request, sent through `hc` with the walk's
 * signal, and whose other pages follow the links the server wrote, through `options.fetch` with
 * `options.headers` (give those given `hc`). Members are typed by the route's answer, narrowed to
 * what `properties[]` selects (SelectedMember); an embedded relation's fields are typed once the
 * resource's shaped member is given (`.shaped<BookShapedMember>()`). The arguments come in a call
 * of their own so that TypeScript reads their values, checked against the route's parameters, as
 * written.
 *
 * @example
 * ```ts
 * const client = hc<typeof app>('http://localhost:3000')
 * const books = hcWalker(client.books.$get)({ query: { 'properties[]': ['title', 'price'] } })
 * for await (const book of books.members()) console.log(book.title, book.price)
 * const withAuthors = hcWalker(client.books.$get).shaped<BookShapedMember>()({
 *   query: { 'properties[]': ['title'], 'properties[author][]': ['name'] },
 * })
 * for await (const book of withAuthors.members()) {
 *   // The author embedded (its `name` a string), or its IRI where the caller's rules hide it
 *   console.log(typeof book.author === 'string' ? book.author : book.author.name)
 * }
 * ```
 */
export function hcWalker<A, R extends ResponseLike, const N extends string = 'properties'>(
  call: HcGet<A, R>,
  options: HcWalkerOptions<N> = {}
): HcWalkers<A, R, N> {
  return walkersOf(call, options)
}

/** hcWalker's walkers, their embedded items typed by `S`. */
function walkersOf<A, R extends ResponseLike, N extends string, S>(
  call: HcGet<A, R>,
  options: HcWalkerOptions<N>
): HcWalkers<A, R, N, S> {
  const walk = <const Q extends A | undefined = undefined>(
    args?: Q
  ): HydraWalker<SelectedMember<MemberOf<HcDocument<R>>, Q, N, S>, HcDocument<R>> =>
    createWalker(
      async (signal) => answerOf(await call(args as A, signal ? { init: { signal } } : {})),
      options
    )
  return Object.assign(walk, { shaped: <T>() => walkersOf<A, R, N, T>(call, options) })
}
