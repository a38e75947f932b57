/**
 * Database outages answered as outages (docs/errors.md#database-outages-503): a database that cannot be reached,
 * a pool with no free connection, a query past its time budget are a `503` problem with
 * `Retry-After`, logged once per episode; anything else stays the server's fault (500, logged
 * with its cause). A request never waits longer than its budget for the database.
 */
import { HydraError } from '../errors.js'
import { consoleLogger, type HydraLogger } from '../observe/logger.js'
import { causesOf } from './causes.js'
import { adapterSqlState, endedAtTimeLimit } from './dialects.js'
import { inLine } from './loop-turns.js'
import { outageReason } from './outage-reason.js'
import { budgetLeft } from './request-deadline.js'
import { DEFAULT_RETRY_AFTER, QueryTimeout, withinBudget } from './timeouts.js'
import { WorkLoad } from './work-load.js'

/** The 503 of a request the database could not serve. */
export class DatabaseUnavailable extends HydraError {
  constructor(cause: unknown, retryAfter: number = DEFAULT_RETRY_AFTER) {
    super(503, 'The service is unavailable for a moment; try again later.', {
      cause,
      headers: { 'Retry-After': String(retryAfter) },
    })
    this.name = 'DatabaseUnavailable'
  }
}

export function isDatabaseUnavailable(error: unknown): error is DatabaseUnavailable {
  return error instanceof DatabaseUnavailable
}

/** Prisma error codes of an unreachable, overloaded or timed-out database. */
const PRISMA_CODES = new Set([
  'P1001', // can't reach database server
  'P1002', // database server reached but timed out
  'P1008', // operations timed out
  'P1017', // server has closed the connection
  'P2024', // timed out fetching a new connection from the connection pool
  'P2028', // transaction API error: unable to start a transaction in the given time, or expired
])

/** Driver adapter error kinds of the same. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
])

/** Node socket errors. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'SQLITE_BUSY', // better-sqlite3: the database stayed locked past its busy timeout
])

/**
 * SQLSTATEs: connection exceptions (08), insufficient resources (53), a lock waited for past
 * PostgreSQL's `lock_timeout` (55P03), a statement cancelled by `statement_timeout` (57014) or by
 * MariaDB's `max_statement_time` (70100, the `mariadb` driver's `queryTimeout`), the server
 * shutting down or starting (57P01-57P03). A statement the server ends at a time limit fails for
 * the load of the moment, not for the request: the same read can succeed again, as after the
 * app's own budget (a 503 too).
 */
const SQLSTATE = /^(08...|53...|55P03|57014|57P0[123]|70100)$/

/**
 * What node-postgres (under `@prisma/adapter-pg`) throws as plain errors: its pool's connect
 * timeout, its client's `query_timeout`, a connection that ended.
 */
const DRIVER_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|Connection timeout|Client has encountered a connection error|database is locked|pool timeout|Too many connections/i

/**
 * Whether `error` (or an error it wraps) says the database is unavailable rather than a bug, or
 * that it cancelled the read for a conflict (isReadConflict): either is answered 503.
 */
export function isOutage(error: unknown): boolean {
  return someCause(error, unavailable) || isReadConflict(error)
}

/**
 * Whether the database cancelled the read for a conflict, not for a fault of the read: SQLSTATE
 * 40001 or 40P01 (a hot standby's "conflict with recovery", a serialization failure, a deadlock),
 * which Prisma 7 reports as P2034 and Prisma 8 as its query error's `sqlState`. The same read can succeed again: on a replica it is read again on
 * the next database (read-routing.ts); on the primary it is a 503 with `Retry-After`.
 */
export function isReadConflict(error: unknown): boolean {
  return someCause(error, (current) => {
    const { code, kind, sqlState } = current as {
      code?: unknown
      kind?: unknown
      sqlState?: unknown
    }
    if (code === 'P2034' || kind === 'TransactionWriteConflict') return true
    // Prisma 8's runtime names the SQLSTATE of the query it ran (`SqlQueryError`).
    if (kind === 'sql_query' && typeof sqlState === 'string' && CONFLICT.test(sqlState)) return true
    const state = adapterSqlState(current)
    return state !== undefined && CONFLICT.test(state)
  })
}

/** SQLSTATEs of a read cancelled for a conflict: serialization failure, deadlock. */
const CONFLICT = /^(40001|40P01)$/

