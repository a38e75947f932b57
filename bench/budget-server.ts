/**
 * The server of bench/budget-load.ts: the example app (its generated code for the database's
 * provider, picked by Node's `--conditions`), with its default budget (10 s), over the database of
 * `process.argv[2]`, which it prepares (schema and seed) first. Prints `listening <port>`.
 */
import { createHydraServer } from '@prisma-hydra/runtime/node'
import { createApp } from '../example-app/src/app.js'
import { prepareDatabase } from '../example-app/src/database.js'
import { createPrismaClient } from '../example-app/src/prisma.js'

const url = process.argv[2]
if (!url) throw new Error('usage: budget-server.ts <database url>')
const prisma = createPrismaClient(url)
await prepareDatabase(prisma, url)
const server = createHydraServer(createApp(prisma).fetch)
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  if (address && typeof address === 'object') console.log(`listening ${address.port}`)
})
