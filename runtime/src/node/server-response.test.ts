import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraServer } from './hydra-server.js'
import { HydraServerResponse } from './server-response.js'

/** The status and raw headers (names in lower case) of a GET of `path`. */
function head(port: number, path: string): Promise<{ status: number; headers: string[] }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      response.resume()
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.rawHeaders
            .filter((_, index) => index % 2 === 0)
            .map((name) => name.toLowerCase()),
        })
      )
    })
    sent.on('error', reject)
    sent.end()
  })
}

const app = new Hono()
  .get('/unchanged', (c) => c.body(null, 304, { ETag: '"a"', Vary: 'Accept' }))
  .get('/typed', (c) => c.body(null, 304, { ETag: '"a"', 'Content-Type': 'text/html' }))
  .get('/empty', (c) => c.body(null, 204))
  .get('/page', (c) => c.json({ a: 1 }))

const server = createHydraServer(app.fetch)
let port: number

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('createHydraServer', () => {
  it('sends a 304 without Content-Type, with the headers the app gave it', async () => {
    for (const path of ['/unchanged', '/typed']) {
      const answer = await head(port, path)
      expect([path, answer.status]).toEqual([path, 304])
      expect(answer.headers).not.toContain('content-type')
      expect(answer.headers).toContain('etag')
    }
    expect((await head(port, '/unchanged')).headers).toContain('vary')
  })

  it('drops Content-Type from a 304 written with a list of names and values', async () => {
    const listed = createServer({ ServerResponse: HydraServerResponse }, (_, response) => {
      response.writeHead(304, ['Content-Type', 'text/plain', 'ETag', '"a"']).end()
    })
    await new Promise<void>((resolve) => listed.listen(0, '127.0.0.1', resolve))
    try {
      const answer = await head((listed.address() as AddressInfo).port, '/')
      expect(answer.status).toBe(304)
      expect(answer.headers).toContain('etag')
      expect(answer.headers).not.toContain('content-type')
    } finally {
      await new Promise<void>((resolve) => listed.close(() => resolve()))
    }
  })

  it('leaves the type of other answers as the adapter writes it', async () => {
    expect((await head(port, '/page')).headers).toContain('content-type')
    expect((await head(port, '/empty')).status).toBe(204)
  })
})
