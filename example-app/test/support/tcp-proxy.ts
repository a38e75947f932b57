/**
 * A TCP proxy in front of the database server, so a test can make the database fail the ways a
 * network does without touching the server: `freeze()` stops forwarding (bytes wait in the proxy,
 * as with a hung server or dropped packets), `cut()` destroys every connection and refuses new
 * ones (as with a server that went away), `resume()` restores normal service, and
 * `cutAtCommand(text)` destroys the next connection whose client sends `text`, as it sends it (a
 * connection lost in the middle of that command), and `slowOpen(milliseconds)` makes each new
 * connection reach the server that much later (a server slow to accept, as under load). Listens
 * on a free loopback port.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'

export interface TcpProxy {
  /** `host:port` of the proxy, to put in a database URL in place of the server's. */
  address: string
  freeze(): void
  cut(): void
  resume(): void
  /** Destroys the next connection whose client sends `text`; resolves once it did. */
  cutAtCommand(text: string): Promise<void>
  /** Opens each new connection to the server `milliseconds` after its client connected. */
  slowOpen(milliseconds: number): void
  /** Connections currently open through the proxy. */
  connections(): number
  close(): Promise<void>
}

type Mode = 'forward' | 'frozen' | 'cut'

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'forward'
  const pairs = new Set<[Socket, Socket]>()
  /** The command text a connection is cut at, and what to call once it was. */
  let cutAt: { text: string; done: () => void } | undefined

  /** How long a new connection waits before the proxy opens its own to the server. */
  let openDelay = 0

  const server: Server = createServer((client) => {
    if (mode === 'cut') {
      client.destroy()
      return
    }
    if (openDelay === 0) return open(client)
    client.pause()
    setTimeout(() => {
      if (client.destroyed) return
      client.resume()
      open(client)
    }, openDelay)
  })
  /** Forwards between `client` and a new connection to the server. */
  const open = (client: Socket) => {
    const upstream = connect(target.port, target.host)
    const pair: [Socket, Socket] = [client, upstream]
    pairs.add(pair)
    const drop = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
    // Bytes read while frozen wait here, in order, until the proxy resumes.
    const forward = (from: Socket, to: Socket) => {
      from.on('data', (chunk: Buffer) => {
        if (from === client && cutAt && chunk.includes(cutAt.text)) {
          const { done } = cutAt
          cutAt = undefined
          drop()
          done()
          return
        }
        if (mode === 'forward' && held.length === 0) to.write(chunk)
        else held.push([to, chunk])
      })
    }
    forward(client, upstream)
    forward(upstream, client)
  }
  let held: [Socket, Buffer][] = []

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }

  return {
    address: `127.0.0.1:${port}`,
    freeze() {
      mode = 'frozen'
    },
    cut() {
      mode = 'cut'
      for (const [client, upstream] of pairs) {
        client.destroy()
        upstream.destroy()
      }
      pairs.clear()
      held = []
    },
    resume() {
      mode = 'forward'
      const waiting = held
      held = []
      for (const [to, chunk] of waiting) if (!to.destroyed) to.write(chunk)
    },
    cutAtCommand: (text) =>
      new Promise<void>((done) => {
        cutAt = { text, done }
      }),
    slowOpen(milliseconds) {
      openDelay = milliseconds
    },
    connections: () => pairs.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const [client, upstream] of pairs) {
          client.destroy()
          upstream.destroy()
        }
        server.close(() => resolve())
      }),
  }
}
