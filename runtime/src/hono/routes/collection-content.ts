/**
 * @module
 * What one request of a collection operation reads (collection-route.ts): its rows selected
 * (filters, order, cursor, properties) and read through the operation's source (its data access,
 * a source given by hand) or handed to the custom data provider that replaces it.
 */

import type { Context } from 'hono'
import { type CollectionOperation, operationName } from '../../contract/operations.js'
import type { PagingConfig } from '../../contract/paging.js'
import type { DeclaredEmbed } from '../../contract/properties.js'
import type { CallerView } from '../../data/caller-view.js'
import type { DataAccess } from '../../data/data-access.js'
import type { ParentRows } from '../../data/parent-check.js'
import { type PrismaTerms, prismaOrderBy, prismaWhere } from '../../data/prisma7/where.js'
import { type Snapshot, snapshotOf } from '../../data/snapshot.js'
import { type PlannedRows, type Selection, selectRows } from '../../filters/selection.js'
import { type MemberShape, memberShape } from '../../hydra/member-shape.js'
import type { QueryMap } from '../../iri/query-string.js'
import {
  type BoundWork,
  type CollectionContent,
  honoursCount,
  readCollection,
} from '../../paging/strategy.js'
import type { CollectionResult, CollectionSource, PagingRequest } from '../../paging/types.js'
import type { Condition } from '../../plan/condition.js'
import type { CallerOperation } from '../access/caller-operation.js'
import { noteLinkedRows, notePlanFields } from '../access/request-caller.js'
import { applyCount, askedCount, varyByPrefer } from '../request/count-preference.js'
import type { ResourceAppOptions } from './app-options.js'
import type { ProviderQuery, RowSelection } from './app-reads.js'
import type { RouteObservation } from './route-observation.js'

/**
 * A source given by hand (serveSource): one reading what the selection asks for (the filters'
 * `where`, the client's `orderBy`), or, for an operation that declares no filter and no order, a
 * plain source.
 */
export type SourceOf<Row extends object, Where> =
  | CollectionSource<Row, Where>
  | ((selection: RowSelection) => CollectionSource<Row, Where>)

/**
 * Where an operation's rows come from: the resource's data access (generated routes, which read
 * the caller first), or a source given by hand.
 */
export type RowOrigin<Row extends object, Where> =
  | { kind: 'data'; access: DataAccess<Row> }
  | { kind: 'source'; source: SourceOf<Row, Where> }

/**
 * A source given by hand for `planned`: handed the selection and the rows past a cursor position
 * as Prisma's `where` and `orderBy`, the language it is typed with.
 */
function handSource<Row extends object, Where>(
  source: SourceOf<Row, Where>,
  operation: CollectionOperation<unknown>,
  planned: PlannedRows
): CollectionSource<Row, Where> {
  const selection = handSelection(planned, { jsonNull: operation.query?.jsonNull })
  if (typeof source !== 'function' && (selection.where || selection.orderBy)) {
    throw new TypeError(
      `serveCollection: ${operation.path} declares filters or an order; pass a function from the selection to a source`
    )
  }
  const given = typeof source === 'function' ? source(selection) : source
  return {
    ...given,
    findMany: (window) =>
      given.findMany(
        window.past
          ? { ...window, where: prismaWhere({ kind: 'past', past: window.past }) as Where }
          : window
      ),
  }
}

/** The selection as a source given by hand reads it. */
function handSelection(
  { condition, order, properties, omitted }: PlannedRows,
  terms: PrismaTerms
): RowSelection {
  const where = prismaWhere(condition, terms)
  return {
    ...(where ? { where } : {}),
    ...(order ? { orderBy: prismaOrderBy(order), reverse: prismaOrderBy(order, true) } : {}),
    ...(properties ? { properties } : {}),
    ...(omitted ? { omitted } : {}),
  }
}

/** The view a data access reads with: always the caller's (read before the route reads rows). */
function callerOf(access: { view: CallerView } | undefined): CallerView {
  if (!access) throw new TypeError('A generated collection reads its caller before its rows')
  return access.view
}

/**
 * Replaces the Prisma query of a generated operation: receives the checked paging request, the
 * request's filters and order (parsed, and as the generated query's `where` and `orderBy`) and
 * `snapshot`, which reads a page and its count in one snapshot as the generated query does
 * (data/snapshot.ts), and returns rows of the model (as its generated query selects them) in any
 * form a custom handler may return. The route, the parameter checks, the members and the
 * rendering stay generated.
 */
export type CollectionProvider<
  Row,
  C extends Context = Context,
  Where = Record<string, unknown>,
  OrderBy = Record<string, unknown>,
> = (
  request: PagingRequest,
  c: C,
  query: ProviderQuery<Where, OrderBy>,
  snapshot: Snapshot
) => CollectionResult<Row> | Promise<CollectionResult<Row>>

