/**
 * What the generator shares with the runtime: the built-in paging defaults and the Hydra
 * terms a type served without the `hydra:` prefix cannot use as field names, and the entrypoint's
 * key of each collection, and what is done with each Prisma scalar type.
 *
 * @module \@prisma-hydra/runtime/defaults
 */

export type { OrderField } from './contract/order.js'
export { withTieBreaker } from './contract/order.js'
export { type OrderKeyField, orderKeyOf } from './contract/order-key.js'
export type {
  CountPreference,
  PagingConfig,
  ParameterNames,
  TotalsSetting,
} from './contract/paging.js'
export { countPreferences, defaultParameterNames } from './contract/paging.js'
export type {
  DeclaredEmbed,
  EmbeddedField,
  EmbeddedPage,
  EmbedSpec,
  PropertySpec,
  SelectableProperty,
} from './contract/properties.js'
export {
  DATE_NULLS,
  DATE_OPERATORS,
  type DateNulls,
  type FilterSpec,
  type OrderFieldSpec,
  type QuerySpec,
  RANGE_OPERATORS,
  type RelatedField,
  type RelatedKeyField,
  type RelationHop,
  SEARCH_STRATEGIES,
  type SearchStrategy,
  type ValueType,
} from './contract/query.js'
export {
  dialectNames,
  dialectOf,
  KEYSET_TYPES,
  keepsRowEstimates,
  qualifiedTable,
  selectStatement,
} from './database/dialects.js'
export { defaultFilterParameterNames } from './filters/spec.js'
export { HYDRA_TERMS } from './hydra/context.js'
export { entrypointKey } from './hydra/documentation.js'
export { collectionParameters, itemParameters, type Parameter } from './openapi/parameters.js'
export type { Schema } from './openapi/schemas.js'
export { defaultPagingConfig } from './paging/config.js'
export {
  SCALAR_TYPES,
  type ScalarFormatter,
  type ScalarType,
  type ScalarTypeName,
  scalarType,
} from './scalar-types.js'
