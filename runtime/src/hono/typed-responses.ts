/**
 * @module
 * What Hono's RPC client (`hc`) reads from a route's types: the problems a route answers beside
 * its document (typed by status, so `if (!response.ok)` gives the problem), and the query
 * parameters it declares (generated per operation from the same parameters as the OpenAPI
 * document, docs/openapi.md).
 */
import type { TypedResponse } from 'hono'
import type { HydraErrorBody } from '../errors.js'

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
 * The input of a route whose query parameters are `Q` (what `hc` lets a client send): the
 * route reads them itself, as text, so its validated output is the raw query.
 */
export interface QueryInput<Q> {
  /** Optional as a whole: every parameter is, so `$get()` needs no argument. */
  in: { query?: Q }
  out: { query: Record<string, string | string[]> }
}
