/**
 * @module
 * The options a generated app takes, written once here: every resource's app
 * (`createBookApp(prisma, options)`) takes ResourceAppOptions, and `createHydraApp` takes these
 * and the app-wide HydraAppSettings, besides its client, providers and documentation.
 */
import type { AccessRules, AuthenticationSettings } from '../data/access-rules.js'
import type { EngineName } from '../data/model-source.js'
import type { AdapterFactory } from '../data/shared-adapter.js'
import type { CountStore } from '../data/shared-totals.js'
import type { DatabaseTimeouts } from '../database/timeouts.js'
import type { CorsOrigin } from './hydra-headers.js'

/** How a resource's routes read and stream. */
export interface ResourceAppOptions {
  /** Rows per query when a collection is served unpaged (default 500). */
  batchSize?: number | undefined
  /**
   * Time budgets of the database work of a request (milliseconds): past `query` (default 10,000),
   * or when the database is unreachable, the answer is a 503 with `Retry-After`.
   */
  timeouts?: DatabaseTimeouts | undefined
  /**
   * Whether a streamed (unpaged) collection lets other requests run between its batches (default
   * true). Off, one stream reads faster and every other request waits for it
   * (`npm run bench:fairness`); leave it on in a server.
   */
  streamYield?: boolean | undefined
  /**
   * Clients of PostgreSQL read replicas of the app's database (each a client of the same generated
   * type, over its own adapter): reads go to them, one replica per request in turn, the page and
   * its count in one snapshot there; a failing replica is passed by for `timeouts.replicaRetry`
   * (docs/deployment.md#read-replicas). Left out: every read on the app's client.
   */
  replicas?: readonly object[] | undefined
  /**
   * Where `cached` totals are shared between instances (docs/deployment.md#shared-totals): a
   * `redisCountStore` (`@prisma-hydra/runtime/redis`) over the app's Redis client. Left out, each
   * instance caches its own counts.
   */
  totalsStore?: CountStore | undefined
  /**
   * The engine of the resources and operations whose annotations name none: `prisma` (the
   * default: the client's `findMany`, its extensions applied) or `compiled` (SQL written at generate
   * time, run on the client's driver adapter, bypassing client extensions: docs/performance.md).
   */
  engine?: EngineName | undefined
  /**
   * The client's driver adapter factory wrapped by `shareAdapter` (the same object given to
   * `new PrismaClient({ adapter })`): compiled reads then run on the client's own connection
   * without its query layer. Left out, they run through the client's `$queryRawUnsafe`.
   */
  adapter?: AdapterFactory | undefined
  /**
   * Who may read what, by model name (docs/security.md): row scopes, operation guards and hidden
   * fields, each a function of the request's context. The generated `HydraAccess` types them.
   */
  access?: AccessRules | undefined
  /** The 401's `WWW-Authenticate` and the `Vary` of responses that depend on the caller. */
  authentication?: AuthenticationSettings | undefined
}

/** What `createHydraApp` takes for the whole app, besides each resource's options. */
export interface HydraAppSettings extends ResourceAppOptions {
  /**
   * The public origin of the API (`https://api.example.com`): the `Link` header and every absolute
   * IRI are written against it, whatever `Host` a client sends. Left out: the request's origin.
   */
  baseUrl?: string | undefined
  /** Take the origin from `X-Forwarded-Proto` / `X-Forwarded-Host`: only behind a proxy that sets them. */
  trustProxy?: boolean | undefined
  /**
   * The hosts the API answers for (`api.example.com`, `.example.com` for a domain, `*` for any);
   * any other `Host` is a 400. Default: any with `baseUrl`, otherwise localhost only.
   */
  allowedHosts?: readonly string[] | undefined
  /**
   * Browser origins allowed to read the API from another origin (a string, a list or a function of
   * the origin), with the `Link` header exposed to them. Left out: no CORS headers.
   */
  cors?: CorsOrigin | undefined
}
