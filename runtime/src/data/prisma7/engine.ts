/**
 * @module
 * The `prisma` engine of the data-access layer: every read goes through the
 * application's own Prisma Client instance (`findMany` with skip/take, `findUnique`, `count`,
 * `$transaction`), so what users put on their client (`$extends` query hooks, logging, tracing)
 * applies to it. The only SQL it writes itself is a table's plain count and its row estimate,
 * both fixed per model (dialects.ts says why).
 */

import type { ModelSource } from '../../contract/model-source.js'
import type { OrderField } from '../../contract/order.js'
import { countSql, dialectOf, qualifiedTable } from '../../database/dialects.js'
import { allOf, type Condition } from '../../plan/condition.js'
import type { FindManyArgs, ModelReads, TransactionOptions } from '../model-reads.js'
import { snapshotOver } from './page-snapshot.js'
import {
  type PrismaSelect,
  type PrismaTerms,
  type PrismaWhere,
  prismaOrderBy,
  prismaSelect,
  prismaWhere,
} from './where.js'

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
): ModelReads {
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
  const reads: ModelReads = {
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
