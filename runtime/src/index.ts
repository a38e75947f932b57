/**
 * @module
 * Runtime of prisma-hydra: paging parameters, paging strategies, Hydra rendering and Hono glue.
 * Generated route modules call these; custom handlers can too.
 */
export {
  badRequest,
  type ErrorOptions,
  errorBody,
  HydraError,
  type HydraErrorBody,
  isHydraError,
  PROBLEM_JSON,
  problemResponse,
} from './errors.js'
export {
  type CollectionOperation,
  type CollectionProvider,
  type ServeCollectionOptions,
  serveCollection,
} from './hono/collection-route.js'
export { type ContextDocument, serveContext, serveErrorContext } from './hono/context-routes.js'
export { type CollectionHandlerOptions, hydraCollection } from './hono/custom-collection.js'
export {
  documentResource,
  serveDocumentation,
  serveEntrypoint,
  serveEntrypointContext,
} from './hono/discovery-routes.js'
export { hydraErrorHandler, hydraErrorHandlers, hydraNotFound } from './hono/error-handlers.js'
export { type CorsOrigin, type HydraHeadersOptions, hydraHeaders } from './hono/hydra-headers.js'
export { type HydraItem, serveItem } from './hono/item-route.js'
export { type JsonLdResponse, jsonLd } from './hono/json-ld.js'
export { API_DOCUMENTATION_REL, mountPrefix } from './hono/location.js'
export { LD_JSON, negotiate } from './hono/negotiation.js'
export {
  type HydraCollection,
  type HydraView,
  type RenderOptions,
  renderCollection,
  renderCollectionChunks,
} from './hydra/collection.js'
export {
  type ContextTerm,
  contextDocument,
  HYDRA,
  HYDRA_TERMS,
  hydraTerms,
} from './hydra/context.js'
export {
  type ApiDescription,
  type ApiLocation,
  type DocumentedCollection,
  type DocumentedField,
  type DocumentedType,
  entrypointKey,
  renderDocumentation,
  renderEntrypoint,
} from './hydra/documentation.js'
export {
  defineResource,
  type FieldSpec,
  type IdKind,
  type IdValue,
  type Resource,
  type ResourceSpec,
} from './hydra/resource.js'
export { type HydraTerm, hydraTerm } from './hydra/terms.js'
export {
  buildIri,
  buildQuery,
  getParam,
  parseQuery,
  type QueryMap,
  type QueryValue,
} from './iri/query-string.js'
export { DEFAULT_BATCH_SIZE, readInBatches, releaseBatch } from './paging/batches.js'
export {
  type CustomPagingOptions,
  customPaging,
  defaultPagingConfig,
  defaultParameterNames,
} from './paging/config.js'
export {
  type CursorBound,
  fetchCursorPage,
  formatCursorValue,
  keysetWhere,
  parseCursorValue,
  readCursorBound,
} from './paging/cursor.js'
export { fetchCollectionPage, fetchFullPage, fetchPartialPage } from './paging/offset.js'
export { fromFullPaginator, fromItems, fromPartialPaginator, lastPageOf } from './paging/page.js'
export {
  fullPaginator,
  isFullPaginator,
  isPartialPaginator,
  type PaginateIterableOptions,
  pageOfPaginator,
  paginateArray,
  paginateIterable,
  partialPaginator,
} from './paging/paginators.js'
export { readEnabled, readItemsPerPage, readPagingRequest } from './paging/request.js'
export {
  CountCache,
  type CountCacheOptions,
  type CountRow,
  countOf,
  DEFAULT_TRANSACTION_LIMITS,
  EXACT_BELOW,
  estimatedTotal,
  type PageAndTotal,
  pageAndExactCount,
  pageAndLooseTotal,
  rowsOnPage,
  type SourceOptions,
  type TotalAccuracy,
  type TransactionLimits,
  transactionLimits,
} from './paging/totals.js'
export type {
  CollectionPage,
  CollectionResult,
  CollectionSource,
  CursorKey,
  FullPaginator,
  LinkTarget,
  PagedRequest,
  PaginatorBase,
  PagingConfig,
  PagingRequest,
  ParameterNames,
  PartialPaginator,
  RowWindow,
} from './paging/types.js'
