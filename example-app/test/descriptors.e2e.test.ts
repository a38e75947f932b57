/**
 * A file-backed custom collection (the example's `/releases`, read line by line from a feed file)
 * closes its file on every early exit: a partial page known before the end of the file, a whole
 * collection streamed to a client that goes away. Counted in the process's open descriptors
 * (/proc/self/fd) after 2,000 such requests.
 */
import { readdirSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createCollectionsApp } from '../src/collections.js'
import { startServer } from './support/harness.js'

const REQUESTS = 2000

let origin: string
let close: () => Promise<void>

beforeAll(async () => {
  // `/releases` reads its file only: the client is never used.
  const app = createCollectionsApp({} as PrismaClient)
  ;({ origin, close } = await startServer(app.fetch))
})

afterAll(async () => {
  await close?.()
})

const openDescriptors = () => readdirSync('/proc/self/fd').length

/** A page read to its end. */
async function page(agent: Agent, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpRequest(`${origin}${path}`, { agent }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
      .on('error', reject)
      .end()
  })
}

/** A streamed collection the client leaves after its first bytes. */
async function abandoned(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${origin}${path}`, (response) => {
      response.once('data', () => {
        outgoing.destroy()
        resolve()
      })
    })
    outgoing.on('error', (error) => {
      if (outgoing.destroyed) resolve()
      else reject(error)
    })
    outgoing.end()
  })
}

it.skipIf(process.platform !== 'linux')(
  `${REQUESTS} early-stopped pages of a file-backed collection leave no descriptor open`,
  async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 4 })
    // Warm up (module loading, the server's first sockets) before counting.
    await page(agent, '/releases')
    const before = openDescriptors()
    const paths = ['/releases', '/releases?page=2', '/releases?page=3&partial=true']
    for (let i = 0; i < REQUESTS; i += 10) {
      const batch = Array.from({ length: 10 }, (_, j) =>
        (i + j) % 10 === 9
          ? abandoned('/releases?pagination=false').then(() => 200)
          : page(agent, paths[(i + j) % paths.length] as string)
      )
      for (const status of await Promise.all(batch)) expect(status).toBe(200)
    }
    agent.destroy()
    // Sockets and files close on their own events: give them a moment.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const after = openDescriptors()
    process.stdout.write(
      `descriptors: ${before} open before ${REQUESTS} early-stopped requests, ${after} after\n`
    )
    expect(after).toBeLessThanOrEqual(before)
  },
  120000
)
