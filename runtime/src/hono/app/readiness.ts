/**
 * @module
 * The readiness answer an orchestrator or a load balancer probes (docs/operations.md#readiness):
 * whether this instance can serve, which for a read API is whether its database answers.
 */
import type { Handler } from 'hono'
import { outageLogOf } from '../../data/read-routing.js'
import { type CheckedClient, checkDatabase } from '../../database/startup-check.js'
import { DEFAULT_RETRY_AFTER } from '../../database/timeouts.js'
import { problemResponse } from '../../errors.js'
import type { HydraLogger } from '../../observe/logger.js'
import { serverStopping } from '../request/server-stop.js'

/** Options of `hydraReadiness`. */
export interface ReadinessOptions {
  /** How long the database may take to answer, in milliseconds (default 1,000). */
  timeout?: number | undefined
  /** The `Retry-After` of the 503, in seconds (default 5). */
  retryAfter?: number | undefined
  /** The app's logger: a database that does not answer is an outage episode of its log. */
  logger?: HydraLogger | undefined
  /**
   * Whether the server has begun to stop, for a server that cannot tell the route itself (one
   * `createHydraServer` did not make: `Bun.serve`, `Deno.serve`): once it returns true, the route
   * answers `503` as it does while a `createHydraServer` server drains.
   */
  stopping?: (() => boolean) | undefined
}

/** The default bound of a probe's query: under the one-second timeout of Kubernetes' probes. */
const DEFAULT_READINESS_TIMEOUT = 1_000

/**
 * A route answering `200` `{"status":"ready"}` when the database of `prisma` answers `SELECT 1`
 * within `timeout`, else a `503` problem with `Retry-After` whose detail names no database and no
 * reason of the failure (the probe is public; the log has the reason). A failed probe starts an outage episode
 * of the client's log, as a failed request does, and a passed one ends it: one line each. Neither
 * answer is stored by a cache. Once the server begins to stop (`closeGracefully` of a server
 * `createHydraServer` made, or `stopping` returning true), a `503` too, without asking the
 * database, whose detail says so ("This instance is stopping"): a load balancer takes the instance
 * out of rotation while it drains.
 *
 * ```ts
 * app.get('/ready', hydraReadiness(prisma))
 * ```
 */
export function hydraReadiness(prisma: CheckedClient, options: ReadinessOptions = {}): Handler {
  const timeout = options.timeout ?? DEFAULT_READINESS_TIMEOUT
  const retryAfter = options.retryAfter ?? DEFAULT_RETRY_AFTER
  const log = outageLogOf(prisma).through(options.logger)
  const unready = (detail: string) =>
    problemResponse(503, detail, {
      headers: [
        ['Retry-After', String(retryAfter)],
        ['Cache-Control', 'no-store'],
      ],
    })
  return async function hydraReadiness(c) {
    if (serverStopping(c.env) || options.stopping?.() === true)
      return unready('This instance is stopping: it takes no new work.')
    try {
      await checkDatabase(prisma, { timeout })
    } catch (error) {
      log.failed(error instanceof Error && error.cause !== undefined ? error.cause : error)
      return unready('The database does not answer: this instance cannot serve.')
    }
    log.succeeded()
    return new Response('{"status":"ready"}', {
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
    })
  }
}
