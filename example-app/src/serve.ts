import { type AddressInfo, connect } from 'node:net'
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
   * Drains for `drain` milliseconds (default 5,000, closeGracefully's): it serves on as before,
   * while `/ready` answers 503 (told by the app on Bun and Deno: src/main.ts). Then it stops
   * accepting connections, answers the requests in flight (for at most GRACE, then closes what is
   * left), and resolves once they are answered. Called again during that drain, it ends the drain
   * at once; later, it returns the first call's promise.
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
    const listening = server.port ?? port
    return Promise.resolve({
      port: listening,
      close: drainThenStop(async () => {
        await closing.begin()
        const stopped = withinGrace(server.stop?.(), () => server.stop?.(true))
        await listensNoMore(listening)
        closing.release()
        await stopped
      }),
    })
  }
  if (Deno) {
    // `onListen` given: Deno prints nothing itself. The server listens once `serve` returns.
    const server = Deno.serve({ port, onListen: () => {} }, closing.fetch)
    const listening = server.addr?.port ?? port
    return Promise.resolve({
      port: listening,
      close: drainThenStop(async () => {
        await closing.begin()
        // Deno has no way to drop the requests left: the process's exit does.
        const stopped = withinGrace(server.shutdown?.(), () => {})
        await listensNoMore(listening)
        closing.release()
        await stopped
      }),
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

/** The drain of Bun's and Deno's servers when none is given: closeGracefully's on Node. */
const DRAIN = 5_000

/**
 * A close of Bun's or Deno's server: it waits out the drain (ended at once by a later call), then
 * runs `stop` once; each later call returns the first one's promise.
 */
function drainThenStop(stop: () => Promise<void>): Listening['close'] {
  let closed: Promise<void> | undefined
  let endDrain = () => {}
  return (options) => {
    if (closed) {
      endDrain()
      return closed
    }
    const drain = options?.drain ?? DRAIN
    const drained = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, drain))
      endDrain = () => {
        clearTimeout(timer)
        resolve()
      }
    })
    closed = drained.then(stop)
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

/**
 * How long, in milliseconds, the answers are held before Bun's and Deno's servers stop: both
 * close, with the listener, a connection they have accepted but read no request of yet, and reset
 * one not yet accepted. Held, each client waits for its answer on a connection whose request is
 * in flight, which the stop waits for, and opens none meanwhile; the answers go once the server
 * listens no more, and each client's next connection is refused.
 */
const HOLD = 200

/**
 * `fetch`, whose answers say `Connection: close` once `begin` is called, and from the end of the
 * window it waits out are held until `release`.
 */
function closingAnswers(fetch: Fetch): {
  fetch: Fetch
  begin(): Promise<void>
  release(): void
} {
  let stopping = false
  let release = () => {}
  let held: Promise<void> | undefined
  return {
    fetch: async (request) => {
      const response = await fetch(request)
      if (!stopping) return response
      await held
      const closing = new Response(response.body, response)
      closing.headers.set('Connection', 'close')
      return closing
    },
    begin: async () => {
      stopping = true
      await pause(REUSE_WINDOW)
      held = new Promise((resolve) => {
        release = resolve
      })
      await pause(HOLD)
    },
    release: () => release(),
  }
}

const pause = (milliseconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, milliseconds))

/**
 * Resolves once nothing accepts connections on `port` of the loopback interface any more (Bun's
 * and Deno's stop closes the listener without saying when), or after a second.
 */
async function listensNoMore(port: number): Promise<void> {
  for (const deadline = Date.now() + 1_000; Date.now() < deadline; await pause(10)) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(false)
      })
      socket.once('error', () => resolve(true))
    })
    if (refused) return
  }
}
