import { checkDatabase, DatabaseUnreachable } from '@prisma-hydra/runtime'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { redisCountStore } from '@prisma-hydra/runtime/redis'
import { createClient } from 'redis'
import type { PrismaClient } from '#generated/prisma/client.js'
import { DRIVER_TIMEOUTS, pooledUrl } from './adapter.js'
import { createApp, exampleCollectionPaths } from './app.js'
import { DEFAULT_JWT_SECRET } from './auth.js'
import { prepareDatabase } from './database.js'
import { pooledLimitsWarning } from './pooler.js'
import { createPrismaClient, DEFAULT_DATABASE_URL } from './prisma.js'
import { serve } from './serve.js'

const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL
const port = Number(process.env.PORT ?? 3000)
/** A comma-separated list of the environment, trimmed; undefined when the variable is unset. */
const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
/** Browser origins (comma-separated) allowed to read the API, such as the admin page's. */
const cors = list(process.env.CORS_ORIGINS)
/** The hosts the API answers for (comma-separated); by default this machine's only. */
const allowedHosts = list(process.env.ALLOWED_HOSTS)
/** Read replicas of DATABASE_URL (comma-separated URLs), read instead of it (docs/deployment.md). */
const replicaUrls = list(process.env.DATABASE_REPLICA_URLS) ?? []

/** The URL without its password, for the banner. */
function shown(url: string): string {
  if (url.startsWith('file:')) return url
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}

/**
 * The client of `url`, checked (docs/deployment.md#start-up-check), its schema pushed and its
 * empty tables seeded; else the start stops with one line naming the database and the reason
 * (a wrong URL, a server that is down, a file that is no database), on every runtime, in place
 * of a failure per request or the runtime's report of an uncaught error.
 */
async function openDatabase(): Promise<{ prisma: PrismaClient; seeded: string[] }> {
  try {
    const prisma = createPrismaClient(url)
    await checkDatabase(prisma, { url })
    // Behind a pooler (pgbouncer=true), the limits are the server's: said when not in force.
    const warning = pooledUrl(url) ? await pooledLimitsWarning(prisma, DRIVER_TIMEOUTS) : undefined
    if (warning) process.stderr.write(`${warning}\n`)
    // The schema is pushed on a connection of its own: DIRECT_DATABASE_URL, past the pooler.
    return { prisma, ...(await prepareDatabase(prisma, process.env.DIRECT_DATABASE_URL ?? url)) }
  } catch (error) {
    process.stderr.write(`${DatabaseUnreachable.of(error, { url }).message}\n`)
    process.exit(1)
  }
}

const { prisma, seeded } = await openDatabase()
const replicas = replicaUrls.map((replica) => createPrismaClient(replica))
// `cached` totals shared with the other instances through Redis (docs/deployment.md#shared-totals):
// commands fail at once while the client is disconnected and take at most 250 ms otherwise;
// meanwhile each instance counts on its own. A Redis that is down at start is not waited for.
const redis = process.env.REDIS_URL
  ? createClient({
      url: process.env.REDIS_URL,
      disableOfflineQueue: true,
      commandOptions: { timeout: 250 },
      socket: {
        connectTimeout: 2000,
        reconnectStrategy: (retries) => Math.min(retries * 100, 2000),
      },
    })
  : undefined
const totalsStore = redis ? redisCountStore(redis) : undefined
redis?.connect().catch(() => {})
/**
 * The stop a signal began, if any (see `stop` below): `/ready` answers 503 from then on, on Bun
 * and Deno too, whose servers cannot tell it as Node's does (docs/deployment.md#stopping-the-server).
 */