/**
 * Custom data providers of a resource's offset-paged operations, by operation name (`Names`):
 * each replaces that operation's query (`BookProviders`).
 */
export type OperationProviders<Row, Where, OrderBy, Names extends string> = {
  [Name in Names]?: CollectionProvider<Row, Context, Where, OrderBy> | undefined
}

/**
 * Options of a generated collection route. `C`, `Where` and `OrderBy` are the provider's: the
 * generated routes give the model's Prisma types (`Prisma.BookWhereInput`).
 */
export interface ServeCollectionOptions<
  Row,
  C extends Context = Context,
  Where = Record<string, unknown>,
  OrderBy = Record<string, unknown>,
> extends ResourceAppOptions {
  /** Replaces the operation's Prisma query (offset-paged operations). */
  provider?: CollectionProvider<Row, C, Where, OrderBy> | undefined
  /**
   * The resource's providers by operation name (`BookProviders`): an offset-paged operation
   * without its own `provider` takes the one named by its `name`.
   */
  providers?: OperationProviders<Row, Where, OrderBy, string> | undefined
  /**
   * The collection's path as its IRIs write it (without the query); default: the request's path.
   * A sub-collection gives its own, built from its parent's key.
   */
  path?: string | undefined
}

/**
 * The provider of an offset-paged operation: the route's own, or the one its resource's
 * providers name by the operation's name.
 */
function providerOf<Provider>(
  options: {
    provider?: Provider | undefined
    providers?: Readonly<Record<string, Provider | undefined>> | undefined
  },
  operation: { name?: string | undefined; paging: PagingConfig }
): Provider | undefined {
  if (options.provider) return options.provider
  const { providers } = options
  if (!providers || operation.name === undefined || operation.paging.cursor) return undefined
  return Object.hasOwn(providers, operation.name) ? providers[operation.name] : undefined
}

/**
 * Marks the response as varying by `Prefer` where the client chooses the operation's totals
 * (docs/paging.md#client-totals): the generated source counts them, not a provider replacing it.
 * Called first, so that the operation's problems vary as its pages do.
 */
export function varyByCount(
  c: Context,
  origin: { kind: RowOrigin<object, unknown>['kind'] },
  options: Parameters<typeof providerOf>[0],
  operation: { name?: string | undefined; paging: PagingConfig }
): void {
  if (origin.kind === 'data' && !providerOf(options, operation)) varyByPrefer(c, operation.paging)
}

/** The names of a request's data access: its operation, engine and database. */
export function dataNames<M, Row extends object, Where, C extends Context, FilterWhere, OrderBy>(
  read: ContentRead<M, Row, Where, C, FilterWhere, OrderBy>
) {
  const { operation, origin, options } = read
  const provided = providerOf(options, operation)
  const own = origin.kind === 'data' ? origin.access.engineOf(operation) : 'source'
  return {
    resource: operation.resource.name,
    operation: operationName(operation),
    provider: operation.resource.provider,
    // A provider reads however it reads; a source given by hand is the app's own.
    engine: provided ? 'provider' : own,
  }
}

/** What one request of a collection operation is read with, besides its query. */
export interface ContentRead<
  M,
  Row extends object,
  Where,
  C extends Context,
  FilterWhere,
  OrderBy,
> {
  /** The operation as the caller may use it. */
  operation: CollectionOperation<M, boolean>
  origin: RowOrigin<Row, Where>
  options: ServeCollectionOptions<Row, C, FilterWhere, OrderBy>
  access: CallerOperation<M, boolean> | undefined
  /** A sub-collection's rows and the check of its parent. */
  within: ParentRows | undefined
  /**
   * The relations it declares embedded (filters/declared-embeds.ts): the operation's, or a
   * sub-collection's (`Book.loans`).
   */
  embedded: readonly DeclaredEmbed[] | undefined
  base: string
  work: BoundWork
  observation: RouteObservation
}

/**
 * The shape of the request's members (hydra/member-shape.ts): the request's selection, the
 * relations the operation declares embedded and the caller's view. The rows are read as the
 * members show them: the relations embedded by the page's own query, the columns no member shows
 * left unread (but the key and the keyset's fields).
 */
function shapeOf<M, Row extends object, Where, C extends Context, FilterWhere, OrderBy>(
  read: ContentRead<M, Row, Where, C, FilterWhere, OrderBy>,
  selection: Selection
): MemberShape<M> {
  const { operation } = read
  const shape = memberShape({
    resource: operation.resource,
    requested: selection.rows.properties,
    declared: read.embedded,
    hiding: read.access?.view,
    keys: [selection.cursor, selection.orderKey],
    base: read.base,
    hydraPrefix: operation.hydraPrefix !== false,
  })
  selection.rows.properties = shape.selection
  selection.rows.omitted = shape.omitted
  return shape
}

