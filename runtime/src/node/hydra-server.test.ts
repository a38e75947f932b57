import { mkdtemp, rm } from 'node:fs/promises'
import type { Server } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { createHydraServer } from './hydra-server.js'

const opened: Array<() => Promise<void>> = []

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close()
})

/** A server of `createHydraServer` on a Unix socket, answering each request with its URL. */
async function onUnixSocket(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'hydra-server-'))
  opened.push(() => rm(folder, { recursive: true, force: true }))
  const socket = path.join(folder, 'http.sock')
  const server: Server = createHydraServer(new Hono().get('*', (c) => c.text(c.req.url)).fetch)
  opened.push(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  await new Promise<void>((resolve) => server.listen(socket, resolve))
  return socket
}

/** Sends `request` raw on the Unix socket at `socket`; what the server wrote before it closed. */
function exchange(socket: string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = ''
    const client = connect(socket)
    client.setTimeout(5_000, () => client.destroy(new Error(`no answer: ${received}`)))
    client.on('data', (chunk: Buffer) => {
      received += chunk.toString()
    })
    client.on('error', reject)
    client.on('close', () => resolve(received))
    client.end(request)
  })
}

describe('createHydraServer', () => {
  it('serves an HTTP/1.0 request without Host on a Unix socket as localhost', async () => {
    const socket = await onUnixSocket()
    const answer = await exchange(socket, 'GET /ready HTTP/1.0\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(answer.split('\r\n\r\n')[1]).toBe('http://localhost/ready')
  }, 10_000)
})
