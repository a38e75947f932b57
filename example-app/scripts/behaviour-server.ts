// The server `scripts/behaviour.mjs` records: the example app (src/app.ts) on the database
// DATABASE_URL names, seeded like `npm start` seeds it, served twice on free ports: as it is, and
// mounted under /api in a parent app with the error and not-found handlers a user adds there.
// Prints one line `behaviour root=<origin> api=<origin>` once both listen.
import { serve } from '@hono/node-server'
import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'

const url = process.env.DATABASE_URL
if (!url) throw new Error('DATABASE_URL is required')
const prisma = createPrismaClient(url)
await prepareDatabase(prisma, url)

// BEHAVIOUR_ENGINE=compiled records the compiled engine's answers (they must be the same).
const engine = process.env.BEHAVIOUR_ENGINE === 'compiled' ? ('compiled' as const) : undefined
const options = engine ? { engine } : {}
const mounted = new Hono().route('/api', createApp(prisma, options))
mounted.onError(hydraErrorHandler)
mounted.notFound(hydraNotFound)

function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<string> {
  return new Promise((resolve) => {
    serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve(`http://127.0.0.1:${info.port}`)
    )
  })
}

const root = await listen(createApp(prisma, options).fetch)
const api = await listen(mounted.fetch)
process.stdout.write(`behaviour root=${root} api=${api}\n`)
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => void prisma.$disconnect().then(() => process.exit(0)))
}
