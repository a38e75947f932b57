/**
 * @module
 * What Hono's RPC client (`hc`) reads from a route's types: the problems a route answers beside
 * its document (typed by status, so `if (!response.ok)` gives the problem), the query parameters
 * it declares (generated per operation from the same parameters as the OpenAPI document,
 * docs/openapi.md), and the members as the app's access rules let a caller receive them.
 */
import type { Env, TypedResponse } from 'hono'
import type { HonoBase } from 'hono/hono-base'
import type { Schema } from 'hono/types'
import type { HydraErrorBody } from '../../errors.js'
import type { CallerMember } from '../../hydra/caller-member.js'

/** A problem+json answer of one of the statuses `S`, in the style `P` of the route. */
export type ProblemResponse<P extends boolean, S extends number> = Response &
  TypedResponse<HydraErrorBody<P>, S & (400 | 401 | 403 | 404 | 406 | 500 | 503), 'json'>

/**
 * The problems of a guard (docs/security.md): the caller must authenticate (401) or may not use
 * the operation (403). Every generated route may answer them: guards are rules the app gives at
 * run time, which a route's type cannot know.
 */
export type GuardProblems = 401 | 403
/** The problems of a collection: a refused parameter, no acceptable type, a fault, an outage. */
export type CollectionProblems = 400 | 406 | 500 | 503
/** The problems of an item: no such item, no acceptable type, a fault, an outage. */
export type ItemProblems = 404 | 406 | 500 | 503
/** The problems of a sub-collection: a collection's, and no such parent. */
export type SubCollectionProblems = CollectionProblems | 404

/**
 * A route's answers with their documents (a page, an item, a problem) as a caller may receive
 * them: a page's members, an item and what either embeds by the rules of their own types.
 */
type CallerEndpoint<R, A> = R extends {
  /** The route's document. */
  output: unknown
}
  ? { [K in keyof R]: K extends 'output' ? CallerMember<R[K], A> : R[K] }
  : R

/** The routes of an app's schema `S` with their documents as a caller may receive them. */
type CallerSchema<S extends Schema, A> = {
  [Path in keyof S]: { [Method in keyof S[Path]]: CallerEndpoint<S[Path][Method], A> }
}

/**
 * A generated app's type as `hc` reads it under the access rules `A` (the type of the app's
 * `access`): in every member and item of a type, the fields its `hidden` rule may hide are
 * optional (docs/security.md#rules-in-types).
 */
export type CallerApp<App, A> =
  App extends HonoBase<
    infer E extends Env,
    infer S extends Schema,
    infer B extends string,
    infer P extends string
  >
    ? HonoBase<E, CallerSchema<S, A> extends infer T extends Schema ? T : S, B, P>
    : App

/**
 * The input of a route whose query parameters are `Q` (what `hc` lets a client send): the
 * route reads them itself, as text, so its validated output is the raw query. `H` is the headers
 * it reads besides (`{ prefer?: 'count=exact' | 'count=none' }` where clients may ask for totals):
 * `undefined` where it reads none a client chooses.
 *
 * @example
 * ```ts
 * // An operation with `clientTotals: ["exact", "none"]`: `hc` types the preference.
 * await client.readings.counted.$get({ header: { prefer: 'count=none' } })
 * ```
 */
export interface QueryInput<Q, H = undefined> {
  /** Optional as a whole: every parameter is, so `$get()` needs no argument. */
  in: {
    /** The query parameters a client sends. */
    query?: Q
  } & (H extends undefined
    ? unknown
    : {
        /** The headers a client may send to choose what the route answers. */
        header?: H
      })
  /** What the route reads. */
  out: {
    /** The raw query: each parameter's text, or texts when repeated. */
    query: Record<string, string | string[]>
  }
}
