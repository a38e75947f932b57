/**
 * @module
 * The `prisma` engine of the data-access layer: every read goes through the
 * application's own Prisma Client instance (`findMany` with skip/take, `findUnique`, `count`,
 * `$transaction`), so what users put on their client (`$extends` query hooks, logging, tracing)
 * applies to it. The only SQL it writes itself is a table's plain count and its row estimate,
 * both fixed per model (dialects.ts says why).
 */

import type { ModelSource } from '../contract/model-source.js'
import type { OrderField } from '../contract/order.js'
import { countSql, dialectOf, qualifiedTable } from '../database/dialects.js'
import { allOf, type Condition } from '../plan/condition.js'
import type { KeysetPast } from '../plan/keyset-position.js'
import type { ReadShape } from '../plan/read-shape.js'
import type { HandoffCause, KeyedRead, RowBeside } from './keyed-read.js'
import { snapshotOver } from './page-snapshot.js'
import {
  type PrismaSelect,
  type PrismaTerms,
  type PrismaWhere,
  prismaOrderBy,
  prismaSelect,
  prismaWhere,
} from './prisma-where.js'

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
   * (the request's `Server-Timing`, data/compiled-handoffs.ts). Not the client's.
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
 * A query of the client, as Prisma returns it: lazy (it runs when awaited) and usable inside a
 * batch `$transaction`.
 */
type ClientQuery<T> = PromiseLike<T>

/** What the engine calls on a model's delegate (`prisma.book`). */
interface DelegateLike {
  findMany(args: ClientFindManyArgs): ClientQuery<object[]>
  findUnique(args: { where: PrismaWhere; select: PrismaSelect }): ClientQuery<object | null>
  count(args: { where: PrismaWhere }): ClientQuery<number>
}

/** What the engine calls on the client itself. */
interface ClientLike {
  $transaction(queries: ClientQuery<unknown>[], options: TransactionOptions): Promise<unknown[]>
  $queryRawUnsafe<T>(sql: string, ...values: unknown[]): ClientQuery<T>
  $executeRawUnsafe(sql: string): ClientQuery<number>
}

/** The row of a plain count: drivers give a bigint, a number or a string. */
interface CountRow {
  total: bigint | number | string
}

/** The count a plain count statement returned. */
export const countOf = (rows: readonly CountRow[]): number => Number(rows[0]?.total ?? 0)

/** The reads of one model through a Prisma client. */
export interface PrismaModelReads {
  findMany(args: FindManyArgs): ClientQuery<object[]>
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
  findUnique(read: KeyedRead): ClientQuery<object | null>
  /**
   * The rows of the model `delegate` names that `condition` selects, with the fields of `shape`;
   * `handoff` is told when the compiled engine hands the read to the `prisma` engine.
   */
  findManyOf(
    delegate: string,
    condition: Condition,
    shape: ReadShape,
    handoff?: ((cause: HandoffCause) => void) | undefined
  ): ClientQuery<object[]>
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
  inSnapshot<T>(
    read: (reads: PrismaModelReads) => Promise<T>,
    options: TransactionOptions
  ): Promise<T>
  /** Whether a page's first pages may be read after it, not in its transaction (page-snapshot.ts). */
  readonly pagesAfter?: boolean | undefined
  /**
   * Whether its reads of the model's rows mark the fields a row does not show (FindManyArgs'
   * `shown`) in their own statement, so that no later read need share their snapshot.
   */
  readonly marksShown?: boolean | undefined
}

/** One read of {@link PrismaModelReads.findManyEach}. */
export interface RowsRead {
  delegate: string
  condition: Condition
  shape: ReadShape
  order?: readonly OrderField[] | undefined
  take?: number | undefined
  /**
   * At most `take` rows for each of `values` of the order's first field, where the engine limits
   * each value's rows apart (the compiled engine's `UNION ALL`, compiled-sql.ts `eachOf`); Prisma's
   * reads cannot, and read up to the read's own `take`. Either way, the rows answered for a value
   * begin with the same ones, in the order.
   */
  each?: { values: readonly unknown[]; take: number } | undefined
}

/** The arguments of the client's `findMany`. */
interface ClientFindManyArgs {
  where: PrismaWhere
  orderBy: readonly PrismaWhere[]
  select: PrismaSelect
  skip?: number | undefined
  take?: number | undefined
}

/**
 * Each order's `orderBy`, written once: an operation's order is one array for all its requests
 * (data/page-source.ts), and a client's is written once for its request.
 */
const orderBys = new WeakMap<readonly OrderField[], readonly PrismaWhere[]>()
const orderByOf = (order: readonly OrderField[]): readonly PrismaWhere[] => {
  let written = orderBys.get(order)
  if (!written) {
    written = prismaOrderBy(order)
    orderBys.set(order, written)
  }
  return written
}

/** `findMany`'s arguments of a read: its condition and position as one `where`. */
function clientArgs(
  args: FindManyArgs,
  select: PrismaSelect,
  terms: PrismaTerms
): ClientFindManyArgs {
  const { condition, past, order, skip, take } = args
  const where =
    prismaWhere(past ? allOf([condition, { kind: 'past', past }]) : condition, terms) ?? {}
  return {
    where,
    orderBy: orderByOf(order),
    select: args.shape ? prismaSelect(args.shape) : select,
    ...(skip === undefined ? {} : { skip }),
    ...(take === undefined ? {} : { take }),
  }
}

/** A table's planner row estimate read by `sql`; undefined without one, or never analyzed. */
async function plannerEstimate(
  client: ClientLike,
  sql: string | undefined,
  table: string
): Promise<number | undefined> {
  if (!sql) return undefined
  const [row] = await client.$queryRawUnsafe<{ estimate: number | null }[]>(sql, table)
  const value = row?.estimate ?? -1
  // -1: never analyzed.
  return value < 0 ? undefined : value
}

/**
 * The engine over `prisma`, the application's client (typed by its generated module). Delegates
 * are reached by name: the layer is written once for every model, as Prisma's own extensions
 * reach them (`Prisma.getExtensionContext`); the generator names only delegates that exist.
 */
export function prismaReads(
  prisma: object,
  model: ModelSource,
  { replica = false }: { replica?: boolean } = {}
): PrismaModelReads {
  const client = prisma as ClientLike
  const delegateOf = (name: string) => (prisma as Record<string, unknown>)[name] as DelegateLike
  const delegate = delegateOf(model.delegate)
  const { select } = model
  const terms: PrismaTerms = { jsonNull: model.jsonNull }
  const pageArgs = (args: FindManyArgs) => clientArgs(args, select, terms)
  const countAllSql = countSql(model.provider, model.table)
  const countQuery = (condition: Condition | undefined): ClientQuery<number | CountRow[]> => {
    const where = prismaWhere(condition, terms)
    return where ? delegate.count({ where }) : client.$queryRawUnsafe<CountRow[]>(countAllSql)
  }
  const counted = (value: number | CountRow[]) =>
    typeof value === 'number' ? value : countOf(value)
  const { estimateSql, readOnlySql } = dialectOf(model.provider)
  // On a replica, the page-and-count transaction is read only where the database can say so.
  // (A client query runs once: a new one for each transaction.)
  const openingOf = (): ClientQuery<unknown>[] =>
    replica && readOnlySql ? [client.$executeRawUnsafe(readOnlySql)] : []
  const table = qualifiedTable(model.provider, model.table)
  const reads: PrismaModelReads = {
    findMany: (args) => delegate.findMany(pageArgs(args)),
    count: async (condition) => counted(await countQuery(condition)),
    async findManyAndCount(args, condition, options, beside) {
      const opening = openingOf()
      // The parent first, in the same batch: one call of the client, one snapshot.
      const lead = beside ? [reads.findUnique(beside)] : []
      const answers = await client.$transaction(
        [...opening, ...lead, delegate.findMany(pageArgs(args)), countQuery(condition)],
        options
      )
      const [rows, total] = answers.slice(opening.length + lead.length)
      beside?.found(answers[opening.length] as object | null)
      return [rows as object[], counted(total as number | CountRow[])]
    },
    estimate: () => plannerEstimate(client, estimateSql, table),
    // Prisma's unique where takes other conditions beside the key (`AND`): one query either way.
    findUnique: ({ delegate: name, key, value, scope, shape }) => {
      const where = prismaWhere(scope, terms)
      return delegateOf(name).findUnique({
        where: where ? { [key.name]: value, AND: [where] } : { [key.name]: value },
        select: shape ? prismaSelect(shape) : select,
      })
    },
    findManyOf: (name, condition, shape) =>
      delegateOf(name).findMany({
        where: prismaWhere(condition, terms) ?? {},
        select: prismaSelect(shape),
        orderBy: [],
      }),
    async findManyEach(reads, options) {
      if (reads.length === 0) return []
      const opening = openingOf()
      const queries = reads.map(({ delegate: name, condition, shape, order, take }) =>
        delegateOf(name).findMany({
          where: prismaWhere(condition, terms) ?? {},
          select: prismaSelect(shape),
          orderBy: order ? orderByOf(order) : [],
          ...(take === undefined ? {} : { take }),
        })
      )
      // One statement is one snapshot by itself: no transaction's statements around it.
      const [only] = queries
      if (only && queries.length === 1 && opening.length === 0) return [(await only) as object[]]
      const answers = await client.$transaction([...opening, ...queries], options)
      return answers.slice(opening.length) as object[][]
    },
    inSnapshot: (read, options) => inSnapshot(read, options),
  }
  const opening = replica ? readOnlySql : undefined
  const inSnapshot = snapshotOver(prisma, (tx) => prismaReads(tx, model), reads, opening)
  return reads
}
