/**
 * `@prisma-hydra/runtime/generated`: exactly what the route modules prisma-hydra generates
 * import, and the types their declarations name (so that a project emitting declarations can
 * write them). Not meant for hand-written code (use `@prisma-hydra/runtime`); the generator's
 * own type check fails when a name it writes is missing here.
 *
 * @module \@prisma-hydra/runtime/generated
 */

// The Decimal the rows of a Prisma 8 back end hold, as Prisma 7's (the routes' `BookRow`).
export type { Decimal } from '@prisma/client-runtime-utils'
export type { AuthenticationSettings, RuleInputs, ScopeWhere } from './contract/access-rules.js'
export type { CacheTagHeader, CacheTagSettings } from './contract/cache-tags.js'
export type { IdKind, KeySpec } from './contract/keys.js'
export type {
  CompiledEnums,
  CompiledModels,
  ModelColumns,
  ModelSource,
  RelationSource,
} from './contract/model-source.js'
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
export {
  hideInverseLinks,
  type InverseLinks,
  type WithInverseLinks,
} from './data/inverse-links.js'
export { type Prisma8BackEndClient, prisma8BackEnd } from './data/prisma8/back-end.js'
export type { DatabaseTimeouts } from './database/timeouts.js'
export type { HydraErrorBody } from './errors.js'
export type {
  AccessGuard,
  AccessRules,
  HiddenFields,
  ResourceAccess,
  RowScope,
} from './hono/access/access-rules.js'
export { type CallerRules, callerRules } from './hono/access/caller-rules.js'
export { apiBase, completeApi, discoveryRoutes, errorRoutes } from './hono/app/api-app.js'
export { type ContextDocument, serveContext } from './hono/app/context-routes.js'
export { documentResource } from './hono/app/discovery-routes.js'
export { allowReadsOnly } from './hono/app/method-not-allowed.js'
export { linkChanges } from './hono/response/changes-link.js'
export type { CorsOrigin } from './hono/response/hydra-headers.js'
export type {
  ApiAppOptions,
  ApiDocumentationOptions,
  HydraAppSettings,
  ResourceAppOptions,
  ResourceAppOptionsWith,
} from './hono/routes/app-options.js'
export { type ChangesOptions, changesRoute } from './hono/routes/changes-route.js'
export type {
  CollectionProvider,
  OperationProviders,
  SourceOf,
} from './hono/routes/collection-content.js'
export { collectionRoute, serveCollection, serveSource } from './hono/routes/collection-route.js'
export { type HydraItem, itemRoute, serveItem } from './hono/routes/item-route.js'
export { serveSubCollection, subCollectionRoute } from './hono/routes/sub-collection-route.js'
export type {
  CallerApp,
  CollectionProblems,
  GuardProblems,
  ItemProblems,
  ProblemResponse,
  QueryInput,
  SubCollectionProblems,
} from './hono/routes/typed-responses.js'
export type { CallerMember } from './hydra/caller-member.js'
export type { ContextTerm } from './hydra/context.js'
export type { ApiDescription, DocumentedType } from './hydra/documentation.js'
export { keySegment, singleSegment } from './hydra/item-key.js'
export type { EmbeddedMember, Hideable, ShapedMember, ShapedMemberOf } from './hydra/member-type.js'
export { memberValues } from './hydra/member-values.js'
export { defineResource, type MemberWriter } from './hydra/resource.js'
export type { RowWindow } from './paging/types.js'
export type { JsonValue } from './scalar-types.js'
