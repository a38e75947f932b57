/**
 * @module
 * The types a walker reads from a client's answer: the document of a successful answer (`hc`'s
 * `ClientResponse` whose `ok` is true, openapi-fetch's `data`) and its members (`hydra:member`,
 * or `member` without the prefix).
 */

/** The document of `hc`'s successful responses among `R`. @hidden */
export type HcDocument<R> = R extends {
  /** A success. */
  ok: true
  /** The document. */
  json(): Promise<infer B>
}
  ? B
  : never

/** The document of openapi-fetch's successful results among `R`. @hidden */
export type OpenApiDocument<R> = R extends {
  /** The document. */
  data: infer B
}
  ? Exclude<B, undefined>
  : never

/** The members of a collection's document `B`, with or without the `hydra:` prefix. */
export type MemberOf<B> = B extends {
  /** The members, with the prefix. */
  'hydra:member': readonly (infer M)[]
}
  ? M
  : B extends {
        /** The members, without the prefix. */
        member: readonly (infer M)[]
      }
    ? M
    : never
