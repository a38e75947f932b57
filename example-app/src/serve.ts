import type { AddressInfo } from 'node:net'
import { closeGracefully, createHydraServer } from '@prisma-hydra/runtime/node'

/** A Hono app's `fetch`. */
export type Fetch = (request: Request) => Response | Promise<Response>

/**
 * How long a stop waits for the requests in flight to be answered, in milliseconds: the app's
 * budget of a request's database work (docs/deployment.md#stopping-the-server).
 */
const GRACE = 10_000

/** A server listening: its port, and how to stop it. */
export interface Listening {
  port: number
  /**
   * Stops accepting connections, answers the requests in flight (for at most GRACE, then closes
   * what is left), and resolves once they are answered. On Node, it first drains for `drain`
   * milliseconds (default closeGracefully's, 5,000): it serves on while `/ready` answers 503.
   * Called again during that drain, it ends the drain at once. Bun and Deno do not drain: called
   * again, it returns the first call's promise.
   */
  close(options?: { drain?: number }): Promise<void>
}

/*
 * What the example uses of Bun's and Deno's own servers, declared here rather than through their
 * type packages, which would bring every global of those runtimes into the Node type-check.
 */
interface NativeServer {
  port?: number
  /** Bun: stops accepting; resolves once the requests in flight are answered (`true`: drops them). */
  stop?(closeActiveConnections?: boolean): Promise<void> | undefined
  addr?: { port: number }
  /** Deno: stops accepting; resolves once the requests in flight are answered. */
  shutdown?(): Promise<void>
}
interface NativeRuntimes {
  Bun?: { serve(options: { port: number; fetch: Fetch }): NativeServer }
  Deno?: { serve(options: { port: number; onListen(): void }, handler: Fetch): NativeServer }
}

/**
 * Serves `fetch` on `port` (0: any free port) with the runtime's own server: `Bun.serve` on Bun,
 * `Deno.serve` on Deno, and on Node createHydraServer, which also answers as problems the requests
 * Node's HTTP parser refuses (docs/runtime-*.md). Resolves once the server listens.
 */
export function serve(fetch: Fetch, port: number): Promise<Listening> {
  const { Bun, Deno } = globalThis as NativeRuntimes
  const closing = closingAnswers(fetch)
  if (Bun) {
    const server = Bun.serve({ port, fetch: closing.fetch })
    return Promise.resolve({
      port: server.port ?? port,
      close: once(() =>
        closing.begin().then(() => withinGrace(server.stop?.(), () => server.stop?.(true)))
      ),
    })
  }
  if (Deno) {
    // `onListen` given: Deno prints nothing itself. The server listens once `serve` returns.
    const server = Deno.serve({ port, onListen: () => {} }, closing.fetch)
    return Promise.resolve({
      port: server.addr?.port ?? port,
      // Deno has no way to drop the requests left: the process's exit does.
      close: once(() => closing.begin().then(() => withinGrace(server.shutdown?.(), () => {}))),
    })
  }
  const server = createHydraServer(fetch)
  return new Promise((resolve) => {
    server.listen(port, () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: (options) => closeGracefully(server, { grace: GRACE, drain: options?.drain }),
      })
    )
  })
}

/** `close`, run on the first call only: each later call returns the first one's promise. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closed: Promise<void> | undefined
  return () => {
    closed ??= close()
    return closed
  }
}

/** Resolves once `stopping` does, or after GRACE, when `force` is called. */
function withinGrace(stopping: Promise<void> | undefined, force: () => unknown): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      force()
      resolve()
    }, GRACE)
    const done = () => {
      clearTimeout(timer)
      resolve()
    }
    Promise.resolve(stopping).then(done, done)
  })
}

/**
 * How long Bun's and Deno's servers answer with `Connection: close` before they stop, in
 * milliseconds: both close the connections kept alive at once when they stop, under the next
 * request a client may be sending on one; answered with `Connection: close` first, each client
 * leaves its connection and asks on a new one.
 */
const REUSE_WINDOW = 1_000

/** `fetch`, whose answers say `Connection: close` once `begin` is called; `begin` resolves later. */
function closingAnswers(fetch: Fetch): { fetch: Fetch; begin(): Promise<void> } {
  let stopping = false
  return {
    fetch: async (request) => {
      const response = await fetch(request)
      if (!stopping) return response
      const closing = new Response(response.body, response)
      closing.headers.set('Connection', 'close')
      return closing
    },
    begin: () => {
      stopping = true
      return new Promise((resolve) => setTimeout(resolve, REUSE_WINDOW))
    },
  }
}
