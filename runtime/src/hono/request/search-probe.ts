/**
 * @module
 * A search probe: a GET of a collection that asks its route what its caller may filter, order by
 * and select, and reads no row. The route answers, once the caller's guards have let it through,
 * the `hydra:search` block the caller's entry page would hold (the same operation variant writes
 * both: hydra/prepared-operation.ts) and the properties the caller may select. Only the MCP
 * endpoint sends one (hono/app/mcp-route.ts), for `list_collections` and `search`: a probe is a
 * `Request` object it marks, which no HTTP client can send. A sub-collection's is answered
 * whatever its parent: a parent the caller may not see is a `404` of the reads themselves.
 */
import type { Context } from 'hono'
import { propertyVariables } from '../../filters/variables.js'
import type { OperationVariant } from '../../hydra/prepared-operation.js'

/** The requests marked as probes. */
const probes = new WeakSet<Request>()

/** `request`, marked as a search probe. */
export function markSearchProbe(request: Request): Request {
  probes.add(request)
  return request
}

/** Whether the request of `c` is a search probe. */
export const isSearchProbe = (c: Context): boolean => probes.has(c.req.raw)

/** What a probe is answered: the caller's `hydra:search`, and its selectable properties. */
export interface SearchProbeAnswer {
  /** The `hydra:search` block of the caller's entry page; `null` for a collection without one. */
  search: Record<string, unknown> | null
  /** By property filter parameter (`properties[]`, `properties[author][]`), the names it takes. */
  properties: Record<string, readonly string[]>
}

/**
 * The answer to a probe of the collection at `path`, read with `variant`, the operation as the
 * caller may use it. Its body is no document of the operation, only the MCP endpoint reads it,
 * so it is typed as whatever the route answers.
 */
export function searchProbeAnswer<R>(
  c: Context,
  variant: Pick<OperationVariant<unknown, boolean>, 'operation' | 'search'>,
  path: string
): R {
  const properties: Record<string, readonly string[]> = {}
  for (const { variable, names } of propertyVariables(variant.operation.query))
    properties[variable] = names
  const answer: SearchProbeAnswer = { search: variant.search(path) ?? null, properties }
  return c.json(answer) as R
}
