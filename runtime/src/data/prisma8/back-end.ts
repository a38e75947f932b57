/**
 * @module
 * The Prisma 8 back end: a Prisma 8 client (`postgres<Contract>(...)` of
 * `@prisma/orm-postgres/runtime`) read by the `compiled` engine alone, its statements run through
 * the client's runtime (sql-runner.ts). Prisma 8 has no engine of Prisma 7's kind to hand a read
 * to: an operation the compiled engine cannot read is refused when its route is made (BackEnd's
 * `handoffs`), and a read only a request reveals (a caller's scope through a relation the compiled
 * form does not hold) is answered 501, never read another way. One database: no replicas yet.
 */

import type { ModelSource } from '../../contract/model-source.js'
import { dialectOf, qualifiedTable } from '../../database/dialects.js'
import { HydraError } from '../../errors.js'
import { type BackEnd, type BackEndOptions, backEnd, type ModelEngines } from '../back-end.js'
import { compiledReads } from '../compiled/engine.js'
import type { SqlRunner } from '../compiled/sql-runner.js'
import type { ModelReads } from '../model-reads.js'
import { readRouting } from '../read-routing.js'
import type { RelationTargets } from '../written-models.js'
import { type Prisma8Client, prisma8Runner } from './sql-runner.js'

/** What the back end reads of the client's contract (`db.contract`): each model's relations. */
interface ContractRelations {
  /** The contract's models, by namespace. */
  readonly domain: {
    /** Each namespace's models. */
    readonly namespaces: Readonly<
      Record<
        string,
        {
          /** Each model's relations, by field. */
          readonly models: Readonly<
            Record<
              string,
              {
                /** The model's relations, by field. */
                readonly relations?: Readonly<Record<string, RelationTo>>
              }
            >
          >
        }
      >
    >
  }
}
/** A relation of the contract: the model it leads to. */
interface RelationTo {
  /** The related model. */
  readonly to: {
    /** Its name. */
    readonly model: string
  }
}

/** The Prisma 8 client the back end reads: its runtime, transactions and contract. */
export interface Prisma8BackEndClient extends Prisma8Client {
  /** The client's contract (`db.contract`): each model's relations. */
  readonly contract: ContractRelations
}

/** The answer to a read the compiled engine cannot write on Prisma 8. */
const notServed = (): never => {
  throw new HydraError(
    501,
    'This read cannot be served on Prisma 8 yet: the compiled engine cannot write it, and Prisma 8 has no other engine here.'
  )
}

/**
 * The back end of the Prisma 8 client `db`, for `createDataAccess` (the routes generated for
 * Prisma 8 make it): a value of its own, read by the runtime alone.
 */
export function prisma8BackEnd(db: Prisma8BackEndClient): object {
  return prisma8Reads(db)
}

/** The back end of `db`, as the data layer reads it. */
function prisma8Reads(db: Prisma8BackEndClient): BackEnd {
  return backEnd('prisma8', {
    targets(model, options) {
      const runner = prisma8Runner(db, options.tracing)
      const unserved = unservedReads(model, runner)
      const readsOn = (on: SqlRunner, inSnapshot: ModelReads['inSnapshot']) => {
        const reads = compiledReads(unserved, model, on, inSnapshot)
        if (!reads)
          throw new TypeError(
            `${model.delegate} has no compiled form: the prisma8 back end reads through the compiled engine alone (generate its routes again)`
          )
        return reads
      }
      // Reads that share a snapshot: one transaction of the client, its statements on it.
      const inSnapshot: ModelReads['inSnapshot'] = (read, transaction) =>
        runner.within(transaction.isolationLevel, (tx) => {
          const within: ModelReads = readsOn(tx, (again) => again(within))
          return read(within)
        })
      const reads = readsOn(runner, inSnapshot)
      const engines: ModelEngines = { engineOf: () => reads, readsOf: () => reads }
      return readRouting(
        { client: db, reads: engines },
        [],
        [],
        options.timeouts?.replicaRetry,
        options.logger
      )
    },
    relations: () => relationsOf(db.contract),
    handoffs: 'refused',
    refusedOption,
  })
}

/** The options of createHydraApp a Prisma 8 client cannot honour (docs/prisma-8.md). */
function refusedOption(options: BackEndOptions): string | undefined {
  const refused = (option: string, why: string) =>
    `createHydraApp on a Prisma 8 client cannot take ${option}: ${why} (docs/prisma-8.md); leave it out`
  const { providers, replicas, engine, adapter } = options
  // `providers: {}` names no provider: nothing is left unread.
  const none = typeof providers === 'object' && providers !== null && !Object.keys(providers).length
  if (providers !== undefined && !none)
    return refused(
      'providers',
      "custom data providers are handed Prisma 7's where and orderBy, which the routes generated for Prisma 8 do not write"
    )
  if (replicas !== undefined && replicas.length > 0)
    return refused('replicas', 'read replicas are read on Prisma 7 only')
  if (engine !== undefined && engine !== 'compiled')
    return refused(
      `engine: ${JSON.stringify(engine)}`,
      'Prisma 8 is read by the compiled engine alone'
    )
  if (adapter !== undefined)
    return refused(
      'adapter',
      "it is Prisma 7's driver adapter; Prisma 8's client runs its own statements"
    )
  return undefined
}

/** Each model's relations and the model each leads to, from the contract's domain. */
function relationsOf(contract: ContractRelations): RelationTargets {
  const targets = new Map<string, Map<string, string>>()
  for (const namespace of Object.values(contract.domain.namespaces))
    for (const [name, model] of Object.entries(namespace.models))
      targets.set(
        name,
        new Map(Object.entries(model.relations ?? {}).map(([field, { to }]) => [field, to.model]))
      )
  return targets
}

/**
 * What the compiled engine hands over: nothing is read but the table's planner estimate, which
 * the compiled engine asks of the engine beside it.
 */
function unservedReads(model: ModelSource, runner: SqlRunner): ModelReads {
  const { estimateSql } = dialectOf(model.provider)
  const table = qualifiedTable(model.provider, model.table)
  return {
    findMany: notServed,
    count: async () => notServed(),
    findManyAndCount: async () => notServed(),
    findUnique: notServed,
    findManyOf: notServed,
    findManyEach: async () => notServed(),
    inSnapshot: async () => notServed(),
    async estimate() {
      if (!estimateSql) return undefined
      const [row] = await runner.rows({
        sql: estimateSql,
        args: [table],
        argTypes: [{ scalarType: 'string', arity: 'scalar' }],
      })
      const value = Number(row?.[0] ?? -1)
      // -1: never analyzed.
      return value < 0 ? undefined : value
    },
  }
}
