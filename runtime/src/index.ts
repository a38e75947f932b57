/**
 * @module
 * Runtime of prisma-hydra: paging parameters, paging strategies, Hydra rendering and Hono glue.
 * Generated route modules call these; custom handlers can too.
 */
export {
  badRequest,
  type ErrorOptions,
  errorBody,
  errorKind,
  HydraError,
  type HydraErrorBody,
  isHydraError,
  JSON_LD_CONTEXT_REL,
  PROBLEM_JSON,
  problemResponse,
} from './errors.js'
export {
  API_DOCUMENTATION_REL,
  type CorsOrigin,
  documentResource,
  type HydraHeadersOptions,
  hydraHeaders,
  negotiate,
  serveDocumentation,
  serveEntrypoint,
  serveEntrypointContext,
} from './hono/api.js'
export {
  hydraErrorHandler,
  hydraErrorHandlers,
  hydraNotFound,
  serveErrorContext,
  serveErrorDocument,
} from './hono/app.js'
export {
  type CollectionHandlerOptions,
  type CollectionOperation,
  type CollectionProvider,
  type ContextDocument,
  type HydraItem,
  hydraCollection,
  type JsonLdResponse,
  jsonLd,
  LD_JSON,
  mountPrefix,
  type ServeCollectionOptions,
  serveCollection,
  serveContext,
  serveItem,
} from './hono/serve.js'
export {
  type HydraCollection,
  type HydraView,
  type RenderOptions,
  renderCollection,
  renderCollectionChunks,
} from './hydra/collection.js'
export {
  type ContextField,
  type ContextTerm,
  type ContextType,
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
  type PagingConfig,
  type ParameterNames,
} from './paging/config.js'
export {
  type CursorBound,
  type CursorKey,
  fetchCursorPage,
  formatCursorValue,
  keysetWhere,
  parseCursorValue,
  readCursorBound,
} from './paging/cursor.js'
export {
  type CollectionSource,
  fetchCollectionPage,
  fetchFullPage,
  fetchPartialPage,
  type RowWindow,
} from './paging/offset.js'
export {
  type CollectionPage,
  type FullPaginator,
  fromFullPaginator,
  fromItems,
  fromPartialPaginator,
  type LinkTarget,
  lastPageOf,
  type PaginatorBase,
  type PartialPaginator,
} from './paging/page.js'
export {
  type CollectionResult,
  fullPaginator,
  isFullPaginator,
  isPartialPaginator,
  type PaginateIterableOptions,
  pageOfPaginator,
  paginateArray,
  paginateIterable,
  partialPaginator,
} from './paging/paginators.js'
export {
  type PagedRequest,
  type PagingRequest,
  readEnabled,
  readItemsPerPage,
  readPagingRequest,
} from './paging/request.js'
