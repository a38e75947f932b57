/**
 * @module
 * Where a request's reads go (docs/deployment.md#read-replicas): to the read replicas
 * given besides the primary, one replica per request, taken in turn (round robin over the
 * replicas list, shared by every resource of the app). A request stays on its database for all its
 * reads (its page and its count are one transaction there: one snapshot). A replica whose read
 * fails with an outage (unreachable, refused, timed out, shutting down) is skipped for a while
 * (`timeouts.replicaRetry`, default 5,000 ms; then one request tries it again) and the read is
 * run again on the next replica in turn that is not skipped, then on the primary; an outage of
 * the primary is the request's answer (503 with Retry-After). A read a replica cancels for a
 * conflict (SQLSTATE 40001: a hot standby's conflict with recovery) is run again the same way,
 * without passing the replica by. Each replica logs its own outage episodes (one line when it
 * fails, one when it answers again), apart from the primary's.
 *
 * Prisma's `@prisma/extension-read-replicas` is not used: its `$allOperations` hook sends each
 * read query outside a transaction to a replica picked at random for that query, and every query
 * of a transaction to the primary. So a page and its count are either two queries on two replicas
 * at two moments or one transaction on the primary, and a replica's error is the query's (no
 * replica is passed by). It cannot be pinned per request.
 */
import { isOutage, isReadConflict, OutageLog } from '../database/outage.js'
import type { HydraLogger } from '../observe/logger.js'

/** How long a replica that failed is skipped before a request tries it again, by default. */
export const DEFAULT_REPLICA_RETRY = 5_000

/** One database the layer can read: its client, and what is read through it. */
export interface ReadTarget<Reads> {
  client: object
  reads: Reads
}

/** Runs one read on the request's database (moving on to another when a replica fails). */
export type ReadRun<Reads> = <T>(read: (reads: Reads) => PromiseLike<T>) => Promise<T>

/** The reads of one resource over the primary and its replicas. */
export interface ReadRouting<Reads> {
  /** The database of a new request: every read of the request through the run it returns. */
  pin(): ReadRun<Reads>
  /** The outage log of the primary (outageLogOf): a request's outage and success end there. */
  outages: OutageLog
}

/** A replica's health: shared by every resource that reads through its client. */
interface ReplicaHealth {
  /** Until when (Date.now()) requests pass it by; 0 while it answers. */
  skippedUntil: number
  log: OutageLog
}

const health = new WeakMap<object, ReplicaHealth>()
/** The outage log of each primary database, by its client. */
const primaries = new WeakMap<object, OutageLog>()
/** Whose turn is next, per replicas list (every resource of an app is given the same list). */
const turns = new WeakMap<readonly object[], { next: number }>()

function healthOf(client: object, position: number): ReplicaHealth {
  let known = health.get(client)
  if (!known) {
    known = {
      skippedUntil: 0,
      log: new OutageLog({
        subject: `read replica ${position + 1}`,
        meanwhile: 'reading from the other databases',
        counted: 'reads moved to another database',
        level: 'warn',
      }),
    }
    health.set(client, known)
  }
  return known
}

/**
 * The outage log of the database `client` stands for (an app's Prisma client, or a source given
 * by hand): one per client, shared by every resource and route reading through it (one line per
 * episode however many resources fail), and apart from any other client's, so two apps over two
 * databases in one process log their own episodes.
 */
export function outageLogOf(client: object): OutageLog {
  let log = primaries.get(client)
  if (!log) {
    log = new OutageLog()
    primaries.set(client, log)
  }
  return log
}

/**
 * The routing of one resource's reads: `primary` alone when `replicas` is empty, which costs a
 * request nothing (its run calls the read on the primary). Its outage logs write through the
 * app's `logger`.
 */
export function readRouting<Reads>(
  primary: ReadTarget<Reads>,
  replicas: readonly ReadTarget<Reads>[],
  list: readonly object[],
  retryAfter: number = DEFAULT_REPLICA_RETRY,
  logger?: HydraLogger | undefined
): ReadRouting<Reads> {
  const onPrimary: ReadRun<Reads> = async (read) => read(primary.reads)
  const outages = outageLogOf(primary.client).through(logger)
  if (replicas.length === 0) return { pin: () => onPrimary, outages }
  const states = replicas.map(({ client }, position) => healthOf(client, position))
  const logs = states.map((state) => state.log.through(logger))
  let turn = turns.get(list)
  if (!turn) {
    turn = { next: 0 }
    turns.set(list, turn)
  }
  const counter = turn
  /**
   * The replica at or after `from` (in turn order) that is not skipped, or -1. A replica whose
   * period is over is tried again by one request: the others pass it by while that one waits
   * (a hung replica keeps one request waiting, not all of them).
   */
  const available = (from: number, tried: number): number => {
    const now = Date.now()
    for (let step = tried; step < replicas.length; step++) {
      const index = (from + step) % replicas.length
      const state = states[index] as ReplicaHealth
      if (state.skippedUntil > now) continue
      if (state.skippedUntil > 0) state.skippedUntil = now + retryAfter
      return index
    }
    return -1
  }
  return {
    outages,
    pin() {
      const first = counter.next++ % replicas.length
      counter.next %= replicas.length
      // Steps taken from `first`; `current` is -1 once the request reads from the primary.
      let step = 0
      let current = available(first, 0)
      if (current >= 0) step = (current - first + replicas.length) % replicas.length
      return async (read) => {
        while (current >= 0) {
          const state = states[current] as ReplicaHealth
          const log = logs[current] as OutageLog
          try {
            const result = await read((replicas[current] as ReadTarget<Reads>).reads)
            state.skippedUntil = 0
            log.succeeded()
            return result
          } catch (error) {
            if (!isOutage(error)) throw error
            // A read the replica cancelled for a conflict (a hot standby's conflict with
            // recovery) is read again on the next database; the replica is not passed by.
            if (!isReadConflict(error)) {
              state.skippedUntil = Date.now() + retryAfter
              log.failed(error)
            }
            current = available(first, step + 1)
            if (current >= 0) step = (current - first + replicas.length) % replicas.length
          }
        }
        return read(primary.reads)
      }
    },
  }
}
