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
   * what is left), and resolves once they are answered.
   */
  close(): Promise<void>
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
  if (Bun) {
    const server = Bun.serve({ port, fetch })
    return Promise.resolve({
      port: server.port ?? port,
      close: () => withinGrace(server.stop?.(), () => server.stop?.(true)),
    })
  }
  if (Deno) {
    // `onListen` given: Deno prints nothing itself. The server listens once `serve` returns.
    const server = Deno.serve({ port, onListen: () => {} }, fetch)
    return Promise.resolve({
      port: server.addr?.port ?? port,
      // Deno has no way to drop the requests left: the process's exit does.
      close: () => withinGrace(server.shutdown?.(), () => {}),
    })
  }
  const server = createHydraServer(fetch)
  return new Promise((resolve) => {
    server.listen(port, () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => closeGracefully(server, { grace: GRACE }),
      })
    )
  })
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
