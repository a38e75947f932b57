import { Agent, createServer, get, type Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { serverStopping } from '../hono/request/server-stop.js'
import { closeGracefully } from './close-gracefully.js'
import { createHydraServer } from './hydra-server.js'

const servers: Server[] = []

afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections()
})

/** A server answering `/slow` after `release` is called, and anything else at once. */
async function listening(): Promise<{ server: Server; port: number; release: () => void }> {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const app = new Hono()
    .get('/slow', async (c) => {
      await released
      return c.text('the whole answer')
    })
    // `/never`: never answered.
    .get('/never', () => new Promise<Response>(() => {}))
    // `/stopping`: whether the server told the app it is stopping, as readiness reads it.
    .get('/stopping', (c) => c.text(String(serverStopping(c.env))))
    .get('*', (c) => c.text('at once'))
  const server = createHydraServer(app.fetch)
  // Kept alive far longer than any test: a close that waited for it would time out.
  server.keepAliveTimeout = 120_000
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port, release }
}

/**
 * GET `path` on a kept-alive connection: its status, `Connection` header and body, or the code of
 * the error it failed with and whether its connection was one reused.
 */
function ask(port: number, path: string, agent: Agent): Promise<string> {
  return new Promise((resolve) => {
    const sent = get({ host: '127.0.0.1', port, path, agent, timeout: 5_000 }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString()
      })
      response.on('end', () =>
        resolve(`${response.statusCode} ${response.headers.connection} ${body}`)
      )
      response.on('error', (error) => resolve(error.message))
    })
    sent.on('timeout', () => sent.destroy(new Error('no answer in 5 s')))
    sent.on('error', (error: NodeJS.ErrnoException) =>
      resolve(`${error.code ?? error.message} on a ${sent.reusedSocket ? 'reused' : 'new'} socket`)
    )
  })
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

describe('closeGracefully', () => {
  it('answers a request in flight in full with Connection: close, then closes', async () => {
    const { server, port, release } = await listening()
    const agent = new Agent({ keepAlive: true })
    // One idle kept-alive connection, one busy.
    expect(await ask(port, '/', agent)).toBe('200 keep-alive at once')
    const slow = ask(port, '/slow', new Agent({ keepAlive: true }))
    await pause(50)
    let closed = false
    const closing = closeGracefully(server, { drain: 0 }).then(() => {
      closed = true
    })
    await pause(100)
    expect(closed).toBe(false)
    release()
    // Its client must not send another request on a connection about to close (RFC 9112 §9.6).
    expect(await slow).toBe('200 close the whole answer')
    await closing
    expect(server.listening).toBe(false)
  }, 10_000)

  it('answers a request that arrived but was not read yet when the stop began', async () => {
    const { server, port } = await listening()
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString()
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      received += ` ${error.code}`
    })
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
    const request = 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n'
    socket.write(request)
    while (!received.endsWith('at once')) await pause(10)
    // The next request reaches the server's socket; in the same turn, before the server reads it,
    // the stop begins: the connection looks idle to Node, but its request must be answered.
    socket.write(request, () => void closeGracefully(server, { drain: 0 }))
    await ended
    const answers = received.split('HTTP/1.1 ').slice(1)
    expect(answers, received).toHaveLength(2)
    expect(answers[1]).toMatch(/^200 OK\r\n[\s\S]*\r\n\r\nat once$/)
  }, 10_000)

  it('loses no request of keep-alive clients sending across the stop', async () => {
    const { server, port } = await listening()
    // Each client on a connection of its own, asking again as soon as it is answered, until a
    // request fails: once an answer says Connection: close, on a new connection, which the server
    // no longer listening refuses.
    const seen = Array.from({ length: 25 }, (): string[] => [])
    const clients = seen.map(async (answers) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      for (let asked = 0; asked < 10_000; asked++) {
        const answer = await ask(port, '/', agent)
        answers.push(answer.replace(/ at once$/, ''))
        if (!answer.startsWith('200 ')) break
      }
      agent.destroy()
    })
    // The stop begins once every client is answered, its connection kept alive.
    while (seen.some((answers) => answers.length === 0)) await pause(10)
    await closeGracefully(server, { drain: 0 })
    await Promise.all(clients)
    // Every request answered; the first answer written once stopping began closes its
    // connection, and only the request after it, on a new connection, is refused.
    const unexpected = seen.filter(
      (answers) =>
        !/^(200 keep-alive\n)+200 close\nECONNREFUSED on a new socket$/.test(answers.join('\n'))
    )
    expect(unexpected.map((answers) => answers.slice(-3))).toEqual([])
  }, 20_000)

  it('closes what is still open after its grace', async () => {
    const { server, port } = await listening()
    const never = ask(port, '/never', new Agent({ keepAlive: true }))
    await pause(50)
    await closeGracefully(server, { drain: 0, grace: 200 })
    expect(await never).toBe('ECONNRESET on a new socket')
  }, 10_000)

  it('drains first: serving kept-alive and new connections, the app told it stops', async () => {
    const { server, port } = await listening()
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    expect(await ask(port, '/stopping', agent)).toBe('200 keep-alive false')
    let closed = false
    // Long enough for three round trips on a loaded machine.
    const closing = closeGracefully(server, { drain: 3_000 }).then(() => {
      closed = true
    })
    expect(await ask(port, '/stopping', agent)).toBe('200 keep-alive true')
    expect(await ask(port, '/stopping', new Agent({ keepAlive: true }))).toBe('200 keep-alive true')
    expect([closed, server.listening]).toEqual([false, true])
    await closing
    expect(await ask(port, '/', new Agent())).toBe('ECONNREFUSED on a new socket')
  }, 10_000)

  it('ends the drain at once when called again during it', async () => {
    const { server, port } = await listening()
    const first = closeGracefully(server, { drain: 60_000 })
    expect(await ask(port, '/stopping', new Agent())).toBe('200 close true')
    const second = closeGracefully(server, { drain: 0 })
    await Promise.all([first, second])
    expect(await ask(port, '/', new Agent())).toBe('ECONNREFUSED on a new socket')
  }, 10_000)

  it('does not drain a server createHydraServer did not make: nothing there hears of it', async () => {
    const server = createServer((_, response) => response.end('at once'))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    void closeGracefully(server)
    // The stop begins in the same turn: the listener closes within two turns, not seconds later.
    await pause(200)
    expect(server.listening).toBe(false)
  }, 10_000)

  it('resolves at once for a server that does not listen', async () => {
    await closeGracefully(createServer())
  })
})