/** Whether `error` itself (not what it wraps) says the database is unavailable. */
function unavailable(current: object): boolean {
  if (current instanceof QueryTimeout || current instanceof DatabaseUnavailable) return true
  if (current instanceof LoadShed) return true
  const { code, kind, message } = current as { code?: unknown; kind?: unknown; message?: unknown }
  if (typeof code === 'string' && (PRISMA_CODES.has(code) || SOCKET_CODES.has(code))) return true
  if (typeof code === 'string' && SQLSTATE.test(code)) return true
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true
  // A driver adapter's SQLSTATE (the dialect table's AdapterErrors); the `mariadb` driver gives a
  // closed or timed-out socket SQLSTATE 08S01.
  const state = adapterSqlState(current)
  if (state !== undefined && SQLSTATE.test(state)) return true
  if (endedAtTimeLimit(current)) return true
  return typeof message === 'string' && DRIVER_MESSAGES.test(message)
}

/** Whether `test` holds for `error` or an error it wraps (causesOf). */
function someCause(error: unknown, test: (current: object) => boolean): boolean {
  for (const current of causesOf(error)) if (test(current)) return true
  return false
}

/** What an outage log names: its database, what happens meanwhile, what its end line counts. */
export interface OutageLogWording {
  /** `the database`, `read replica 2`. */
  subject: string
  /** `answering 503`. */
  meanwhile: string
  /** `requests answered 503`. */
  counted: string
  /** The level of the line an episode starts with: `error` (default), `warn` when reads go on. */
  level?: 'error' | 'warn' | undefined
  /**
   * The events of the two lines, for an episode of something else than a database (a cache's
   * purge): `outage.start` and `outage.end` by default, whose fields name the database as
   * `database`.
   */
  events?:
    | {
        /** The event of the line an episode starts with (`purge.error`). */
        start: string
        /** The event of the line it ends with (`purge.end`). */
        end: string
      }
    | undefined
}

/** The state of one database's episode, shared by the logs of every app reading it. */
interface Episode {
  /** When the episode started (`Date.now()`), or undefined between episodes. */
  since: number | undefined
  /** The requests answered 503 during the episode. */
  answered: number
}

/**
 * One log line when an outage starts and one when it ends, whatever the number of requests it
 * touched: a stack per request would bury the one line that matters. One per database an app
 * reads: its primary's and each read replica's (data/read-routing.ts), never one per process.
 * Each line goes to the logger of the app whose request saw the change (`through`).
 */
export class OutageLog {
  constructor(
    private readonly wording: OutageLogWording = {
      subject: 'the database',
      meanwhile: 'answering 503',
      counted: 'requests answered 503',
    },
    private readonly logger: HydraLogger = consoleLogger,
    private readonly episode: Episode = { since: undefined, answered: 0 },
    /** The load of the database's work, which requests read to shed it (work-load.ts). */
    readonly load: WorkLoad = new WorkLoad()
  ) {}

  /** The same episodes, logged through `logger` (an app's): this log when none is given. */
  through(logger: HydraLogger | undefined): OutageLog {
    if (logger === undefined || logger === this.logger) return this
    return new OutageLog(this.wording, logger, this.episode, this.load)
  }

  /** A request answered 503 for `error`: counted in its episode, which it starts if none has. */
  failed(error: unknown): void {
    this.episode.answered++
    this.interrupted(error)
  }

