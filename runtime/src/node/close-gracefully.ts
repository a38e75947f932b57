/**
 * @module
 * Stopping a Node.js HTTP server without dropping the requests it is answering
 * (docs/deployment.md#stopping-the-server): what a rolling deploy needs of SIGTERM.
 */
import type { Server } from 'node:http'

/** Options of `closeGracefully`. */
export interface CloseOptions {
  /**
   * How long the requests in flight may take to be answered, in milliseconds (default 10,000, the
   * app's default budget of a request's database work); then every connection still open is
   * closed, answered or not.
   */
  grace?: number | undefined
}

/** How often connections that finished their last answer are looked for, in milliseconds. */
const IDLE_SWEEP = 50

/**
 * Closes `server` as a deploy stops an instance: it accepts no new connection, closes the idle
 * ones (kept alive between requests), answers every request in flight in full and closes each
 * connection once its answer is sent (rather than keeping it alive for `keepAliveTimeout`), then
 * resolves. Connections still busy after `grace` are closed. Disconnect the database after it:
 * the requests in flight still read it.
 *
 * ```ts
 * process.once('SIGTERM', async () => {
 *   await closeGracefully(server, { grace: 10_000 })
 *   await prisma.$disconnect()
 *   process.exit(0)
 * })
 * ```
 */
export function closeGracefully(server: Server, options: CloseOptions = {}): Promise<void> {
  const grace = options.grace ?? 10_000
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP)
    const deadline = setTimeout(() => server.closeAllConnections(), grace)
    sweep.unref()
    deadline.unref()
    server.close(() => {
      clearInterval(sweep)
      clearTimeout(deadline)
      resolve()
    })
    server.closeIdleConnections()
  })
}
