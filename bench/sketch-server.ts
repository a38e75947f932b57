/**
 * The sketch of an emitted response writer (bench/route-sketch.ts) as a server, for
 * bench/sketch-http.ts: `node --import tsx bench/sketch-server.ts <prisma|driver> <database url>`
 * (its rows through the Prisma client, or the floor's plain SQL on the driver). Prints
 * `listening <port>`, answers the IPC message `cpu` with its `process.cpuUsage()`, exits on `exit`,
 * as the servers of bench/peers-server.ts do.
 */
import { serve } from '@hono/node-server'
import { floorReads } from './peers-floor.js'
import { prismaFor } from './peers-server.js'
import { sketchedOnDriver, sketchedRoute } from './route-sketch.js'

const [reads, url] = process.argv.slice(2)
if (!url || (reads !== 'prisma' && reads !== 'driver'))
  throw new Error('usage: sketch-server.ts <prisma|driver> <database url>')
process.on('message', (message) => {
  if (message === 'cpu') process.send?.(process.cpuUsage())
  if (message === 'exit') process.exit(0)
})
const fetch =
  reads === 'prisma'
    ? sketchedRoute((await prismaFor(url)).prisma)
    : sketchedOnDriver(floorReads(url))
serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`listening ${info.port}\n`)
})