  /**
   * A request the outage met after its answer began (a streamed collection, cut): it starts an
   * episode if none has, and is not counted among the requests answered 503.
   */
  interrupted(error: unknown): void {
    const episode = this.episode
    if (episode.since !== undefined) return
    episode.since = Date.now()
    const reason = outageReason(error)
    const { subject, meanwhile } = this.wording
    this.logger({
      level: this.wording.level ?? 'error',
      message: `${subject} is unavailable (${reason}); ${meanwhile} until it answers again`,
      fields: { ...this.#named('start'), reason },
    })
  }

  /** A request its database answered: ends the episode, if one is going on, with its line. */
  succeeded(): void {
    const episode = this.episode
    if (episode.since === undefined) return
    const seconds = Number(((Date.now() - episode.since) / 1000).toFixed(1))
    const { subject, counted } = this.wording
    this.logger({
      level: 'info',
      message: `${subject} answers again after ${seconds.toFixed(1)} s (${episode.answered} ${counted})`,
      fields: { ...this.#named('end'), seconds, requests: episode.answered },
    })
    episode.since = undefined
    episode.answered = 0
  }

  /** The event of a line, and the database it names when the episode is a database's. */
  #named(line: 'start' | 'end'): { event: string; database?: string } {
    const { events, subject } = this.wording
    return events ? { event: events[line] } : { event: `outage.${line}`, database: subject }
  }
}

/**
 * The outage log `logs` keeps for `owner` (a purge, a store), made with `wording` the first time:
 * one per owner, shared by every app or extension going through it.
 */
export function outageLogFor<K extends object>(
  logs: WeakMap<K, OutageLog>,
  owner: K,
  wording: OutageLogWording
): OutageLog {
  let log = logs.get(owner)
  if (!log) {
    log = new OutageLog(wording)
    logs.set(owner, log)
  }
  return log
}

/**
 * The error a request answers for `error`: a DatabaseUnavailable (503) when it is an outage,
 * `error` itself otherwise. The outage starts an episode of `log`, the log of the database the
 * request read (each app's own: data/read-routing.ts); without one, nothing is logged here.
 */
export function asOutage(
  error: unknown,
  retryAfter: number = DEFAULT_RETRY_AFTER,
  log?: OutageLog | undefined
): unknown {
  // An answer already decided (a 503 styled for its route, a client error) stays as it is.
  if (error instanceof HydraError) return error
  if (!isOutage(error)) return error
  // A conflict is one read's, not the database's: no outage episode is logged for it.
  if (!isReadConflict(error)) log?.failed(error)
  return new DatabaseUnavailable(error, retryAfter)
}

/**
 * A request's database work (`start` starts it), bounded by its budget; its success ends an outage
 * episode of `log`, the log of the database it read. With `turns` (a database whose driver holds
 * the process while it reads: loop-turns.ts), the work waits for its turn of the event loop, and
 * that wait counts in the budget: work whose budget runs out before its turn is never started.
 */
export async function databaseWork<T>(
  start: () => PromiseLike<T>,
  budget: number,
  log: OutageLog,
  turns = false
): Promise<T> {
  // In flight from now until the work itself ends, past its request's answer if it runs longer.
  const end = log.load.begin()
  const counted = () => {
    const work = start()
    Promise.resolve(work).then(end, end)
    return work
  }
  const turn = turns ? inLine(counted) : undefined
  let result: T
  try {
    result = await withinBudget(turn ? turn.result : counted(), budget)
  } catch (error) {
    // Work that leaves the line is never started, and ends here.
    turn?.leave()
    if (turn) end()
    throw error
  }
  log.succeeded()
  return result
}

/**
 * A request's database work (databaseWork) within what is left of `budget` since `request`
 * arrived, less the margin its answer takes to reach the client (request-deadline.ts): the wait
 * before it, for a connection and for its earlier work included. Work whose budget ran out before
 * it started is never started.
 */
export function requestWork<T>(
  start: () => PromiseLike<T>,
  request: Request,
  budget: number,
  log: OutageLog,
  turns = false
): Promise<T> {
  // No budget (an infinite or non-positive `query`): nothing to count down.
  if (!Number.isFinite(budget) || budget <= 0) return databaseWork(start, budget, log, turns)
  const left = budgetLeft(request, budget)
  if (left <= 0) return Promise.reject(new QueryTimeout(budget))
  // Work that cannot end within what is left (the pool drains its work too slowly, or has drained
  // none for a whole budget) is answered at once, and its request's place is not taken. A
  // database that takes turns has no pool: its line leaves out work whose budget ran out.
  const expected = turns ? 0 : log.load.expected(budget)
  if (expected > left) return Promise.reject(new LoadShed(log.load.inFlight, left))
  return databaseWork(start, left, log, turns).catch((error: unknown) => {
    // The budget a timeout names is the request's, not what was left of it.
    throw error instanceof QueryTimeout ? new QueryTimeout(budget) : error
  })
}

/** A request answered 503 at once: its database could not serve it within what was left of its budget. */
class LoadShed extends Error {
  constructor(
    readonly ahead: number,
    readonly left: number
  ) {
    super(
      `The database could not serve the request within the ${Math.round(left)} ms left of its budget (${ahead} pieces of work ahead).`
    )
    this.name = 'LoadShed'
  }
}
