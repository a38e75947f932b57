/** A fetch handler served over HTTP on a port of its own, for the tests to ask. */
import { serve } from '@hono/node-server'

/** A server listening: its origin, and how to stop it. */
export interface Listening {
  origin: string
  close: () => Promise<void>
}

/** `fetch` served on 127.0.0.1, on a free port. */
export function listen(
  fetch: (request: Request) => Response | Promise<Response>
): Promise<Listening> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        close: () => new Promise((done) => server.close(() => done())),
      })
    )
  })
}
