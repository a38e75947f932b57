import { Agent, createServer, get, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { closeGracefully } from './close-gracefully.js'

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
  const server = createServer((request, response) => {
    if (request.url === '/slow') void released.then(() => response.end('the whole answer'))
    // `/never`: never answered.
    else if (request.url !== '/never') response.end('at once')
  })
  // Kept alive far longer than any test: a close that waited for it would time out.
  server.keepAliveTimeout = 120_000
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port, release }
}

/** GET `path` on a kept-alive connection; its status and body, or the error it failed with. */
function ask(port: number, path: string, agent: Agent): Promise<string> {
  return new Promise((resolve) => {
    get({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString()
      })
      response.on('end', () => resolve(`${response.statusCode} ${body}`))
      response.on('error', (error) => resolve(error.message))
    }).on('error', (error) => resolve(error.message))
  })
}

describe('closeGracefully', () => {
  it('answers a request in flight in full, then closes its kept-alive connection', async () => {
    const { server, port, release } = await listening()
    const agent = new Agent({ keepAlive: true })
    // One idle kept-alive connection, one busy.
    expect(await ask(port, '/', agent)).toBe('200 at once')
    const slow = ask(port, '/slow', new Agent({ keepAlive: true }))
    await new Promise((resolve) => setTimeout(resolve, 50))
    let closed = false
    const closing = closeGracefully(server).then(() => {
      closed = true
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(closed).toBe(false)
    release()
    expect(await slow).toBe('200 the whole answer')
    await closing
    expect(server.listening).toBe(false)
  }, 10_000)

  it('closes what is still open after its grace', async () => {
    const { server, port } = await listening()
    const never = ask(port, '/never', new Agent({ keepAlive: true }))
    await new Promise((resolve) => setTimeout(resolve, 50))
    await closeGracefully(server, { grace: 200 })
    expect(await never).toBe('socket hang up')
  }, 10_000)

  it('resolves at once for a server that does not listen', async () => {
    await closeGracefully(createServer())
  })
})
