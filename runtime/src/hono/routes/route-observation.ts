/**
 * @module
 * What a route of the API reports of a request (docs/operations.md): its operation's span, the
 * span of its data access with the engine, paging mode, page and counts, and the timings of its
 * `Server-Timing` header. Each is off (and costs nothing) when the app switched it off or, for
 * spans, has no `@opentelemetry/api`.
 */

import { takesTurns } from '../../database/loop-turns.js'
import { databaseWork, type OutageLog, requestWork } from '../../database/outage.js'
import type { OperationsOptions } from '../../observe/options.js'
import { type ServerTiming, serverTimingOf } from '../../observe/server-timing.js'
import {
  inActiveContext,
  inSpan,
  type SpanAttributes,
  type Tracer,
  tracerOf,
} from '../../observe/tracing.js'
import type { BoundWork, CollectionContent } from '../../paging/strategy.js'

/** One request's observation: its tracer (none when off) and its timings (none when off). */
export interface RouteObservation {
  /** Its tracer; none when tracing is off or no OpenTelemetry provider is registered. */
  tracer: Tracer | undefined
  /** Its `Server-Timing`; none when off. */
  timing: ServerTiming | undefined
}

/** The observation of a request of an app with these options. */
export async function observeRoute(options: OperationsOptions): Promise<RouteObservation> {
  return { tracer: await tracerOf(options.tracing), timing: serverTimingOf(options.serverTiming) }
}

/** What names an operation in its spans. */
export interface OperationNames {
  /** The resource (`Book`). */
  resource: string
  /** The operation (`collection`, `recent`, `item`, `books` of a sub-collection). */
  operation: string
  /** The database's provider (`postgresql`, `sqlite`, `mysql`), when the route reads one. */
  provider?: string | undefined
}

/** Runs a route in its operation's span (`hydra Book.collection`). */
export function inOperation<T>(
  observation: RouteObservation,
  names: OperationNames,
  work: () => Promise<T>
): Promise<T> {
  return inSpan(
    observation.tracer,
    `hydra ${names.resource}.${names.operation}`,
    { 'hydra.resource': names.resource, 'hydra.operation': names.operation },
    work
  )
}

/**
 * Runs a route's reads in the span of its data access (`hydra.data Book.collection`): its
 * queries' spans (Prisma's, or the compiled engine's `hydra.sql`) are its children. `describe`
 * gives the attributes known once the reads are done (mode, page, counts).
 */
export function inDataAccess<T>(
  observation: RouteObservation,
  names: OperationNames & { engine: string },
  work: () => Promise<T>,
  describe: (result: T) => SpanAttributes
): Promise<T> {
  const { tracer } = observation
  const attributes = {
    'hydra.resource': names.resource,
    'hydra.operation': names.operation,
    'hydra.engine': names.engine,
    'db.system.name': names.provider,
  }
  return inSpan(tracer, `hydra.data ${names.resource}.${names.operation}`, attributes, (span) =>
    work().then((result) => {
      span?.setAttributes(describe(result))
      return result
    })
  )
}

/**
 * `content` with its batches, if it has any, read in the span running now (within
 * `inDataAccess`: the data access span; within a custom collection's operation: its span). A
 * streamed collection's batches after the first are read once the route has returned, as the
 * client takes them: their queries would otherwise start traces of their own.
 */
export function readInSpan<T>(
  observation: RouteObservation,
  content: CollectionContent<T>
): CollectionContent<T> {
  if (!content.batches) return content
  return { ...content, batches: inActiveContext(observation.tracer, content.batches) }
}

/**
 * `request`'s database work, within what is left of its budget since it arrived (a success ends an
 * outage episode of `outages`) and counted in its `db` timing, with its wait for its turn on a
 * database of `provider` that takes turns (database/loop-turns.ts). A stream's batches after its
 * first (`batch`) each have the whole budget: its answer has begun.
 */
export function boundWork(
  observation: RouteObservation,
  budget: number,
  outages: OutageLog,
  provider: string | undefined,
  request: Request
): BoundWork {
  const { timing } = observation
  const turns = takesTurns(provider)
  const measured = <T>(work: Promise<T>) => (timing ? timing.measure('db', work) : work)
  const work: BoundWork = (start) => measured(requestWork(start, request, budget, outages, turns))
  work.batch = (start) => measured(databaseWork(start, budget, outages, turns))
  return work
}

/**
 * The data-access attributes of a collection's content, as the paging strategy decided it: its
 * paging mode (`full`, `partial`, `cursor`, `unpaged`), its page number (offset modes), the
 * members read and the total.
 */
export function pagingAttributes({ page, decision }: CollectionContent<unknown>): SpanAttributes {
  if (!page || decision === undefined || decision.mode === 'unpaged')
    return { 'hydra.paging.mode': 'unpaged' }
  const counts = { 'hydra.items': page.items.length, 'hydra.total_items': page.totalItems }
  if (decision.page === undefined) return { 'hydra.paging.mode': decision.mode, ...counts }
  return { 'hydra.paging.mode': decision.mode, 'hydra.page': decision.page, ...counts }
}

/** Writes the request's `Server-Timing` on `response` (none when the header is off). */
export function withTimings<R extends Response>(observation: RouteObservation, response: R): R {
  return observation.timing ? observation.timing.write(response) : response
}
