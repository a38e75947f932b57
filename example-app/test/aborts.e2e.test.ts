/**
 * Clients that leave a streamed collection before its end (an ordinary event for a server): the
 * stream stops reading, writes nothing more, and nothing is logged.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, get, startServer, type TestDatabase } from './support/harness.js'

const CLIENTS = 300

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let database: TestDatabase

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  // Batches of 2: the 75 loans stream in 38 batches, so clients leave between batches.
  ;({ origin, close } = await startServer(createApp(prisma, { batchSize: 2 }).fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

/** Starts reading the whole collection, then leaves after `chunks` chunks. */
function leaveAfter(chunks: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${origin}/loans?pagination=false`, (response) => {
      let seen = 0
      response.on('data', () => {
        if (++seen === chunks) {
          outgoing.destroy()
          resolve()
        }
      })
      response.on('end', resolve)
    })
    outgoing.on('error', (error) => (outgoing.destroyed ? resolve() : reject(error)))
    outgoing.end()
  })
}

it(`${CLIENTS} clients leaving streams midway: nothing logged, the server serves on`, async () => {
  const spies = (['error', 'warn', 'info', 'log'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation(() => {})
  )
  try {
    for (let i = 0; i < CLIENTS; i += 30) {
      await Promise.all(Array.from({ length: 30 }, (_, j) => leaveAfter(1 + ((i + j) % 5))))
    }
    // Streams cancelled mid-read finish their batch after the client left.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const logged = spies.flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(' ')))
    expect(logged).toEqual([])
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
  const whole = await get(origin, '/loans?pagination=false')
  expect(whole.status).toBe(200)
  expect(whole.body['hydra:member']).toHaveLength(75)
})
