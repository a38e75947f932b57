/**
 * @module
 * The page source of one request of a generated resource: its rows within the caller's scope and
 * the request's filters, in its order, read by the engine its operation takes, with the relations
 * it embeds and without the columns it does not show, and its totals as the operation counts them.
 */
import type { ModelSource } from '../contract/model-source.js'
import type { ReadOperation } from '../contract/operations.js'
import type { OrderField } from '../contract/order.js'
import type { CountPreference } from '../contract/paging.js'
import { dialectOf } from '../database/dialects.js'
import type { PlannedRows } from '../filters/selection.js'
import type { HydraLogger } from '../observe/logger.js'
import type { ServerTiming } from '../observe/server-timing.js'
import {
  CountCache,
  countKey,
  EXACT_BELOW,
  estimatedTotal,
  HeldEstimate,
  type PageAndTotal,
  pageAndLooseTotal,
  type TotalAccuracy,
} from '../paging/totals.js'
import type { CollectionSource, RowWindow } from '../paging/types.js'
import { allOf, type Condition } from '../plan/condition.js'
import { modelShape, type ReadShape } from '../plan/read-shape.js'
import type { ModelEngines } from './back-end.js'
import type { CallerView } from './caller-view.js'
import { type Embedding, embeddingOf } from './embedded-scope.js'
import type { FindManyArgs, ModelReads, TransactionOptions } from './model-reads.js'
import type { ParentRead, ParentRows } from './parent-check.js'
import { pageWithEmbeds } from './prisma7/page-snapshot.js'
import type { ReadRouting, ReadRun } from './read-routing.js'
import { type CountStore, SharedCountCache } from './shared-totals.js'

/**
 * The rows of `operation` a request selects (its filters' condition, its client order) within the
 * caller's view, and within a sub-collection's parent; counted as the client asked (`count`, a
 * `Prefer: count=…` its operation honours) or else as the operation counts.
 */
export type PageSource = (
  operation: ReadOperation,
  selection: PlannedRows,
  view: CallerView,
  within?: ParentRows | undefined,
  timing?: ServerTiming | undefined,
  count?: CountPreference | undefined
) => CollectionSource<object>

/**
 * The page sources of one resource's requests (DataAccess's `source`). Cached counts live as long
 * as the resource's data access.
 */
export function pageSources(
  model: ModelSource,
  routing: ReadRouting<ModelEngines>,
  transaction: TransactionOptions,
  options: SharedTotalsOptions
): PageSource {
  const cacheOf = countCaches(model, options)
  const estimate = new HeldEstimate()
  return (operation, selection, view, within, timing, count) => {
    const own = operation.order ?? NO_ORDER
    // The caller's scope joins the request's filters here, before anything is read or counted:
    // the page, every count (a cached count's key) and every cursor position are of visible rows.
    const condition = allOf([view.scope, within?.condition, selection.condition])
    // Every read of the request on one database, by the engine this request's condition takes.
    const pinned = routing.pin()
    const on: ReadRun<ModelReads> = (read) =>
      pinned((engines: ModelEngines) => read(engines.readsOf(operation, condition)))
    const order = selection.order ?? own
    // Embedded to-one relations are read by the page's own statement (a join, Prisma's nested
    // select); the columns the request does not show are not, on either engine.
    const embedding = embeddingOf(model, selection.properties, view, transaction, timing?.handoff)
    const shape = shapeOf(model, embedding, selection.omitted)
    const argsOf = ({ backward, past, skip, take }: RowWindow): FindManyArgs => ({
      order: backward ? reversed(order) : order,
      ...(condition ? { condition } : {}),
      ...(past ? { past } : {}),
      ...(skip === undefined ? {} : { skip }),
      ...(take === undefined ? {} : { take }),
      ...(shape ? { shape } : {}),
      ...(embedding?.shown ? { shown: embedding.shown } : {}),
      ...(timing ? { handoff: timing.handoff } : {}),
    })
    const totals = { cacheOf, estimate: () => estimate.get(() => on((reads) => reads.estimate())) }
    const loose = looseTotals(model, operation, { condition, count }, totals, timing)
    const reading = { argsOf, condition, parent: within?.parent }
    return sourceOf<object>(on, reading, loose, transaction, embedding)
  }
}

/**
 * What a page reads of each row: its embedding's shape without the `omitted` columns, or the
 * model's without them; undefined for the model's own (every column, no relation).
 */
function shapeOf(
  model: ModelSource,
  embedding: Embedding | undefined,
  omitted: ReadonlySet<string> | undefined
): ReadShape | undefined {
  if (!omitted) return embedding?.shape
  const { fields, joined } = embedding?.shape ?? modelShape(model.select)
  return {
    fields: fields.filter((name) => !omitted.has(name)),
    joined: joined.filter(({ relation }) => !omitted.has(relation)),
  }
}

const NO_ORDER: readonly OrderField[] = []

/**
 * Each order reversed, for the pages read backward: computed once per order (an operation's is
 * one array for all its requests, as many as the resource has orders however operations are
 * made), which the engines' writers then write once too.
 */
const reversals = new WeakMap<readonly OrderField[], readonly OrderField[]>()
function reversed(order: readonly OrderField[]): readonly OrderField[] {
  let reverse = reversals.get(order)
  if (!reverse) {
    reverse = order.map(({ field, direction }) => ({
      field,
      direction: direction === 'asc' ? ('desc' as const) : ('asc' as const),
    }))
    reversals.set(order, reverse)
  }
  return reverse
}

