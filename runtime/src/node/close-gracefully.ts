/**
 * @module
 * Stopping a Node.js HTTP server without dropping the requests it is answering
 * (docs/deployment.md#stopping-the-server): what a rolling deploy needs of SIGTERM.
 */
import type { Server } from 'node:http'
import { answerWithClose, beginDrain } from './closing-answers.js'

/** Options of `closeGracefully`. */
export interface CloseOptions {
  /**
   * How long the server keeps listening and serving once the stop begins, in milliseconds, while
   * `hydraReadiness` answers `503` so that a load balancer takes the instance out of rotation
   * before it refuses connections (default 5,000: longer than HAProxy's `inter 1s fall 2` of
   * docs/deployment.md#load-balancers takes to see it; 0 when nothing probes it). On a server
   * createHydraServer did not make, readiness never hears of the stop: the default is 0 there.
   */
  drain?: number | undefined
  /**
   * How long the requests in flight when the server stops listening may take to be answered, in
   * milliseconds (default 10,000, the app's default budget of a request's database work); then
   * every connection still open is closed, answered or not.
   */
  grace?: number | undefined
}

/** The default drain, in milliseconds (CloseOptions.drain). */
const DEFAULT_DRAIN = 5_000

/** The servers draining: how to end a drain at once, and the stop that follows it. */
const drains = new WeakMap<Server, { end: () => void; done: Promise<void> }>()

/** How often connections that finished their last answer are looked for, in milliseconds. */
const IDLE_SWEEP = 50

/**
 * How long, in milliseconds, a connection kept alive is left open once the stop has begun, for
 * the request its client may be sending on it already (answered with `Connection: close`): a
 * client reusing its connection asks again within a few milliseconds of its last answer, and
 * closing the connection under that request loses it (`ECONNRESET`).
 */
const REUSE_WINDOW = 1_000

/**
 * Calls `then` once the event loop has read its sockets once more (an immediate scheduled from an
 * immediate runs after that read): the connections waiting to be accepted are then accepted, not
 * reset with the listener, and the requests that have arrived are read, their connections busy.
 */
function afterNextRead(then: () => void): void {
  setImmediate(() => setImmediate(then))
}

/**
 * Stops listening without closing the idle connections at once, as `server.close()` does (Node
 * 19 and later): an idle one may carry a request its client has sent and the server not read.
 */
function stopListening(server: Server, closed: () => void): void {
  server.closeIdleConnections = () => {}
  try {
    server.close(closed)
  } finally {
    Reflect.deleteProperty(server, 'closeIdleConnections')
  }
}

/**
 * Closes `server` as a deploy stops an instance. First it drains: for `drain` milliseconds it
 * serves as before while readiness answers `503` (on a server createHydraServer made), so that a
 * load balancer takes the instance out of rotation and sends it nothing more. Then it accepts the
 * connections waiting, then no new one, answers every request in flight in full, each answer
 * written from then on with `Connection: close` so that its client does not send another on that
 * connection (on a server createHydraServer made; on another, the answers of the requests it reads
 * from then on), and closes each connection once its answer is sent (rather than keeping it alive
 * for `keepAliveTimeout`); a connection kept alive that sends no request within a second is
 * closed. Then it resolves. Connections still busy `grace` after
 * the drain are closed. Disconnect the database after it: the requests in flight still read it.
 * Called again during the drain (a second signal), it ends the drain at once and returns the
 * first call's promise.
 *
 * ```ts
 * process.once('SIGTERM', async () => {
 *   await closeGracefully(server, { drain: 5_000, grace: 10_000 })
 *   await prisma.$disconnect()
 *   process.exit(0)
 * })
 * ```
 */
export function closeGracefully(server: Server, options: CloseOptions = {}): Promise<void> {
  const grace = options.grace ?? 10_000
  const pending = drains.get(server)
  if (pending) {
    pending.end()
    return pending.done
  }
  if (!server.listening) return Promise.resolve()
  // Readiness answers 503 from now on; answers keep their connections alive until the server
  // listens no more: a client told to close meanwhile would open a new connection, which the
  // listener's close at the drain's end could reset unaccepted.
  const known = beginDrain(server)
  const drain = options.drain ?? (known ? DEFAULT_DRAIN : 0)
  // No drain: the stop begins in this very turn, before the server reads what has arrived.
  if (drain <= 0) return stop(server, grace)
  let end = () => {}
  const ended = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, drain)
    end = () => {
      clearTimeout(timer)
      resolve()
    }
  })
  const done = ended.then(() => stop(server, grace))
  drains.set(server, { end, done })
  return done
}

/** The stop after the drain: no new connection, every request in flight answered. */
function stop(server: Server, grace: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    const deadline = setTimeout(() => server.closeAllConnections(), grace)
    deadline.unref()
    afterNextRead(() => {
      const begun = Date.now()
      // Idle connections are looked for after a read of the sockets too.
      const sweep = setInterval(() => {
        if (Date.now() - begun >= REUSE_WINDOW) afterNextRead(() => server.closeIdleConnections())
      }, IDLE_SWEEP)
      sweep.unref()
      stopListening(server, () => {
        clearInterval(sweep)
        clearTimeout(deadline)
        resolve()
      })
      // Answers say close once the server listens no more: a client that asks again on a new
      // connection is refused then (and goes to another instance), never reset in the backlog.
      answerWithClose(server)
    })
  })
}
