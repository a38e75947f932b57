/**
 * @module
 * The seam between the plan and the back ends: one model's reads in the plan's terms (conditions,
 * a keyset position, an order, a window, a read shape), which each back end answers in its own
 * language. Nothing here names a query language.
 */

import type { OrderField } from '../contract/order.js'
import type { Condition } from '../plan/condition.js'
import type { KeysetPast } from '../plan/keyset-position.js'
import type { ReadShape } from '../plan/read-shape.js'
import type { HandoffCause, KeyedRead, RowBeside } from './keyed-read.js'

/** One read of a page's rows, as the plan says it. */
export interface FindManyArgs {
  /** The rows' condition: the caller's scope, the request's filters, a sub-collection's parent. */
  condition?: Condition | undefined
  /** Cursor pages and unpaged batches: the rows past a position (not counted). */
  past?: KeysetPast | undefined
  /** The order the rows are read in (reversed already for pages read backward). */
  order: readonly OrderField[]
  skip?: number | undefined
  take?: number | undefined
  /** The fields read, with embedded to-one relations (filters/properties.ts); absent: the model's. */
  shape?: ReadShape | undefined
  /**
   * The rows' fields shown on some rows only, by field (data/shown-fields.ts): an engine that
   * reads the conditions with the rows (`marksShown`) marks each row; the others' rows are checked
   * after them.
   */
  shown?: ReadonlyMap<string, Condition> | undefined
  /**
   * Told by the compiled engine when it hands this read to the `prisma` engine, with the cause
   * (the request's `Server-Timing`, data/compiled/handoffs.ts). Not the client's.
   */
  handoff?: ((cause: HandoffCause) => void) | undefined
}

/** The options of the page-and-count transaction. */
export interface TransactionOptions {
  isolationLevel: string
  maxWait: number
  timeout: number
}

/**
 * The reads of one model, as every back end answers them: the `prisma` engine through a Prisma 7
 * client (prisma7/engine.ts), the `compiled` one as SQL (compiled/engine.ts). A read may be lazy
 * (it runs when awaited), as the Prisma 7 client's are.
 */
export interface ModelReads {
  findMany(args: FindManyArgs): PromiseLike<object[]>
  /** Rows `condition` selects (every row without it). */
  count(condition: Condition | undefined): Promise<number>
  /**
   * A page and the count of `condition`, in one transaction: one snapshot; with `beside` (a
   * sub-collection's parent), that row too, told to it before the page is answered.
   */
  findManyAndCount(
    args: FindManyArgs,
    condition: Condition | undefined,
    options: TransactionOptions,
    beside?: RowBeside | undefined
  ): Promise<[object[], number]>
  /** The table's planner row estimate; undefined when unknown or not kept by the database. */
  estimate(): Promise<number | undefined>
  /** The row `read` asks for, with the model's columns (or the fields of its `shape`). */
  findUnique(read: KeyedRead): PromiseLike<object | null>
  /**
   * The rows of the model `delegate` names that `condition` selects, with the fields of `shape`;
   * `handoff` is told when the compiled engine hands the read to the `prisma` engine.
   */
  findManyOf(
    delegate: string,
    condition: Condition,
    shape: ReadShape,
    handoff?: ((cause: HandoffCause) => void) | undefined
  ): PromiseLike<object[]>
  /**
   * Several reads of rows (each of the model its `delegate` names, in its `orderBy` and at most its
   * `take` of them when given) in one transaction: one connection, one snapshot. `handoff` is told
   * when the compiled engine hands them to the `prisma` engine (the request's `Server-Timing`).
   */
  findManyEach(
    reads: readonly RowsRead[],
    options: TransactionOptions,
    handoff?: ((cause: HandoffCause) => void) | undefined
  ): Promise<object[][]>
  /** `read` with this engine's reads over one transaction of its client: one snapshot. */
  inSnapshot<T>(read: (reads: ModelReads) => Promise<T>, options: TransactionOptions): Promise<T>
  /** Whether a page's first pages may be read after it, not in its transaction (prisma7/page-snapshot.ts). */
  readonly pagesAfter?: boolean | undefined
  /**
   * Whether its reads of the model's rows mark the fields a row does not show (FindManyArgs'
   * `shown`) in their own statement, so that no later read need share their snapshot.
   */
  readonly marksShown?: boolean | undefined
}

/** One read of {@link ModelReads.findManyEach}. */
export interface RowsRead {
  delegate: string
  condition: Condition
  shape: ReadShape
  order?: readonly OrderField[] | undefined
  take?: number | undefined
  /**
   * At most `take` rows for each of `values` of the order's first field, where the engine limits
   * each value's rows apart (the compiled engine's `UNION ALL`, compiled/sql.ts `eachOf`); Prisma's
   * reads cannot, and read up to the read's own `take`. Either way, the rows answered for a value
   * begin with the same ones, in the order.
   */
  each?: { values: readonly unknown[]; take: number } | undefined
}
