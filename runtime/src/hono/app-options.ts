/**
 * @module
 * The options a generated app takes, written once here: every resource's app
 * (`createBookApp(prisma, options)`) takes ResourceAppOptions, and `createHydraApp` takes these
 * and the app-wide HydraAppSettings, besides its client, providers and documentation.
 */
import type { AccessRules, AuthenticationSettings } from '../data/access-rules.js'
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
