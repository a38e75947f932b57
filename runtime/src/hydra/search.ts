/**
 * `hydra:search`: the IRI template of what a collection accepts besides paging, one
 * `IriTemplateMapping` per variable, written as API Platform writes it (its filters'
 * `getDescription()` through `CollectionFiltersNormalizer`), so api-doc-parser lists the
 * parameters and the admin offers its filter inputs and sortable columns.
 */
import { DATE_OPERATORS, type QuerySpec, RANGE_OPERATORS } from '../filters/spec.js'
import { hydraTerm } from './terms.js'

export interface SearchMapping {
  '@type': 'IriTemplateMapping'
  variable: string
  property: string
  required: false
}

/** The variables of an operation's query spec with the property each filters or orders by. */
export function searchMappings(spec: QuerySpec): SearchMapping[] {
  const mappings: SearchMapping[] = []
  const add = (variable: string, property: string) =>
    mappings.push({ '@type': 'IriTemplateMapping', variable, property, required: false })
  for (const filter of spec.filters) {
    const { field } = filter
    switch (filter.kind) {
      case 'search':
        add(field, field)
        // API Platform describes `field[]` for exact matches (and relations) only.
        if (filter.strategy === 'exact' || filter.relation) add(`${field}[]`, field)
        break
      case 'numeric':
        add(field, field)
        add(`${field}[]`, field)
        break
      case 'boolean':
        add(field, field)
        break
      case 'range':
        for (const operator of RANGE_OPERATORS) add(`${field}[${operator}]`, field)
        break
      case 'date':
        for (const operator of DATE_OPERATORS) add(`${field}[${operator}]`, field)
        break
      case 'exists':
        add(`${spec.parameters.exists}[${field}]`, field)
        break
    }
  }
  if (spec.order.length > 0) {
    const fields = [...new Set([...spec.order.map((entry) => entry.field), spec.id.field])]
    for (const field of fields) add(`${spec.parameters.order}[${field}]`, field)
  }
  return mappings
}

/** The `hydra:search` value of a collection at `path`. */
export function searchTemplate(
  path: string,
  spec: QuerySpec,
  prefix: boolean
): Record<string, unknown> {
  const mapping = searchMappings(spec)
  return {
    '@type': hydraTerm('IriTemplate', prefix),
    [hydraTerm('template', prefix)]:
      `${path}{?${mapping.map((entry) => entry.variable).join(',')}}`,
    [hydraTerm('variableRepresentation', prefix)]: 'BasicRepresentation',
    [hydraTerm('mapping', prefix)]: mapping,
  }
}
