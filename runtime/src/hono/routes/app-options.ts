/**
 * @module
 * The options a generated app takes, written once here: every resource's app
 * (`createBookApp(prisma, options)`) takes ResourceAppOptions, and `createHydraApp` takes these
 * and the app-wide HydraAppSettings, besides its client, providers and documentation.
 */

import type { Context, MiddlewareHandler } from 'hono'
import type { AuthenticationSettings } from '../../contract/access-rules.js'
import type { CacheTagSettings } from '../../contract/cache-tags.js'
import type { DataAccessOptions } from '../../data/data-access.js'
import type { ApiDescription, DocumentedType } from '../../hydra/documentation.js'
import type { HydraLogger } from '../../observe/logger.js'
import type { AccessRules } from '../access/access-rules.js'
import type { CorsOrigin } from '../response/hydra-headers.js'
import type { ChangeFeedSettings } from './change-retention.js'

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
  /**
   * Who may read what, by model name (docs/security.md): row scopes, operation guards and hidden
   * fields, each a function of the request's context. The generated `HydraAccess` types them.
   */
  access?: AccessRules | undefined
  /** The 401's `WWW-Authenticate` and the `Vary` of responses that depend on the caller. */
  authentication?: AuthenticationSettings | undefined
  /**
   * Name what each page, item and sub-collection shows (its models and IRIs) in the header a CDN
   * purges by (`Cache-Tag`, `Surrogate-Key`, `xkey`; docs/caching.md). Left out: no tags.
   */
  cacheTags?: CacheTagSettings | undefined
  /**
   * The change log's retention (docs/syncing.md#retention): how long entries are kept before the
   * feeds prune them. Left out: nothing is pruned.
   */
  changes?: ChangeFeedSettings | undefined
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
  /**
   * An MCP endpoint at `<mount>/mcp` for agents (`hydraMcp()` from `@prisma-hydra/runtime/mcp`;
   * docs/mcp.md): five tools whatever the API's size (and a tool per operation where asked), each
   * call answered by the app's own routes for the caller of the `/mcp` request. Left out: none.
   */
  mcp?: McpEndpoint | undefined
}

/**
 * Answers `target` (a path and query under the API's mount path) as a GET by the caller of the
 * `/mcp` request `c`, through the API's own routes (hono/app/mcp-route.ts).
 */
export type ToolDispatch = (c: Context, target: string) => Promise<Response>

/** What an MCP endpoint is given of the API it serves. */
export interface McpApi {
  /** The API's description, as its documents are rendered from it. */
  description: ApiDescription
  /** The road of a tool call through the API's routes. */
  dispatch: ToolDispatch
  /**
   * What the caller of `c` may filter, order by and select on the collection at `target` (its
   * path under the mount path; any key in a sub-collection's), answered by the collection's route
   * through the API's own routes once the caller's guards let it through, without reading a row:
   * its `hydra:search` block and selectable properties (hono/request/search-probe.ts), else the
   * route's problem.
   */
  probe: ToolDispatch
  /**
   * A read of the collection at `target` for the caller of `c`, as `dispatch` reads it but with
   * its text filters matching whatever the case (hono/request/text-search.ts): `search`'s road.
   */
  search: ToolDispatch
  /**
   * The request a tool call sends for `target` (a path and query under the mount path), with the
   * headers of the `/mcp` request `c` its caller is known by and its links are written for; a
   * text search (`search`'s) where `textSearch` is true.
   */
  request(c: Context, target: string, textSearch?: boolean): Request
  /** Whether the API's own routes answer GET at `path` (`/books/{id}`), under its mount path. */
  serves(path: string): boolean
  /** The app's logger, which the endpoint's failures go to (docs/operations.md#logger). */
  logger: HydraLogger
  /** The app's `tracing` option: `false`, no span of a tool call (docs/operations.md#tracing). */
  tracing?: boolean | undefined
}

/** An MCP endpoint (`hydraMcp()`): the handler of `/mcp` for the API it is given. */
export type McpEndpoint = (api: McpApi) => MiddlewareHandler

/** A resource's options with its custom data providers (`BookAppOptions`). */
export interface ResourceAppOptionsWith<Providers> extends ResourceAppOptions {
  /** Custom data providers of the resource's offset-paged operations, by operation name. */
  providers?: Providers | undefined
}

/** The API documentation's options in `createHydraApp`. */
export interface ApiDocumentationOptions {
  /** The documentation's title; default: the schema's `platform.title`, else "Hydra API". */
  title?: string | undefined
  /** The documentation's description; default: the schema's `platform.description`. */
  description?: string | undefined
  /** Types of custom collections (hydraCollection routes) served beside the generated ones. */
  types?: readonly DocumentedType[] | undefined
}

/**
 * Options of a generated `createHydraApp` (`HydraAppOptions`): its Prisma client (`Client`), custom
 * data providers and access rules by model, the documentation, and HydraAppSettings (batch size,
 * time budgets, public origin, proxies, CORS, streaming).
 *
 * @example
 * ```ts
 * const app = new Hono().route(
 *   '/api',
 *   createHydraApp({ prisma, access, baseUrl: 'https://api.example.com', timeouts: { query: 5_000 } })
 * )
 * ```
 */
export interface ApiAppOptions<Client extends object, Providers, Access extends AccessRules>
  extends HydraAppSettings {
  /** The client every route reads through. */
  prisma: Client
  /**
   * Clients of read replicas of the database: reads go to them, one replica per request
   * (docs/deployment.md#read-replicas). Left out: every read through `prisma`.
   */
  replicas?: readonly Client[] | undefined
  /**
   * Custom data providers replacing the Prisma query of generated operations, by model:
   * `{ book: { recent: (request) => paginateArray(rows, request) } }`.
   */
  providers?: Providers | undefined
  /**
   * Who may read what, by model (docs/security.md):
   * `{ Loan: { scope: (c) => ({ borrower: c.get("jwtPayload").sub }) } }`.
   */
  access?: Access | undefined
  /** The title of the API documentation, and custom collections to list beside the generated ones. */
  documentation?: ApiDocumentationOptions | undefined
}
