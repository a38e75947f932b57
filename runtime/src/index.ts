/**
 * @module
 * `@prisma-hydra/runtime`: what an application writes by hand beside the generated routes:
 * custom collections and their paginators, custom data providers for generated operations, the
 * error and not-found handlers, the `hydraHeaders` middleware, and the types these name. The
 * generated route modules import from `@prisma-hydra/runtime/generated`.
 */

// Errors (docs/errors.md)
export { HydraError, type HydraErrorOptions } from './errors.js'
// Custom data providers of generated operations
export type { CollectionProvider } from './hono/collection-route.js'
export { serveContext } from './hono/context-routes.js'
// Custom collections (docs/custom-collections.md)
export { type CollectionHandlerOptions, hydraCollection } from './hono/custom-collection.js'
export { hydraErrorHandler, hydraErrorHandlers, hydraNotFound } from './hono/error-handlers.js'
// Headers, content negotiation and CORS (docs/hydra.md)
export { type CorsOrigin, type HydraHeadersOptions, hydraHeaders } from './hono/hydra-headers.js'
// The documents the API serves, for typing responses
export type { HydraItem } from './hono/item-route.js'
export type { JsonLdResponse } from './hono/json-ld.js'
export { mountPrefix } from './hono/location.js'
export type { HydraCollection, HydraView } from './hydra/collection.js'
export type {
  DocumentedCollection,
  DocumentedField,
  DocumentedType,
} from './hydra/documentation.js'
export { type CustomPagingOptions, customPaging } from './paging/config.js'
export {
  fullPaginator,
  type PaginateIterableOptions,
  paginateArray,
  paginateIterable,
  partialPaginator,
} from './paging/paginators.js'
export type {
  CollectionResult,
  FullPaginator,
  PagedRequest,
  PagingConfig,
  PagingRequest,
  PartialPaginator,
} from './paging/types.js'
export type { JsonValue } from './scalar-types.js'
