/**
 * @module
 * What the generator shares with the runtime: the spec's built-in paging defaults and the Hydra
 * terms a type served without the `hydra:` prefix cannot use as field names.
 */

export { HYDRA_TERMS } from './hydra/context.js'
export {
  defaultPagingConfig,
  defaultParameterNames,
  type PagingConfig,
  type ParameterNames,
} from './paging/config.js'
