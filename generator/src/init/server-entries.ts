/**
 * `src/server.ts`: the generated app mounted under `/api`, served on Node.js by
 * `createHydraServer` and stopped by `closeGracefully` (docs/getting-started.md), or for Bun
 * (the default export's `fetch`) and Deno (`Deno.serve`) (docs/runtime-bun-deno.md).
 */

/** The Node.js server, importing the generated app from `hydraImport` (`./generated/hydra/index.js`). */
export function nodeServer(hydraImport: string): string {
  return `import type { AddressInfo } from 'node:net'
import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { closeGracefully, createHydraServer } from '@prisma-hydra/runtime/node'
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

// A deploy's SIGTERM (or Ctrl-C): answer every request in flight, then disconnect and exit
// (docs/deployment.md#stopping-the-server).
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, async () => {
    await closeGracefully(server)
    await prisma.$disconnect()
    process.exit(0)
  })
`
}

/**
 * The entry Bun runs (its default export's `fetch`) and Deno runs (`Deno.serve`), which stops
 * without losing a request: once SIGTERM or SIGINT comes, its answers say `Connection: close` for
 * a second, then the server stops once the requests in flight are answered and the process exits.
 * With `clientUrl`, src/prisma.ts exports the URL it opens (libsql's, `./dev.db` when
 * DATABASE_URL is unset), which the start-up check names.
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

/** What the entry uses of Bun's server (handed to \`fetch\`) and of Deno's (\`Deno.serve\`). */
interface NativeServer {
  stop?(): Promise<void>
  shutdown?(): Promise<void>
}
interface DenoServe {
  serve(options: { port: number }, handler: (request: Request) => Promise<Response>): NativeServer
}

// Stopping (SIGTERM from a deploy, Ctrl-C): from then on every answer says \`Connection: close\`,
// so that a client reusing its connection asks again on a new one instead of losing its next
// request to the close; a second later the server stops once the requests in flight are
// answered, the database is let go and the process exits.
let stopping = false
let server: NativeServer | undefined
async function answer(request: Request, served?: NativeServer): Promise<Response> {
  // Bun hands its server to each request; Deno's is the one Deno.serve returns below.
  if (typeof served?.stop === 'function') server = served
  const response = await app.fetch(request)
  if (!stopping) return response
  const closing = new Response(response.body, response)
  closing.headers.set('Connection', 'close')
  return closing
}
for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, async () => {
    stopping = true
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    await (server?.stop?.() ?? server?.shutdown?.())
    await prisma.$disconnect()
    process.exit(0)
  })

const port = Number(process.env.PORT ?? 3000)
// Deno (\`deno run\`) is served here; Bun (\`bun src/server.ts\`) serves the default export.
const { Deno } = globalThis as { Deno?: DenoServe }
if (Deno) server = Deno.serve({ port }, (request) => answer(request))
export default { port, fetch: answer }
`
}
