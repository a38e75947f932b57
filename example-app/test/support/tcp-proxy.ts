/**
 * A TCP proxy in front of the database server, so a test can make the database fail the ways a
 * network does without touching the server: `freeze()` stops forwarding (bytes wait in the proxy,
 * as with a hung server or dropped packets), `cut()` destroys every connection and refuses new
 * ones (as with a server that went away), `resume()` restores normal service, and
 * `cutAtCommand(text)` destroys the next connection whose client sends `text`, as it sends it (a
 * connection lost in the middle of that command), and `slowOpen(milliseconds)` makes each new
 * connection reach the server that much later (a server slow to accept, as under load). Listens
 * on a free loopback port. `sentBeforeAnswer(first, second, bound)` tells whether a client sends
 * `second` before the server answers its `first` (two commands in one round trip), and
 * `slowAnswers(milliseconds)` makes every answer of the server reach its client that much later
 * (a server slow to answer, as when it is overloaded or far away).
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
  /**
   * Whether the next client to send `first` also sends `second` before the server's answer to
   * it: from `first` on, the server's bytes to that client wait in the proxy until the client
   * sends `second` (true) or `bound` milliseconds pass (false), then go on.
   */
  sentBeforeAnswer(first: string, second: string, bound: number): Promise<boolean>
  /**
   * Hands each of the server's bytes to its client `milliseconds` after the server sent them, in
   * order (0: at once again, once those already delayed went on).
   */
  slowAnswers(milliseconds: number): void
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
  /** How long the server's bytes wait in the proxy before they go on to their client. */
  let answerDelay = 0

  /**
   * sentBeforeAnswer's watch: the commands, its bound and what to call with its answer; once a
   * client sent `first`, that client and the server's bytes held for it meanwhile.
   */
  let watch:
    | {
        first: string
        second: string
        bound: number
        done: (sent: boolean) => void
        client?: Socket
        timer?: ReturnType<typeof setTimeout>
        held: Buffer[]
      }
    | undefined
  /** Ends `ended` if it is still the watch: the bytes held go on to their client; answers `sent`. */
  const endWatch = (ended: typeof watch, sent: boolean) => {
    if (!ended || ended !== watch) return
    watch = undefined
    clearTimeout(ended.timer)
    for (const chunk of ended.held)
      if (ended.client && !ended.client.destroyed) ended.client.write(chunk)
    ended.done(sent)
  }
  /** What `client` sent, as the watch reads it. */
  const watchSent = (client: Socket, chunk: Buffer) => {
    if (!watch) return
    if (watch.client === undefined) {
      const at = chunk.indexOf(watch.first)
      if (at < 0) return
      const started = watch
      started.client = client
      started.timer = setTimeout(() => endWatch(started, false), started.bound)
      if (chunk.indexOf(started.second, at + started.first.length) >= 0) endWatch(started, true)
    } else if (watch.client === client && chunk.includes(watch.second)) endWatch(watch, true)
  }
  /** Whether the server's `chunk` to `client` waits for the watch's end (it is kept then). */
  const heldForWatch = (client: Socket, chunk: Buffer) => {
    if (watch?.client !== client) return false
    watch.held.push(chunk)
    return true
  }

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
      clearTimeout(slowTimer)
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
    // The server's bytes waiting for `answerDelay`, each with the time it goes on, in order.
    const slow: { due: number; chunk: Buffer }[] = []
    let slowTimer: ReturnType<typeof setTimeout> | undefined
    const sendDue = () => {
      slowTimer = undefined
      while (slow.length > 0 && (slow[0]?.due ?? 0) <= Date.now()) {
        const { chunk } = slow.shift() as { chunk: Buffer }
        if (!client.destroyed) client.write(chunk)
      }
      const next = slow[0]
      if (next) slowTimer = setTimeout(sendDue, next.due - Date.now())
    }
    /** Whether the server's `chunk` waits for `answerDelay` (it is kept then). */
    const heldForDelay = (chunk: Buffer) => {
      if (answerDelay === 0 && slow.length === 0) return false
      slow.push({ due: Math.max(Date.now() + answerDelay, slow.at(-1)?.due ?? 0), chunk })
      slowTimer ??= setTimeout(sendDue, (slow[0]?.due ?? 0) - Date.now())
      return true
    }
    // Bytes read while frozen wait here, in order, until the proxy resumes.
    const forward = (from: Socket, to: Socket) => {
      from.on('data', (chunk: Buffer) => {
        if (from === client) watchSent(client, chunk)
        else if (heldForWatch(client, chunk)) return
        if (from === client && cutAt && chunk.includes(cutAt.text)) {
          const { done } = cutAt
          cutAt = undefined
          drop()
          done()
          return
        }
        if (mode === 'forward' && held.length === 0) {
          if (from === upstream && heldForDelay(chunk)) return
          to.write(chunk)
        } else held.push([to, chunk])
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
    slowAnswers(milliseconds) {
      answerDelay = milliseconds
    },
    sentBeforeAnswer: (first, second, bound) =>
      new Promise<boolean>((done) => {
        watch = { first, second, bound, done, held: [] }
      }),
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
