/**
 * @module
 * The databases and engines a resource's reads can run on: the primary and its
 * read replicas (read-routing.ts: one database per request), and on each of them the `prisma`
 * engine and, when the model has a compiled form, the `compiled` one. Which of them answers a
 * request is decided here and in data-access.ts alone.
 */

import type { EngineName, ModelSource } from '../contract/model-source.js'
import type { ReadOperation } from '../contract/operations.js'
import { dialectOf } from '../database/dialects.js'
import { badRequest } from '../errors.js'
import type { HydraLogger } from '../observe/logger.js'
import type { Condition } from '../plan/condition.js'
import { compiledReads } from './compiled/engine.js'
import { escapeIn } from './compiled/sql.js'
import type { ModelReads } from './model-reads.js'
import { prismaReads } from './prisma7/engine.js'
import { snapshotOver } from './prisma7/page-snapshot.js'
import { type AdapterFactory, adapterRunner, clientRunner } from './prisma7/shared-adapter.js'
import { type ReadRouting, readRouting } from './read-routing.js'

/** What the engines of a resource are chosen by (the data-access options they depend on). */
export interface EngineOptions {
  engine?: EngineName | undefined
  adapter?: AdapterFactory | undefined
  replicas?: readonly object[] | undefined
  timeouts?: { replicaRetry?: number | undefined } | undefined
  /** Where the outage logs of the databases write (the app's logger). */
  logger?: HydraLogger | undefined
  /** Whether the compiled engine's SQL on the shared adapter is traced (default true). */
  tracing?: boolean | undefined
}

/** The engines of one model on one database. */
export interface ModelEngines {
  /** The engine of an operation (of items and parents without one): operation > model > app. */
  engineOf(operation?: ReadOperation): ModelReads
  /** The reads of one request: on SQLite, a search pattern holding an escape is compiled. */
  readsOf(operation: ReadOperation, condition: Condition | undefined): ModelReads
}

/**
 * The engines of `model` on the primary and on each replica. The shared adapter is the primary
 * client's: on a replica, compiled reads run through that replica's client (`$queryRawUnsafe`).
 */
export function readTargets(
  prisma: object,
  model: ModelSource,
  options: EngineOptions
): ReadRouting<ModelEngines> {
  const replicas = options.replicas ?? []
  return readRouting(
    { client: prisma, reads: enginesOf(prisma, model, options, false) },
    replicas.map((client) => ({
      client,
      reads: enginesOf(client, model, { ...options, adapter: undefined }, true),
    })),
    replicas,
    options.timeouts?.replicaRetry,
    options.logger
  )
}

/**
 * The engines of one model on one client: Prisma's; the compiled one when the model has a compiled
 * form (on the shared adapter, else on the client's raw queries); and, on a database whose LIKE
 * Prisma writes without an escape character (SQLite), the compiled reads of search patterns
 * holding one (a literal `%`, `_` or backslash), which refuse what they cannot compile rather than
 * let Prisma read those as wildcards.
 */
function enginesOf(
  prisma: object,
  model: ModelSource,
  options: EngineOptions,
  replica: boolean
): ModelEngines {
  const prismaEngine = prismaReads(prisma, model, { replica })
  const runner =
    (options.adapter && adapterRunner(options.adapter, prisma, options.tracing)) ??
    clientRunner(prisma)
  // A page and what its embeds read after it, in one interactive transaction of the client (as
  // the `prisma` engine reads them: prisma7/page-snapshot.ts), compiled: the transaction's raw queries.
  const inTransaction = (tx: object): ModelReads => {
    const reads = prismaReads(tx, model)
    return compiledReads(reads, model, clientRunner(tx)) ?? reads
  }
  const opening = replica ? dialectOf(model.provider).readOnlySql : undefined
  const snapshot: ModelReads['inSnapshot'] = (read, transaction) =>
    snapshotOver(prisma, inTransaction, compiled ?? prismaEngine, opening)(read, transaction)
  const compiled = compiledReads(prismaEngine, model, runner, snapshot)
  const engineOf = (operation?: ReadOperation): ModelReads =>
    (operation?.engine ?? model.engine ?? options.engine) === 'compiled' && compiled
      ? compiled
      : prismaEngine
  const literal = dialectOf(model.provider).likeEscape === 'none' ? literalReads() : undefined
  const readsOf = (operation: ReadOperation, condition: Condition | undefined) =>
    literal && escapeIn(condition) !== undefined ? literal : engineOf(operation)
  return { engineOf, readsOf }

  function literalReads(): ModelReads {
    const refuse = (condition: Condition | undefined): never => {
      throw badRequest(
        `A search through a relation cannot hold %, _ or \\ here; "${escapeIn(condition)}" given.`
      )
    }
    const refusing: ModelReads = {
      ...prismaEngine,
      findMany: (args) => refuse(args.condition),
      count: async (condition) => refuse(condition),
      findManyAndCount: async (args) => refuse(args.condition),
      inSnapshot: (read) => read(refusing),
    }
    return compiledReads(refusing, model, runner) ?? refusing
  }
}
