/**
 * @module
 * What the generator shares with the runtime: the spec's built-in paging defaults and the Hydra
 * terms a type served without the `hydra:` prefix cannot use as field names, and the entrypoint's
 * key of each collection, and what is done with each Prisma scalar type.
 */

export { HYDRA_TERMS } from './hydra/context.js'
export { entrypointKey } from './hydra/documentation.js'
export { defaultPagingConfig, defaultParameterNames } from './paging/config.js'
export type { PagingConfig, ParameterNames } from './paging/types.js'
export {
  SCALAR_TYPES,
  type ScalarFormatter,
  type ScalarType,
  type ScalarTypeName,
  scalarType,
} from './scalar-types.js'
