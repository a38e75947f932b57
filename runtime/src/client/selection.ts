/**
 * @module
 * The member a request's property filter selects (docs/member-shape.md), as a type: from the
 * literal arguments of the request, `properties[]` and `properties[<relation>][]` (or the
 * parameter's own name), the member keeps its `@id`, `@type` and the properties named, and a
 * relation named with fields is the embedded item, its fields typed as the shaped member (the
 * generated `BookShapedMember`, or the member schema of the OpenAPI document) types them. A
 * property selected is in every member of a successful answer (one a rule hides from the caller
 * is a `400`), so it is required; its value keeps its type (`null` where it may be).
 */

/** One object type, flattened for readable hovers. @hidden */
type Flat<T> = { [K in keyof T]: T[K] }

/** The query of a request's arguments (`{ query }` of `hc`, `{ params: { query } }` of openapi-fetch). @hidden */
type QueryOf<A> = A extends { query?: infer Q }
  ? Q
  : A extends { params?: { query?: infer Q } }
    ? Q
    : undefined

/**
 * The values a query gives the list parameter `K`, as a union; never when it gives none. Only a
 * parameter the query surely holds counts: an optional one (the route's own query type, which
 * openapi-fetch infers when a call gives no parameters) selects nothing.
 *
 * @hidden
 */
type Listed<Q, K extends string> = Q extends { [P in K]: readonly (infer V)[] }
  ? V extends string
    ? V
    : never
  : never

/** The relations the query embeds: each `N[<relation>][]` it surely gives. @hidden */
type Embeds<Q, N extends string> = {
  [K in keyof Q]-?: K extends `${N}[${infer R}][]`
    ? [Listed<Q, K>] extends [never]
      ? never
      : R
    : never
}[keyof Q]

/**
 * An embedded item whose type is not known (no shaped member given): its `@id`, `@type` and the
 * fields asked, each `unknown`.
 */
export type SelectedEmbed<F extends string> = Flat<
  {
    /** The related item's IRI. */
    '@id': string
    /** The related type's name. */
    '@type': string
  } & { [K in F]: unknown }
>

/** The embedded item `O` (an object type of the shaped member) with the fields `F`. @hidden */
type EmbeddedFields<O, F extends string> = O extends object
  ? Flat<Pick<O, ('@id' | '@type') & keyof O> & Required<Pick<O, F & keyof O>>>
  : never

/**
 * The relation `R` embedded with the fields `F`: the item `S` (the shaped member) gives, with those
 * fields, or SelectedEmbed when `S` gives none.
 *
 * @hidden
 */
type EmbeddedAs<S, R extends string, F extends string> = [
  Exclude<
    S extends unknown ? (R extends keyof S ? S[R] : never) : never,
    string | null | undefined
  >,
] extends [infer O]
  ? [O] extends [never]
    ? SelectedEmbed<F>
    : EmbeddedFields<O, F>
  : never

/** The properties `Q` selects by `N[]`, the relations it embeds apart. @hidden */
type Picked<Q, N extends string> = Exclude<Listed<Q, `${N}[]`>, Embeds<Q, N>>

/** The member `M` as the query `Q` selects it, each embedded item typed by `S`. @hidden */
type NarrowedMember<M, Q, N extends string, S> = Flat<
  Pick<M, ('@id' | '@type') & keyof M> &
    Required<Pick<M, Picked<Q, N> & keyof M>> & {
      [R in Embeds<Q, N> & keyof M]:
        | Extract<M[R], null>
        // Its IRI where the caller's rules keep the related row from the caller: a client cannot
        // know the server's rules, so it tells the two apart (docs/security.md).
        | string
        | EmbeddedAs<S, R & string, Listed<Q, `${N}[${R & string}][]`>>
    }
>

/**
 * The member `M` as a request with the arguments `A` gets it, the property filter's parameter
 * being `N` (default `properties`): `M` itself when the request selects nothing; else its `@id`,
 * `@type` and the properties selected, each embedded relation its item with the fields asked, or
 * its IRI (a string) where the caller's rules keep the related row from the caller, or `null`
 * where `M`'s relation may be empty. The embedded items' fields are typed as the shaped
 * member `S` types them (default `M`: the member schema of an OpenAPI document is shaped; `hc`'s
 * routes answer whole members, so give the generated `BookShapedMember`), `unknown` when it does
 * not embed the relation.
 *
 * @example
 * ```ts
 * type Priced = SelectedMember<BookMember, { query: { 'properties[]': ['title', 'price'] } }>
 * // { '@id': string; '@type': 'Book'; title: string; price: string }
 * type ByAuthor = SelectedMember<
 *   BookMember,
 *   { query: { 'properties[]': ['title']; 'properties[author][]': ['name'] } },
 *   'properties',
 *   BookShapedMember
 * >
 * // { '@id': string; '@type': 'Book'; title: string; author: string | { '@id': string; '@type': 'Author'; name: string } }
 * ```
 */
export type SelectedMember<M, A, N extends string = 'properties', S = M> = [
  Listed<QueryOf<A>, `${N}[]`> | Embeds<QueryOf<A>, N>,
] extends [never]
  ? M
  : NarrowedMember<M, QueryOf<A>, N, S>