/** How `cached` totals are shared (DataAccessOptions), and the models a count's condition reads. */
export interface SharedTotalsOptions {
  totalsStore?: CountStore | undefined
  logger?: HydraLogger | undefined
  /** The models a condition of this resource reads (data/read-models.ts). */
  countReads: (condition: Condition | undefined) => readonly string[]
}

/** The cached total of a condition, counted by `count` when no count is held. */
type CachedTotal = (
  condition: Condition | undefined,
  count: () => PromiseLike<number>
) => Promise<{ value: number; accuracy: TotalAccuracy }>

type CacheOf = (operation: ReadOperation, seconds: number) => CachedTotal

/**
 * The cached totals of each `cached` operation, shared through `options.totalsStore` when one is
 * given (its outages logged through `options.logger`), with the models each count reads.
 */
function countCaches(model: ModelSource, options: SharedTotalsOptions): CacheOf {
  const { totalsStore: store, logger, countReads } = options
  // By the operation's path, which its variants share (a caller's, a sub-collection's): their
  // counts are told apart by their condition (countKey), as the shared store tells them apart.
  const caches = new Map<string, CachedTotal>()
  return (operation, seconds) => {
    const path = operation.path ?? ''
    let cache = caches.get(path)
    if (!cache) {
      if (store) {
        const names = { model: model.delegate, operation: path }
        const shared = new SharedCountCache(store, names, seconds, logger)
        cache = (condition, count) =>
          shared.get(countKey(condition), count, () => countReads(condition))
      } else {
        const local = new CountCache({ seconds })
        cache = (condition, count) => local.get(countKey(condition), count)
      }
      caches.set(path, cache)
    }
    return cache
  }
}

/**
 * How a request's page and total are read when its totals are not exact: `cached` and
 * `estimated` totals of the operation, or the `estimated` and `planned` a client asked for
 * (`request.count`, which replaces the operation's), read beside the page; undefined for the page
 * and an exact count in one transaction. A count read here is the request's `count` timing.
 */
function looseTotals(
  model: ModelSource,
  operation: ReadOperation,
  request: { condition: Condition | undefined; count: CountPreference | undefined },
  { cacheOf, estimate }: { cacheOf: CacheOf; estimate: () => Promise<number | undefined> },
  timing: ServerTiming | undefined
): LooseTotals {
  const { condition, count: asked } = request
  const totals = asked === undefined ? (operation.totals ?? { mode: 'exact' }) : { mode: asked }
  return (page, counted) => {
    const count = timing ? () => timing.measure('count', counted()) : counted
    if (totals.mode === 'cached') {
      const cached = cacheOf(operation, totals.seconds)
      return pageAndLooseTotal(
        { page, total: () => cached(condition, count), exact: count },
        page.window
      )
    }
    // The estimate is of the whole table: a filtered or scoped collection is counted.
    const estimated = totals.mode === 'estimated' || totals.mode === 'planned'
    if (estimated && !condition && dialectOf(model.provider).estimateSql) {
      const below = totals.mode === 'planned' ? 0 : EXACT_BELOW
      return pageAndLooseTotal(
        { page, total: () => estimatedTotal(estimate, count, below), exact: count },
        page.window
      )
    }
    return undefined
  }
}

/** A page read with one row more, for totals that are not read with the page. */
type LoosePage = ((take: number) => PromiseLike<object[]>) & {
  window: { skip: number; take: number }
}

type LooseTotals = (
  page: LoosePage,
  count: () => Promise<number>
) => Promise<PageAndTotal<object>> | undefined

/** What one request reads: its windows' arguments, its rows' condition, a sub-collection's parent. */
interface Reading {
  argsOf: (window: RowWindow) => FindManyArgs
  condition: Condition | undefined
  parent: ParentRead | undefined
}

/**
 * The CollectionSource of one request: `loose` answers a page and its total when the operation's
 * totals are not exact (undefined: the page and an exact count in one transaction). A
 * sub-collection's parent is read with the page and its count where they are read together, and
 * before any other read of its rows.
 */
function sourceOf<Row extends object>(
  on: ReadRun<ModelReads>,
  { argsOf, condition, parent }: Reading,
  loose: LooseTotals,
  transaction: { isolationLevel: string; maxWait: number; timeout: number },
  embedding: Embedding | undefined
): CollectionSource<Row> {
  const ownCount = () => on((reads) => reads.count(condition))
  const ownRead = (window: RowWindow) =>
    on((reads) => reads.findMany(argsOf(window)) as PromiseLike<Row[]>)
  // A sub-collection's parent first; other collections' reads go straight to the engine.
  const count = parent ? () => parent.confirm().then(ownCount) : ownCount
  const read = parent
    ? (window: RowWindow) => parent.confirm().then(() => ownRead(window))
    : ownRead
  const findMany = embedding
    ? async (window: RowWindow) => embedding.restrict(await read(window), on)
    : read
  return {
    findMany,
    count,
    findManyAndCount(window) {
      const page = Object.assign((take: number) => findMany({ ...window, take }), { window })
      // What the embeds read after the page is read in its snapshot (prisma7/page-snapshot.ts).
      const both = (): Promise<PageAndTotal<object>> =>
        on((reads) => {
          const read = { args: argsOf(window), counted: condition, beside: parent }
          return embedding
            ? pageWithEmbeds(reads, read, transaction, embedding)
            : reads.findManyAndCount(read.args, condition, transaction, parent)
        })
      const answer = loose(page, count) ?? both()
      return answer as Promise<PageAndTotal<Row>>
    },
  }
}
