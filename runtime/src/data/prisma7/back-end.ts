/**
 * @module
 * The Prisma 7 back end: the databases a resource's reads can run on, the client's primary and its
 * read replicas (read-routing.ts: one database per request), and on each of them the `prisma`
 * engine and, when the model has a compiled form, the `compiled` one.
 */

import type { ModelSource } from '../../contract/model-source.js'
import type { ReadOperation } from '../../contract/operations.js'
import { dialectOf } from '../../database/dialects.js'
import { badRequest } from '../../errors.js'
import type { Condition } from '../../plan/condition.js'
import { type BackEnd, backEnd, type EngineOptions, type ModelEngines } from '../back-end.js'
import { compiledReads } from '../compiled/engine.js'
import { escapeIn } from '../compiled/sql.js'
import type { ModelReads } from '../model-reads.js'
import { type ReadRouting, readRouting } from '../read-routing.js'
import { relationTargets } from '../written-models.js'
import { prismaReads } from './engine.js'
import { snapshotOver } from './page-snapshot.js'
import { type AdapterFactory, adapterRunner, clientRunner } from './shared-adapter.js'

/** What the Prisma 7 back end reads besides its client: the shared adapter, the replicas. */
export interface Prisma7Options {
  /** The client's driver adapter factory, shared (`shareAdapter`): compiled reads run on it. */
  adapter?: AdapterFactory | undefined
  /** Clients of read replicas of the client's database. */
  replicas?: readonly object[] | undefined
}

/**
 * The back end of a Prisma 7 client (`prisma`, typed by its generated module): the `prisma`
 * engine through the client, the `compiled` one on its driver adapter, its replicas.
 */
export function prisma7BackEnd(prisma: object, own: Prisma7Options = {}): BackEnd {
  return backEnd('prisma7', {
    targets: (model, options) => readTargets(prisma, model, { ...options, ...own }),
    relations: () => relationTargets(prisma),
    handoffs: 'logged',
  })
}

type TargetOptions = EngineOptions & Prisma7Options

/**
 * The engines of `model` on the primary and on each replica. The shared adapter is the primary
 * client's: on a replica, compiled reads run through that replica's client (`$queryRawUnsafe`).
 */
function readTargets(
  prisma: object,
  model: ModelSource,
  options: TargetOptions
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
  options: TargetOptions,
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
