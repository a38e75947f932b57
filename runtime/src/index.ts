/**
 * `@prisma-hydra/runtime`: what an application writes by hand beside the generated routes:
 * custom collections and their paginators, custom data providers for generated operations, the
 * error and not-found handlers, the headers and host middlewares, the OpenAPI routes for apps that
 * compose their own, and the types these name. Generated route modules import from
 * `@prisma-hydra/runtime/generated`; the generator's shared types (the filter and order specs) are
 * in `@prisma-hydra/runtime/defaults`; Node's server hook is `@prisma-hydra/runtime/node`;
 * compression is `@prisma-hydra/runtime/compression`.
 *
 * @module \@prisma-hydra/runtime
 */

export type { OrderEntry } from './contract/order.js'
// The compiled engine's connection: the client's own driver adapter (docs/performance.md)
export { shareAdapter } from './data/prisma7/shared-adapter.js'
// The database: a MariaDB pool that fails fast and limits its statements, time budgets
// (docs/deployment.md)
export { failFastPool } from './database/fail-fast-pool.js'
// The start-up check of the database (docs/deployment.md#start-up-check)
export { checkDatabase, DatabaseUnreachable } from './database/startup-check.js'
export type { DatabaseTimeouts } from './database/timeouts.js'
// Errors (docs/errors.md)
export { HydraError, type HydraErrorBody } from './errors.js'
// Filters and client ordering, as custom data providers and handlers receive them
// (docs/filters.md), and as custom collections declare them (docs/custom-collections.md)
export { type CustomQueryOptions, customQuery } from './filters/custom-query.js'
export type { FilterCondition } from './filters/spec.js'
export { serveContext } from './hono/app/context-routes.js'
// Other methods, the public origin, requests Node cannot read (docs/errors.md, docs/deployment.md)
export { methodNotAllowed } from './hono/app/method-not-allowed.js'
// The OpenAPI document and its page (docs/openapi.md)
export { serveApiReference, serveOpenApi } from './hono/app/openapi-routes.js'
// Operations: the readiness answer, the runtime's logger (docs/operations.md)
export { hydraReadiness } from './hono/app/readiness.js'
// A request's arrival, from which its budget counts (docs/deployment.md#timeouts)
export { mountPrefix } from './hono/request/location.js'
export { publicOrigin } from './hono/request/public-origin.js'
export { hydraRequestError } from './hono/request/request-error.js'
export {
  hydraErrorHandler,
  hydraErrorHandlers,
  hydraNotFound,
} from './hono/response/error-handlers.js'
// Headers, content negotiation, CORS and hosts (docs/hydra.md, docs/deployment.md)
export { type CorsOrigin, hydraHeaders } from './hono/response/hydra-headers.js'
export type { ProviderQuery } from './hono/routes/app-reads.js'
// Custom data providers of generated operations
export type { CollectionProvider } from './hono/routes/collection-content.js'
// Custom collections (docs/custom-collections.md)
export { type CollectionHandlerOptions, hydraCollection } from './hono/routes/custom-collection.js'
// The documents the API serves, for typing responses
export type { HydraItem } from './hono/routes/item-route.js'
export type { HydraCollection } from './hydra/collection.js'
export type { DocumentedType } from './hydra/documentation.js'
export type { HydraLogger } from './observe/logger.js'
export { renderOpenApi } from './openapi/document.js'
export { customPaging } from './paging/config.js'
export {
  fullPaginator,
  paginateArray,
  paginateIterable,
  partialPaginator,
} from './paging/paginators.js'
export type { CollectionResult, PagingRequest } from './paging/types.js'
