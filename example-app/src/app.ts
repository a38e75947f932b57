import {
  type CorsOrigin,
  type DatabaseTimeouts,
  type HydraLogger,
  hydraErrorHandlers,
  hydraReadiness,
} from '@prisma-hydra/runtime'
import { hydraArrival } from '@prisma-hydra/runtime/arrival'
import { hydraCompression } from '@prisma-hydra/runtime/compression'
import type { CountStore } from '@prisma-hydra/runtime/redis'
import { Hono, type MiddlewareHandler } from 'hono'
import {
  collectionPaths,
  createHydraApp,
  type HydraAccess,
  type HydraAppOptions,
} from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { authenticate, type LibraryEnv, libraryAccess } from './auth.js'
import {
  createCollectionsApp,
  customTypes,
  popularBooks,
  RELEASES_FEED,
  type ReleasesFeed,
} from './collections.js'
import { loanReturns } from './loan-returns.js'
import { sharedAdapterOf } from './shared-adapters.js'

/** Every collection the example serves: the generated ones and the custom ones. */
export const exampleCollectionPaths = [...collectionPaths, '/genres', '/releases']

export interface ExampleAppOptions<A extends HydraAccess<LibraryEnv> = typeof libraryAccess> {
  /** Rows per query when a collection is served unpaged. */
  batchSize?: number
  /** The releases feed: its file, or its text where there are no files (src/worker.ts). */
  releasesFeed?: ReleasesFeed
  /** Browser origins allowed to read the API (CORS), such as the admin page's. */
  cors?: CorsOrigin
  /** Time budgets of each request's database work (createHydraApp's `timeouts`). */
  timeouts?: DatabaseTimeouts
  /** The public origin of absolute IRIs (createHydraApp's `baseUrl`). */
  baseUrl?: string
  /** Read the origin from X-Forwarded-Proto / X-Forwarded-Host (createHydraApp's `trustProxy`). */
  trustProxy?: boolean
  /** The hosts the API answers for (createHydraApp's `allowedHosts`). */
  allowedHosts?: readonly string[]
  /** Clients of read replicas of the database (createHydraApp's `replicas`). */
  replicas?: readonly PrismaClient[]
  /** Where `cached` totals are shared between instances (createHydraApp's `totalsStore`). */
  totalsStore?: CountStore
  /**
   * The engine of the generated reads (createHydraApp's `engine`): `compiled` reads on the
   * client's own driver adapter (docs/performance.md). Default `prisma`.
   */
  engine?: 'prisma' | 'compiled'
  /**
   * Bearer tokens verified with `secret` (hono/jwt, HS256) and the access rules reading them
   * (default: src/auth.ts's, private loans). Left out: no authentication, every row public.
   */
  auth?: { secret: string; access?: A }
  /** Where the runtime logs (createHydraApp's `logger`); default: the console. */
  logger?: HydraLogger
  /**
   * Whether the server has begun to stop, told to `/ready` (hydraReadiness's `stopping`): Bun's
   * and Deno's servers (src/serve.ts), which cannot tell it themselves as createHydraServer's do.
   */
  stopping?: () => boolean
  /** OpenTelemetry spans when `@opentelemetry/api` is there (createHydraApp's `tracing`). */
  tracing?: boolean
  /** The `Server-Timing` header of pages and items (createHydraApp's `serverTiming`). */
  serverTiming?: boolean
  /**
   * Compress responses of more than `compression.threshold` bytes (default 1,024) with gzip or
   * deflate, as the client accepts (`hydraCompression`; docs/operations.md#compression). Left
   * out: no compression (a proxy in front may compress instead).
   */
  compression?: { threshold?: number }
  /** What answers show, for a CDN to purge (createHydraApp's `cacheTags`; docs/caching.md). */
  cacheTags?: HydraAppOptions['cacheTags']
  /**
   * An MCP endpoint at `/mcp` for agents, `hydraMcp()` from `@prisma-hydra/runtime/mcp`
   * (createHydraApp's `mcp`; docs/mcp.md): its tools read as the caller the token names.
   */
  mcp?: HydraAppOptions['mcp']
  /**
   * A shared cache in front of every route, such as `workersCache()` on Workers (src/worker.ts,
   * docs/caching.md#cloudflare-workers).
   */
  sharedCache?: MiddlewareHandler | undefined
}

/**
 * The example server: the generated Hydra API (with a custom data provider for `/books/popular`)
 * and two custom collections, all listed by the entrypoint (`/`) and the API documentation
 * (`/docs.jsonld`). `A` types the access rules given, so that `hc` knows what they may hide.
 */
export function createApp<A extends HydraAccess<LibraryEnv> = typeof libraryAccess>(
  prisma: PrismaClient,
  options: ExampleAppOptions<A> = {}
) {
  const { auth, logger, tracing, serverTiming } = options
  const base = new Hono<LibraryEnv>()
  // A request's budget counts from here: the shared cache, compression and the token's check
  // below come out of it too.
  base.use(hydraArrival())
  if (options.sharedCache) base.use(options.sharedCache)
  // Large documents go compressed; the runtime gives each its Content-Length, so smaller ones
  // are sent as they are. A compressed document's ETag becomes weak (W/"…"), on its 304s and
  // HEADs too.
  if (options.compression) base.use(hydraCompression(options.compression))
  // For orchestrators and load balancers: 200 while the database answers, else 503. Outside the
  // API's host check, which a probe by address would not pass.
  base.get('/ready', hydraReadiness(prisma, { logger, stopping: options.stopping }))
  // The token, when one is sent, is verified before any route reads the rules.
  if (auth) {
    base.use(authenticate(auth.secret))
    // A write of the app's own, under the same rules as the reads.
    base.route('/', loanReturns(prisma, auth.access ?? libraryAccess))
  }
  const app = base
    .route(
      '/',
      createHydraApp<A | typeof libraryAccess, LibraryEnv>({
        prisma,
        replicas: options.replicas,
        providers: { book: { popular: popularBooks(prisma) } },
        batchSize: options.batchSize,
        timeouts: options.timeouts,
        baseUrl: options.baseUrl,
        trustProxy: options.trustProxy,
        allowedHosts: options.allowedHosts,
        cors: options.cors,
        totalsStore: options.totalsStore,
        cacheTags: options.cacheTags,
        mcp: options.mcp,
        ...(options.engine === 'compiled'
          ? { engine: 'compiled', adapter: sharedAdapterOf(prisma) }
          : {}),
        ...(auth ? { access: auth.access ?? libraryAccess } : {}),
        documentation: { types: customTypes },
        logger,
        tracing,
        serverTiming,
      })
    )
    .route(
      '/',
      createCollectionsApp(prisma, options.releasesFeed ?? RELEASES_FEED, options.timeouts, {
        logger,
        tracing,
      })
    )
  // The app's own middleware's errors (the token's 401) are problems too, logged as the API's.
  const errors = hydraErrorHandlers({ logger })
  app.onError(errors.onError)
  app.notFound(errors.notFound)
  return app
}

/** The example server's type under its own access rules, as Hono's RPC client (`hc`) reads it. */
export type ExampleApp = ReturnType<typeof createApp<typeof libraryAccess>>
