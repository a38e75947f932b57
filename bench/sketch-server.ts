/**
 * The sketch of an emitted response writer (bench/route-sketch.ts) as a server, for
 * bench/sketch-http.ts: `node --import tsx bench/sketch-server.ts <database url>`. Prints
 * `listening <port>`, answers the IPC message `cpu` with its `process.cpuUsage()`, exits on `exit`,
 * as the servers of bench/peers-server.ts do.
 */
import { serve } from '@hono/node-server'
import { prismaFor } from './peers-server.js'
import { sketchedRoute } from './route-sketch.js'

const [url] = process.argv.slice(2)
if (!url) throw new Error('usage: sketch-server.ts <database url>')
process.on('message', (message) => {
  if (message === 'cpu') process.send?.(process.cpuUsage())
  if (message === 'exit') process.exit(0)
})
const { prisma } = await prismaFor(url)
serve({ fetch: sketchedRoute(prisma), port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`listening ${info.port}\n`)
})
