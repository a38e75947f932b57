/**
 * The server bench/memory.ts measures, one fresh process per measurement:
 *
 *   node --import tsx bench/memory-server.ts <database url>
 *
 * Serves the generated app (`/events/all`: paging disabled, streamed in keyset batches) and, for
 * comparison, `/buffered`: the same rows read with one `findMany` and written with one
 * `JSON.stringify`, as a server without D5 would; and `/read-only`: the same keyset batches as the
 * streamed response, read through Prisma and emptied as the streamed response empties them once
 * written (`releaseBatch`), so the cost of the reads alone shows; `/read-only?kept`: the same reads
 * with each batch dropped as the client returned it, so the cost of not emptying them shows.
 * `/peak` reports the process's peak resident set
 * size so far (`process.resourceUsage().maxRSS`). Prints `listening <port>` once ready.
 */
import { serve } from '@hono/node-server'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { Hono } from 'hono'
// The runtime's batch reader and its release, measured here without the response around them.
// No entry exports them, nor should: the main entry is what applications write (40 names at
// most), /generated what generated modules import, /defaults what the generator shares.
import { readInBatches, releaseBatch } from '../runtime/src/paging/batches.js'
import {
  createHydraApp,
  eventOperations,
  eventResource,
  eventSelect,
} from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'

const url = process.argv[2]
if (!url) throw new Error('usage: memory-server.ts <database url>')

const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
const app = new Hono()
  .route('/', createHydraApp({ prisma }))
  .get('/buffered', async (c) => {
    const rows = await prisma.event.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })
    const members = rows.map((row) => eventResource.toMember(row, ''))
    return c.body(
      JSON.stringify({
        '@context': '/contexts/Event',
        '@id': '/buffered',
        '@type': 'hydra:Collection',
        'hydra:totalItems': members.length,
        'hydra:member': members,
      }),
      200,
      { 'Content-Type': 'application/ld+json; charset=utf-8' }
    )
  })
  .get('/read-only', async (c) => {
    const order = [{ createdAt: 'desc' }, { id: 'desc' }] as const
    const source = {
      findMany: ({
        backward: _,
        ...window
      }: {
        backward?: boolean
        skip?: number
        take?: number
        where?: object
      }) => prisma.event.findMany({ select: eventSelect, orderBy: [...order], ...window }),
      count: () => prisma.event.count(),
    }
    const kept = c.req.query('kept') !== undefined
    let rows = 0
    for await (const batch of readInBatches(source, eventOperations.all.orderKey)) {
      rows += batch.length
      if (!kept) releaseBatch(batch)
    }
    return c.json({ 'hydra:totalItems': rows })
  })
  .get('/peak', (c) => c.json({ maxRssKiB: process.resourceUsage().maxRSS }))

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`listening ${info.port}\n`)
})
