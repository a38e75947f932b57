/**
 * @module
 * The member a request's property filter selects (docs/member-shape.md), as a type: from the
 * literal arguments of the request, `properties[]` and `properties[<relation>][]` (or the
 * parameter's own name), the member keeps its `@id`, `@type` and the properties named, and a
 * relation named with fields is the embedded item. The values keep the member's types (a field a
 * rule may hide stays optional).
 */

/** One object type, flattened for readable hovers. @hidden */
type Flat<T> = { [K in keyof T]: T[K] }

/** The query of a request's arguments (`{ query }` of `hc`, `{ params: { query } }` of openapi-fetch). @hidden */
type QueryOf<A> = A extends { query?: infer Q }
  ? Q
  : A extends { params?: { query?: infer Q } }
    ? Q
    : undefined

/** The values a query gives the list parameter `K`, as a union; never when it gives none. @hidden */
type Listed<Q, K extends string> = Q extends { [P in K]?: readonly (infer V)[] | undefined }
  ? V extends string
    ? V
    : never
  : never

/** The relations the query embeds: each `N[<relation>][]` it gives. @hidden */
type Embeds<Q, N extends string> = {
  [K in keyof Q]: K extends `${N}[${infer R}][]` ? R : never
}[keyof Q]

/**
 * An embedded item (docs/member-shape.md): its `@id`, `@type` and the fields asked, each `unknown`
 * (the related type is not known from the member's), or absent when a rule hides it.
 */
export type SelectedEmbed<F extends string> = Flat<
  {
    /** The related item's IRI. */
    '@id': string
    /** The related type's name. */
    '@type': string
  } & { [K in F]?: unknown }
>

/**
 * The member `M` as a request with the arguments `A` gets it, the property filter's parameter
 * being `N` (default `properties`): `M` itself when the request selects nothing; else its `@id`,
 * `@type` and the properties selected, each embedded relation its item (or `null` where `M`'s
 * relation may be empty).
 *
 * @example
 * ```ts
 * type Priced = SelectedMember<BookMember, { query: { 'properties[]': ['title', 'price'] } }>
 * // { '@id': string; '@type': 'Book'; title: string; price: string }
 * ```
 */
export type SelectedMember<M, A, N extends string = 'properties'> = [
  Listed<QueryOf<A>, `${N}[]`> | Embeds<QueryOf<A>, N>,
] extends [never]
  ? M
  : Flat<
      Pick<
        M,
        ('@id' | '@type' | Exclude<Listed<QueryOf<A>, `${N}[]`>, Embeds<QueryOf<A>, N>>) & keyof M
      > & {
        [R in Embeds<QueryOf<A>, N> & keyof M]:
          | Extract<M[R], null>
          | SelectedEmbed<Listed<QueryOf<A>, `${N}[${R & string}][]`>>
      }
    >
