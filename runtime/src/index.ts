/**
 * @module
 * `@prisma-hydra/runtime`: what an application writes by hand beside the generated routes:
 * custom collections and their paginators, custom data providers for generated operations, the
 * error and not-found handlers, the `hydraHeaders` middleware, and the types these name. The
 * generated route modules import from `@prisma-hydra/runtime/generated`.
 */

// Errors (docs/errors.md)
export { DatabaseUnavailable, isOutage } from './database/outage.js'
// The start-up check of the database (docs/deployment.md#start-up-check)
export {
  checkDatabase,
  type DatabaseCheckOptions,
  DatabaseUnreachable,
} from './database/startup-check.js'
// Time budgets of the database work (docs/deployment.md#timeouts)
export type { DatabaseTimeouts } from './database/timeouts.js'
export { HydraError, type HydraErrorOptions } from './errors.js'
// Filters and client ordering, as custom data providers and handlers receive them
// (docs/filters.md), and as custom collections declare them (docs/custom-collections.md)
export { type CustomQueryOptions, customQuery } from './filters/custom-query.js'
export type { ProviderQuery } from './filters/selection.js'
export type {
  DateNulls,
  DateOperator,
  FilterCondition,
  FilterSpec,
  LikeEscape,
  OrderEntry,
  OrderFieldSpec,
  RangeOperator,
  RelatedField,
  SearchStrategy,
  ValueType,
} from './filters/spec.js'
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
// Other methods, the public origin, requests Node cannot read (docs/errors.md, docs/deployment.md)
export { ALLOWED_METHODS, methodNotAllowed } from './hono/method-not-allowed.js'
export type { PublicOriginOptions } from './hono/public-origin.js'
export { hydraRequestError } from './hono/request-error.js'
export { setStreamYield } from './hono/stream-yield.js'
export type { HydraCollection, HydraView } from './hydra/collection.js'
export type {
  DocumentedCollection,
  DocumentedField,
  DocumentedLink,
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
export {
  CountCache,
  type CountCacheOptions,
  type PageAndTotal,
  type TotalAccuracy,
} from './paging/totals.js'
export type {
  CollectionResult,
  FullPaginator,
  PagedRequest,
  PagingConfig,
  PagingRequest,
  PartialPaginator,
} from './paging/types.js'
export type { JsonValue } from './scalar-types.js'
// The value rule of ids, cursor values and filter values (docs/errors.md)
export {
  type ColumnType,
  type ColumnValue,
  type DatabaseProvider,
  readColumnValue,
} from './values/column-value.js'
