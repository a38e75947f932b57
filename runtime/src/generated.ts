/**
 * @module
 * `@prisma-hydra/runtime/generated`: exactly what the route modules prisma-hydra generates
 * import, and the types their declarations name (so that a project emitting declarations can
 * write them). Not meant for hand-written code (use `@prisma-hydra/runtime`); the generator's
 * own type check fails when a name it writes is missing here.
 */
export type { AuthenticationSettings, HiddenBy } from './contract/access-rules.js'
export type { IdKind, KeySpec } from './contract/keys.js'
export type { ModelSource, RelationSource } from './contract/model-source.js'
export {
  type CollectionOperation,
  type DefinedOperations,
  defineOperations,
  type OperationData,
  type OperationDefaults,
} from './contract/operations.js'
export type { QuerySpec } from './contract/query.js'
export type { MemberOf, Resource } from './contract/resource.js'
export { createDataAccess, type DataAccess } from './data/data-access.js'
export type { DatabaseTimeouts } from './database/timeouts.js'
export type { HydraErrorBody } from './errors.js'
export type {
  AccessGuard,
  AccessRules,
  HiddenFields,
  ResourceAccess,
  RowScope,
} from './hono/access-rules.js'
export { apiBase, completeApi, discoveryRoutes, errorRoutes } from './hono/api-app.js'
export type {
  ApiAppOptions,
  ApiDocumentationOptions,
  HydraAppSettings,
  ResourceAppOptions,
  ResourceAppOptionsWith,
} from './hono/app-options.js'
export { type CallerRules, callerRules } from './hono/caller-rules.js'
export {
  type CollectionProvider,
  type OperationProviders,
  type SourceOf,
  serveCollection,
  serveSource,
} from './hono/collection-route.js'
export { type ContextDocument, serveContext } from './hono/context-routes.js'
export { documentResource } from './hono/discovery-routes.js'
export type { CorsOrigin } from './hono/hydra-headers.js'
export { type HydraItem, serveItem } from './hono/item-route.js'
export { allowReadsOnly } from './hono/method-not-allowed.js'
export { serveSubCollection } from './hono/sub-collection-route.js'
export type {
  CallerApp,
  CollectionProblems,
  GuardProblems,
  ItemProblems,
  ProblemResponse,
  QueryInput,
  SubCollectionProblems,
} from './hono/typed-responses.js'
export type { ContextTerm } from './hydra/context.js'
export type { ApiDescription, DocumentedType } from './hydra/documentation.js'
export type { Hideable } from './hydra/member-type.js'
export { defineResource } from './hydra/resource.js'
export type { RowWindow } from './paging/types.js'
export type { JsonValue } from './scalar-types.js'
