/**
 * `hydra:search`: the IRI template of every parameter a collection accepts, its paging parameters
 * first, then its filters and orders. Written as API Platform writes it (its filters'
 * `getDescription()` through `CollectionFiltersNormalizer`): one `IriTemplateMapping` per
 * variable, `variable`, `property` and `required` unprefixed in both styles (the context defines
 * them, and the template's other keys, only inside the search block, so they never take a field's
 * name). Clients such as api-doc-parser read a resource's parameters from a collection response,
 * not from the documentation, and the admin offers its filter inputs and sortable columns from it:
 * both read the collection's entry page (its path asked without a query), so that page holds the
 * template and every other page a reference to it (docs/filters.md#discovery-hydrasearch).
 */

import type { PagingConfig } from '../contract/paging.js'
import type { QuerySpec } from '../contract/query.js'
import { propertyVariables, type QueryVariable, queryVariables } from '../filters/variables.js'
import { hydraTerm } from '../terms.js'
import type { DocumentedType } from './documented-types.js'
import { pagingVariables } from './paging-variables.js'

export interface SearchMapping {
  '@type': 'IriTemplateMapping'
  variable: string
  property: string
  required: false
}

/** The variables of an operation's query spec with the property each filters or orders by. */
export function searchMappings(spec: QuerySpec): SearchMapping[] {
  return queryVariables(spec).map((entry) => mapping(entry.variable, termOf(entry)))
}

/**
 * The property a filter's or an order's variable sets, as responses write it: the field's name
 * (`title`, or `author.name` through a relation), resolved by the type's context, whose search
 * block takes other names under the type (`<docs>#Book/author.name`, what the documentation
 * declares); `exists[field]` sets whether the field has a value, `field/exists`, a boolean.
 */
export function termOf(entry: Pick<QueryVariable, 'field' | 'value'>): string {
  return entry.value === 'exists' ? `${entry.field}/exists` : entry.field
}

const mapping = (variable: string, property: string): SearchMapping => ({
  '@type': 'IriTemplateMapping',
  variable,
  property,
  required: false,
})

/** A variable of a collection's template: a paging parameter, or a filter's or an order's. */
export interface CollectionVariable {
  variable: string
  /** The property as a collection response writes it: a field's name or a compact IRI. */
  term: string
  /** Paging parameters: the property as the documentation writes it (`hydra:pageIndex`). */
  property?: string | undefined
  /** Filters and orders: the field (or `relation.field`) it filters or orders by. */
  field?: string | undefined
  /** Filters and orders: what its value is (see QueryVariable). */
  value?: QueryVariable['value'] | undefined
  /** A path ending at a relation: the related model whose items it names (see QueryVariable). */
  target?: string | undefined
  description: string
}

/**
 * The one rule of every `hydra:search` (responses and documentation): a collection's paging
 * parameters first, then its filters and orders. A variable both describe (a cursor position
 * `id[gt]` and a range filter on `id`) is listed once, as paging: it is one parameter.
 */
export function collectionVariables(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  paging: PagingConfig,
  spec: QuerySpec | undefined
): CollectionVariable[] {
  const variables: CollectionVariable[] = pagingVariables(type, paging)
  const seen = new Set(variables.map((entry) => entry.variable))
  for (const entry of spec ? [...queryVariables(spec), ...propertyVariables(spec)] : []) {
    if (seen.has(entry.variable)) continue
    seen.add(entry.variable)
    const { variable, field, value, description, target } = entry
    variables.push({
      variable,
      field,
      value,
      description,
      term: termOf(entry),
      ...(target ? { target } : {}),
    })
  }
  return variables
}

/** The mappings of a collection's template, as its responses write them. */
export function collectionMappings(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  paging: PagingConfig,
  spec: QuerySpec | undefined
): SearchMapping[] {
  return collectionVariables(type, paging, spec).map((entry) => mapping(entry.variable, entry.term))
}

/**
 * The IRI of the template of the collection at `path`: a node of its entry page, `/books#search`,
 * which a client resolves by reading `/books`.
 */
export function searchIri(path: string): string {
  return `${path}#search`
}

/** The `hydra:search` value of a collection's entry page at `path` (its mount path included). */
export function searchTemplate(
  path: string,
  mappings: readonly SearchMapping[],
  prefix: boolean
): Record<string, unknown> {
  const names = mappings.map((entry) => entry.variable)
  return {
    '@id': searchIri(path),
    '@type': hydraTerm('IriTemplate', prefix),
    [hydraTerm('template', prefix)]: `${path}${names.length > 0 ? `{?${names.join(',')}}` : ''}`,
    [hydraTerm('variableRepresentation', prefix)]: 'BasicRepresentation',
    [hydraTerm('mapping', prefix)]: mappings,
  }
}

/**
 * The search block of a collection, for the path it is served at (its mount path included): its
 * paging, filter and order parameters, the mappings worked out once, the template per path; none
 * for a collection that reads no parameter (an empty template tells a client nothing).
 */
export function collectionSearch(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  paging: PagingConfig,
  prefix: boolean,
  spec?: QuerySpec | undefined
): (path: string) => Record<string, unknown> | undefined {
  const mappings = collectionMappings(type, paging, spec)
  return (path) => (mappings.length > 0 ? searchTemplate(path, mappings, prefix) : undefined)
}

/**
 * A page's `hydra:search`: the template (`template`, undefined for a collection without one) on
 * the collection's entry page (`entry`: its path asked without a query), where api-doc-parser and
 * the admin read it; on any other page a reference to it by its IRI, which saves repeating the
 * template on every page.
 */
export function pageSearch(
  template: Record<string, unknown> | undefined,
  path: string,
  entry: boolean
): Record<string, unknown> | undefined {
  if (template === undefined || entry) return template
  return { '@id': searchIri(path) }
}
