/**
 * @module
 * The options a generated app takes, written once here: every resource's app
 * (`createBookApp(prisma, options)`) takes ResourceAppOptions, and `createHydraApp` takes these
 * and the app-wide HydraAppSettings, besides its client, providers and documentation.
 */
import type { DataAccessOptions } from '../data/data-access.js'
import type { CorsOrigin } from './hydra-headers.js'

/** How a resource's routes read and stream: its data access's options, and these. */
export interface ResourceAppOptions extends DataAccessOptions {
  /** Rows per query when a collection is served unpaged (default 500). */
  batchSize?: number | undefined
  /**
   * Whether a streamed (unpaged) collection lets other requests run between its batches (default
   * true). Off, one stream reads faster and every other request waits for it
   * (`npm run bench:fairness`); leave it on in a server.
   */
  streamYield?: boolean | undefined
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

/** A resource's options with its custom data providers (`BookAppOptions`). */
export interface ResourceAppOptionsWith<Providers> extends ResourceAppOptions {
  /** Custom data providers of the resource's offset-paged operations, by operation name. */
  providers?: Providers | undefined
}
