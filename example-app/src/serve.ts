import type { AddressInfo } from 'node:net'
import { createHydraServer } from '@prisma-hydra/runtime/node'

/** A Hono app's `fetch`. */
export type Fetch = (request: Request) => Response | Promise<Response>

/** A server listening: its port, and how to stop it. */
export interface Listening {
  port: number
  close(): Promise<void>
}

/*
 * What the example uses of Bun's and Deno's own servers, declared here rather than through their
 * type packages, which would bring every global of those runtimes into the Node type-check.
 */
interface NativeServer {
  port?: number
  stop?(): unknown
  addr?: { port: number }
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
    return Promise.resolve({ port: server.port ?? port, close: async () => void server.stop?.() })
  }
  if (Deno) {
    // `onListen` given: Deno prints nothing itself. The server listens once `serve` returns.
    const server = Deno.serve({ port, onListen: () => {} }, fetch)
    return Promise.resolve({
      port: server.addr?.port ?? port,
      close: () => server.shutdown?.() ?? Promise.resolve(),
    })
  }
  const server = createHydraServer(fetch)
  return new Promise((resolve) => {
    server.listen(port, () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise((done) => server.close(() => done())),
      })
    )
  })
}