/**
 * The provider that replaces the operation's query, called with the request's filters and order
 * (as parsed, and as the `where`, within the caller's scope, and `orderBy` of its model).
 */
function providerCall<M, Row extends object, Where, C extends Context, FilterWhere, OrderBy>(
  c: C,
  read: ContentRead<M, Row, Where, C, FilterWhere, OrderBy>,
  selection: Selection,
  provider: CollectionProvider<Row, C, FilterWhere, OrderBy>
): (request: PagingRequest) => ReturnType<typeof provider> {
  const { operation, origin, access, options } = read
  const { filters, order } = selection.query
  // A provider reads within the caller's scope too.
  const where =
    origin.kind === 'data'
      ? origin.access.providerWhere(selection.rows, callerOf(access))
      : prismaWhere(selection.rows.condition, { jsonNull: operation.query?.jsonNull })
  // The selection is built from the operation's spec, which the generator wrote from the model:
  // its where and orderBy are the model's Prisma inputs the provider is typed with.
  const query = {
    filters,
    order,
    where: where as FilterWhere | undefined,
    orderBy: (selection.rows.order && prismaOrderBy(selection.rows.order)) as OrderBy[] | undefined,
  }
  const snapshot = snapshotOf(operation.resource.provider, options.timeouts)
  return (request) => provider(request, c, query, snapshot)
}

/**
 * Notes, for the page's cache tags, the fields its selection reads: its filters' and parent's
 * conditions and its order (the client's, the cursor's or the operation's, its tie-breaker
 * included), so that an update of no such field leaves it cached; and the values its filters',
 * parent's and caller's scope's equalities narrow it to, so that an insert or a delete of a row
 * holding other values leaves it cached.
 */
function noteSelection(
  c: Context,
  access: DataAccess<object>,
  operation: CollectionOperation<unknown, boolean>,
  selection: Selection,
  within: ParentRows | undefined,
  scope: Condition | undefined
): void {
  const model = operation.resource.name
  const order = [
    ...(selection.rows.order ?? []),
    ...(selection.cursor ?? []),
    ...(selection.orderKey ?? []),
    ...(operation.orderKey ?? []),
    ...(operation.order ?? []),
  ]
  const fields = new Set<string>()
  access.selectionFields(model, [selection.rows.condition, within?.condition], order, fields)
  const conditions = [selection.rows.condition, within?.condition, scope]
  notePlanFields(c, model, fields, access.selectionValues?.(model, conditions))
}

/**
 * The content of one request: its rows selected (filters, order, cursor) and read through the
 * operation's source, or handed to the provider that replaces it; with the shape of its members
 * (the request's selection, the resource's declared embeds, the caller's view), which the rows
 * were read with.
 */
export async function readContent<
  M,
  Row extends object,
  Where,
  C extends Context,
  FilterWhere,
  OrderBy,
>(
  c: C,
  query: QueryMap,
  read: ContentRead<M, Row, Where, C, FilterWhere, OrderBy>
): Promise<{ content: CollectionContent<Row>; shape: MemberShape<M> }> {
  const { operation, origin, access, options } = read
  const { resource, paging } = operation
  // `operation` is the declared one, or a variant of it ({ ...operation, query }): same name.
  const provider = providerOf(options, operation)
  const literalSearch = !provider
  const selection = selectRows(
    query,
    operation,
    read.base,
    resource.provider,
    literalSearch,
    access?.scopeOf
  )
  const shape = shapeOf(read, selection)
  // A client's totals (`Prefer: count=…`) are the generated source's to count, not a provider's.
  const count = origin.kind === 'data' && !provider ? askedCount(c, paging) : undefined
  const reading = <W>(source: CollectionSource<Row, W>) =>
    readCollection(query, {
      source,
      paging,
      orderKey: selection.orderKey,
      cursor: selection.cursor,
      filterOperators: selection.filterOperators,
      provider: provider && providerCall(c, read, selection, provider),
      batchSize: options.batchSize,
      database: resource.provider,
      work: read.work,
      count,
    })
  if (origin.kind === 'source') {
    const rows = handSource(origin.source, operation, selection.rows)
    return { content: await reading(rows), shape }
  }
  const { within, observation } = read
  if (!provider) noteSelection(c, origin.access, operation, selection, within, access?.view.scope)
  // Its members' links to rows holding their keys are written from those rows (a provider's too).
  noteLinkedRows(c, origin.access.linkedRows?.(operation.resource.links) ?? [])
  const rows = origin.access.source(
    operation,
    selection.rows,
    callerOf(access),
    within,
    observation.timing,
    count
  )
  const content = await reading(rows)
  // A stream's rows are read as it is written, after its status: its parent is read before.
  if (!content.page && within) await read.work(() => within.parent.confirm())
  if (count !== undefined && honoursCount(content, count)) applyCount(c, count)
  return { content, shape }
}
