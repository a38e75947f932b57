/**
 * @module
 * What the app's own code reads rows with: a source given by hand (`serveSource`) its
 * {@link RowSelection}, a custom data provider and a custom collection's handler their
 * {@link ProviderQuery}; the request's filters and order in Prisma's `where` and `orderBy`, as the
 * `prisma` engine's writer writes them (data/prisma7/where.ts), the language that code is typed in.
 */

import type { OrderEntry } from '../../contract/order.js'
import type { PropertySelection } from '../../filters/properties.js'
import type { FilterCondition } from '../../filters/spec.js'

/**
 * Where rows come from for one request, as a source given by hand (`serveSource`) reads them:
 * its filters as Prisma's `where`, the client's order as an `orderBy`; absent: the operation's.
 */
export interface RowSelection<Where = Record<string, unknown>, OrderBy = Record<string, unknown>> {
  /** The rows' condition: the filters. */
  where?: Where | undefined
  /** The client's order, as Prisma's `orderBy`. */
  orderBy?: OrderBy[] | undefined
  /** `orderBy` reversed, for pages read backward. */
  reverse?: OrderBy[] | undefined
  /** The properties the request selects and the relations it embeds; absent: every property. */
  properties?: PropertySelection | undefined
  /** The model's columns the rows need not hold (hydra/member-shape.ts); absent: none. */
  omitted?: ReadonlySet<string> | undefined
}

/** What a custom data provider receives besides the paging request: the parsed query, typed. */
export interface ProviderQuery<Where = Record<string, unknown>, OrderBy = Record<string, unknown>> {
  /**
   * The conditions the request asks for (all of them hold), their values read as the fields' types.
   */
  filters: FilterCondition[]
  /** The client's order (primary key last), empty when none was asked for. */
  order: OrderEntry[]
  /** The filters as the generated query's `where`; undefined without filters. */
  where: Where | undefined
  /** The client's order as the generated query's `orderBy`; undefined: the operation's own. */
  orderBy: OrderBy[] | undefined
}
