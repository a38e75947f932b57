/**
 * @module
 * A back end: what answers the reads of the app's models on its database, in the plan's terms
 * (model-reads.ts). The app hands one to the generated routes in place of a Prisma 7 client: the
 * Prisma 7 client itself is read as `prisma7/back-end.ts`'s, and other back ends are values of
 * their own rooms. Which engine answers a request is decided by the back end and data-access.ts.
 */

import type { EngineName, ModelSource } from '../contract/model-source.js'
import type { ReadOperation } from '../contract/operations.js'
import type { HydraLogger } from '../observe/logger.js'
import type { Condition } from '../plan/condition.js'
import type { ModelReads } from './model-reads.js'
import type { ReadRouting } from './read-routing.js'
import type { RelationTargets } from './written-models.js'

/** What the engines of a resource are chosen by (the data-access options they depend on). */
export interface EngineOptions {
  engine?: EngineName | undefined
  timeouts?: { replicaRetry?: number | undefined } | undefined
  /** Where the outage logs of the databases write (the app's logger). */
  logger?: HydraLogger | undefined
  /** Whether the compiled engine's SQL is traced (default true). */
  tracing?: boolean | undefined
}

/** The engines of one model on one database. */
export interface ModelEngines {
  /** The engine of an operation (of items and parents without one): operation > model > app. */
  engineOf(operation?: ReadOperation): ModelReads
  /** The reads of one request: on SQLite, a search pattern holding an escape is compiled. */
  readsOf(operation: ReadOperation, condition: Condition | undefined): ModelReads
}

/** The app's options a back end may be unable to honour (BackEnd's `refusedOption`). */
export interface BackEndOptions {
  /** The engine of the resources and operations whose annotations name none. */
  engine?: EngineName | undefined
  /** Clients of read replicas. */
  replicas?: readonly object[] | undefined
  /** Prisma 7's driver adapter factory, shared with the compiled engine. */
  adapter?: object | undefined
  /** Custom data providers, by model. */
  providers?: unknown
}

/** Marks a back end among the values the generated routes take. */
const BACK_END: unique symbol = Symbol.for('prisma-hydra.back-end')

/** What answers the reads of the app's models. */
export interface BackEnd {
  /** The back end's name, as messages name it (`prisma7`, `prisma8`). */
  readonly [BACK_END]: string
  /** The engines of `model` on each database the back end reads (one per request). */
  targets(model: ModelSource, options: EngineOptions): ReadRouting<ModelEngines>
  /** Each model's relations and the model each leads to (what a write reaches). */
  relations(): RelationTargets
  /**
   * What an operation configured `compiled` does when the compiled engine cannot write one of its
   * reads: a back end with another engine hands them to it (and the app's log says so), one
   * without refuses to serve the operation.
   */
  readonly handoffs: 'logged' | 'refused'
  /**
   * Why the app cannot be made with `options`, naming the option the back end cannot honour
   * (rather than take it and ignore it); undefined when it honours them all.
   */
  refusedOption?(options: BackEndOptions): string | undefined
}

/** A back end named `name` with its parts. */
export function backEnd(name: string, parts: Omit<BackEnd, typeof BACK_END>): BackEnd {
  return { [BACK_END]: name, ...parts }
}

/** Whether `value` is a back end (else the generated routes were handed a Prisma 7 client). */
export function isBackEnd(value: unknown): value is BackEnd {
  return typeof value === 'object' && value !== null && BACK_END in value
}

/** The name of `backEnd`. */
export const backEndName = (value: BackEnd): string => value[BACK_END]
