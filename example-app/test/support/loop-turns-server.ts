/**
 * The server of test/loop-turns.e2e.test.ts, in a process of its own (its event loop is the one
 * under test): the example app over the SQLite file DATABASE_URL, three times over one client:
 * under `/load` with a budget no load reaches (60 s), under `/prisma` and `/compiled` (each
 * engine) with PROBE_BUDGET milliseconds and a `Retry-After` of RETRY_AFTER seconds. Prints
 * `listening on <port>` once it listens.
 */
import { Hono } from 'hono'
import { createApp } from '../../src/app.js'
import { createPrismaClient } from '../../src/prisma.js'
import { serve } from '../../src/serve.js'

const url = process.env.DATABASE_URL
if (!url?.startsWith('file:')) throw new Error('DATABASE_URL must name a SQLite file')
const prisma = createPrismaClient(url)
const probe = {
  query: Number(process.env.PROBE_BUDGET),
  retryAfter: Number(process.env.RETRY_AFTER),
}
const app = new Hono()
  .route('/load', createApp(prisma, { timeouts: { query: 60_000 } }))
  .route('/prisma', createApp(prisma, { timeouts: probe }))
  .route('/compiled', createApp(prisma, { timeouts: probe, engine: 'compiled' }))
const server = await serve(app.fetch, 0)
process.stdout.write(`listening on ${server.port}\n`)
process.on('SIGTERM', () => {
  void server.close()
  void prisma.$disconnect().then(() => process.exit(0))
})
