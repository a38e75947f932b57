/**
 * The server bench/fairness.ts measures, one process per mode:
 *
 *   node --import tsx bench/fairness-server.ts <database url> yield|no-yield
 *
 * The generated app on SQLite; `no-yield` turns off the pause streamed responses take between
 * batches (`streamYield: false`), to measure what the pause buys in the same run. Prints
 * `listening <port>` once ready.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { createHydraApp } from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'

const [url, mode] = process.argv.slice(2)
if (!url || (mode !== 'yield' && mode !== 'no-yield'))
  throw new Error('usage: fairness-server.ts <database url> yield|no-yield')

const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
const server = createServer(
  getRequestListener(createHydraApp({ prisma, streamYield: mode === 'yield' }).fetch)
)
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`)
})
