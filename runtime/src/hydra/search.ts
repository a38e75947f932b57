/**
 * `hydra:search`: the IRI template of every parameter a collection accepts, its paging parameters
 * first, then its filters and orders. Written as API Platform writes it (its filters'
 * `getDescription()` through `CollectionFiltersNormalizer`): one `IriTemplateMapping` per
 * variable, `variable`, `property` and `required` unprefixed in both styles (the context defines
 * them, and the template's other keys, only inside the search block, so they never take a field's
 * name). Clients such as api-doc-parser read a resource's parameters from a collection response,
 * not from the documentation, and the admin offers its filter inputs and sortable columns from it.
 */
import type { QuerySpec } from '../filters/spec.js'
import { queryVariables } from '../filters/variables.js'
import type { PagingConfig } from '../paging/types.js'
import { type DocumentedType, pagingVariables } from './documentation.js'
import { hydraTerm } from './terms.js'

export interface SearchMapping {
  '@type': 'IriTemplateMapping'
  variable: string
  property: string
  required: false
}

/** The variables of an operation's query spec with the property each filters or orders by. */
export function searchMappings(spec: QuerySpec): SearchMapping[] {
  return queryVariables(spec).map(({ variable, field }) => mapping(variable, field))
}

const mapping = (variable: string, property: string): SearchMapping => ({
  '@type': 'IriTemplateMapping',
  variable,
  property,
  required: false,
})

/**
 * The mappings of a collection's paging parameters, then of its filters and orders. A variable
 * both describe (a cursor position `id[gt]` and a range filter on `id`) is listed once, as paging:
 * it is one parameter of the request.
 */
export function collectionMappings(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  paging: PagingConfig,
  spec: QuerySpec | undefined
): SearchMapping[] {
  const mappings = pagingVariables(type, paging).map((variable) =>
    mapping(variable.variable, variable.term)
  )
  const seen = new Set(mappings.map((entry) => entry.variable))
  for (const entry of spec ? searchMappings(spec) : []) {
    if (!seen.has(entry.variable)) mappings.push(entry)
    seen.add(entry.variable)
  }
  return mappings
}

/** The `hydra:search` value of a collection at `path` (its mount path included). */
export function searchTemplate(
  path: string,
  mappings: readonly SearchMapping[],
  prefix: boolean
): Record<string, unknown> {
  const names = mappings.map((entry) => entry.variable)
  return {
    '@type': hydraTerm('IriTemplate', prefix),
    [hydraTerm('template', prefix)]: `${path}${names.length > 0 ? `{?${names.join(',')}}` : ''}`,
    [hydraTerm('variableRepresentation', prefix)]: 'BasicRepresentation',
    [hydraTerm('mapping', prefix)]: mappings,
  }
}

/**
 * The search block of a collection served at `path`: its paging, filter and order parameters;
 * none for a collection that reads no parameter (an empty template tells a client nothing).
 */
export function collectionSearch(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  paging: PagingConfig,
  path: string,
  prefix: boolean,
  spec?: QuerySpec | undefined
): Record<string, unknown> | undefined {
  const mappings = collectionMappings(type, paging, spec)
  return mappings.length > 0 ? searchTemplate(path, mappings, prefix) : undefined
}
