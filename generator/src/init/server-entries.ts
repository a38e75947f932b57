/**
 * `src/server.ts`: the generated app mounted under `/api`, served on Node.js by
 * `createHydraServer` (docs/getting-started.md), or exported as `{ port, fetch }` for Bun and
 * `deno serve` (docs/runtime-bun-deno.md).
 */

/** The Node.js server, importing the generated app from `hydraImport` (`./generated/hydra/index.js`). */
export function nodeServer(hydraImport: string): string {
  return `import type { AddressInfo } from 'node:net'
import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { createHydraServer } from '@prisma-hydra/runtime/node'
import { Hono } from 'hono'
import { createHydraApp } from '${hydraImport}'
import { prisma } from './prisma.js'

const app = new Hono().route('/api', createHydraApp({ prisma }))
app.notFound(hydraNotFound) // problem+json 404s outside the generated routes too
app.onError(hydraErrorHandler) // and problems for errors of your own middleware

// The problems the server answers itself (a request Node refuses) point under /api too.
const server = createHydraServer(app.fetch, { base: '/api' })
server.listen(Number(process.env.PORT ?? 3000), () => {
  const { port } = server.address() as AddressInfo
  console.log(\`Listening on http://localhost:\${port}/api\`)
})
`
}

/**
 * The entry Bun runs and `deno serve` serves: a module whose default export has `fetch`. With
 * `clientUrl`, src/prisma.ts exports the URL it opens (libsql's, `./dev.db` when DATABASE_URL is
 * unset), which the start-up check names.
 */
export function fetchServer(hydraImport: string, clientUrl: boolean): string {
  const check = clientUrl
    ? `import { prisma, url } from './prisma.js'

// A database that cannot be used stops the start with one line: its URL (the one the client
// opens, ./dev.db when DATABASE_URL is unset) and the reason.
await checkDatabase(prisma, { url }).catch((error: Error) => {`
    : `import { prisma } from './prisma.js'

// A database that cannot be used stops the start with one line: its URL and the reason.
await checkDatabase(prisma, { url: process.env.DATABASE_URL }).catch((error: Error) => {`
  return `import { checkDatabase, hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import { createHydraApp } from '${hydraImport}'
${check}
  console.error(error.message)
  process.exit(1)
})
const app = new Hono().route('/api', createHydraApp({ prisma }))
app.notFound(hydraNotFound)
app.onError(hydraErrorHandler)

export default { port: Number(process.env.PORT ?? 3000), fetch: app.fetch }
`
}