let stopping: 'drain' | 'now' | undefined
const app = createApp(prisma, {
  stopping: () => stopping !== undefined,
  ...(replicas.length > 0 ? { replicas } : {}),
  ...(totalsStore ? { totalsStore } : {}),
  ...(cors ? { cors } : {}),
  // The public origin of the API's absolute IRIs (docs/deployment.md), or trust a proxy's
  // X-Forwarded-Proto / X-Forwarded-Host.
  ...(process.env.API_BASE_URL ? { baseUrl: process.env.API_BASE_URL } : {}),
  ...(process.env.TRUST_PROXY === '1' ? { trustProxy: true } : {}),
  ...(allowedHosts ? { allowedHosts } : {}),
  // HYDRA_ENGINE=compiled: the generated reads as SQL on the client's adapter (docs/performance.md).
  ...(process.env.HYDRA_ENGINE === 'compiled' ? { engine: 'compiled' as const } : {}),
  // Loans are private (src/auth.ts): bearer tokens signed with JWT_SECRET (`npm run token`).
  auth: { secret: process.env.JWT_SECRET ?? DEFAULT_JWT_SECRET },
  // Documents over 1 KB go gzip- or deflate-compressed to clients that accept it
  // (docs/operations.md#compression).
  compression: { threshold: 1024 },
  // Tools for agents at /mcp, read as the caller the token names (docs/mcp.md).
  mcp: hydraMcp(),
})
// On Node, requests its adapter cannot read (a backslash in the path) are answered as problems
// too, and so are those its HTTP parser refuses (raw UTF-8 in the URL, a head over 16 KB, no
// Host); Bun and Deno serve with their own servers (src/serve.ts, docs/runtime-*.md).
const server = await serve(app.fetch, port)
{
  const origin = `http://localhost:${server.port}`
  process.stdout.write(
    [
      `prisma-hydra example app on ${origin} (database ${shown(url)}${seeded.length > 0 ? `, seeded: ${seeded.join(', ')}` : ''}${replicas.length > 0 ? `, read replicas: ${replicaUrls.map(shown).join(', ')}` : ''}${process.env.REDIS_URL ? `, cached totals in Redis at ${shown(process.env.REDIS_URL)}` : ''})`,
      'Try:',
      `  curl ${origin}/              # the Hydra entrypoint; /docs.jsonld documents the API`,
      `  curl ${origin}/openapi.json  # the OpenAPI 3.1 document; ${origin}/docs shows it`,
      ...exampleCollectionPaths.map((path) => `  curl ${origin}${path}`),
      `  curl '${origin}/books?page=2'`,
      `  curl '${origin}/books?itemsPerPage=25&page=2'`,
      `  curl -H "Authorization: Bearer $(npm run -s token -- librarian)" '${origin}/loans?partial=true&page=3'`,
      `  curl -H "Authorization: Bearer $(npm run -s token -- reader 'Reader 3')" '${origin}/loans?pagination=false'`,
      `  curl '${origin}/activities'   # cursor paging: follow hydra:next`,
      `  curl -g '${origin}/books?author.name=an&order[author.name]=asc'   # filters`,
      `  curl ${origin}/books/1        # its author, reviews and loans are links`,
      `  curl ${origin}/authors/3/books`,
      `  curl ${origin}/ready          # 200 while the database answers, else 503`,
      `MCP (Streamable HTTP) for agents: ${origin}/mcp (docs/mcp.md)`,
      '',
    ].join('\n')
  )
}

/**
 * SIGTERM (a rolling deploy) and SIGINT: the server stops accepting connections and answers the
 * requests in flight (at most 10 s), then the database and Redis are let go, as
 * docs/deployment.md#stopping-the-server says. On SIGTERM it drains first (5 s: `/ready` answers
 * 503 while it serves on, for a load balancer to take it out of rotation); Ctrl-C stops at once,
 * during that drain too (the server's close called again ends it).
 */
const stop = async (drain: boolean) => {
  if (stopping === 'now' || (stopping === 'drain' && drain)) return
  const first = stopping === undefined
  stopping = drain ? 'drain' : 'now'
  const closing = server.close(drain ? {} : { drain: 0 })
  // A Ctrl-C during the drain has ended it: the first signal's stop goes on from there.
  if (!first) return
  await closing
  redis?.destroy()
  await Promise.all([prisma, ...replicas].map((client) => client.$disconnect()))
  process.exit(0)
}
// A failure to let go is printed and ends the process, not an unhandled rejection.
const stopped = (drain: boolean) => () =>
  void stop(drain).catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
process.on('SIGINT', stopped(false))
process.on('SIGTERM', stopped(true))
