/**
 * The query parameters of one collection operation name one thing each (docs/filters.md,
 * Parameters; docs/member-shape.md, Declaring it): a filter's field may not be the name of a
 * paging, `order` or `exists` parameter, and the property filter's parameter may not be any other
 * parameter of the operation, whatever reads it: a paging switch, `order`, `exists`, a filter on a
 * field of that name (`id[]` too, the item key's search) or a cursor position.
 */
import type { FilterSpec, PropertySpec } from '@prisma-hydra/runtime/defaults'
import type { Report } from '../../problems.js'
import type { ParameterNames } from '../schema/options.js'

/** The names the operation's other parameters take, from the platform config. */
export interface TakenParameters {
  order: string
  exists: string
  paging: ParameterNames
}

/** What each paging parameter is, as its platform config key says it. */
const PAGING: Record<keyof ParameterNames, string> = {
  page: 'the page number',
  enabled: 'the paging switch',
  itemsPerPage: 'the page size',
  partial: 'the partial paging switch',
}

/**
 * Reports each filter whose field has the name of a paging, order or exists parameter, and a
 * property filter whose parameter another parameter of the operation has. `cursor`: the fields
 * whose positions the cursor-paged operation `operation` reads (none on other operations).
 */
export function checkParameterClashes(
  query: {
    filters: readonly FilterSpec[]
    properties: PropertySpec | undefined
    cursor: readonly string[]
  },
  taken: TakenParameters,
  operation: string,
  sources: { filters: string; properties: string },
  report: Report
): void {
  const reserved = [taken.order, taken.exists, ...Object.values(taken.paging)]
  for (const filter of query.filters) {
    if (reserved.includes(filter.field) && filter.kind !== 'exists') {
      report({
        source: sources.filters,
        option: filter.kind,
        message: `field "${filter.field}" has the name of the "${filter.field}" query parameter; rename the parameter in platform.collection, or do not filter this field`,
      })
    }
  }
  const { properties } = query
  if (!properties) return
  const clash = otherUse(properties.parameter, query, taken, operation)
  if (clash === undefined) return
  report({
    source: sources.properties,
    option: 'properties',
    message: `the property filter's parameter "${properties.parameter}" is also ${clash}: one parameter would mean two things; give the property filter a parameter of its own with properties: { parameterName: "..." }`,
  })
}

/** What else reads `name` on the operation, described for the message; undefined: nothing. */
function otherUse(
  name: string,
  query: { filters: readonly FilterSpec[]; cursor: readonly string[] },
  taken: TakenParameters,
  operation: string
): string | undefined {
  if (name === taken.order) return `the order parameter (${name}[field]=asc)`
  if (name === taken.exists) return `the exists parameter (${name}[field]=true)`
  const paging = (Object.keys(PAGING) as (keyof ParameterNames)[]).find(
    (key) => taken.paging[key] === name
  )
  if (paging) return `the parameter of ${PAGING[paging]} (${name}=…)`
  const filter = query.filters.find(
    (candidate) => candidate.kind !== 'exists' && candidate.field === name
  )
  if (filter)
    return `the parameter of the ${filter.kind} filter on field "${name}" (${shape(filter)})`
  if (query.cursor.includes(name))
    return `a cursor position of the cursor-paged operation "${operation}" (${name}[lt]=…, ${name}[gt]=…)`
  return undefined
}

/** How a filter's parameter is written, for the message. */
function shape(filter: FilterSpec): string {
  const { field } = filter
  switch (filter.kind) {
    case 'search':
    case 'numeric':
      return `${field}=…, ${field}[]=…`
    case 'range':
      return `${field}[gte]=…, ${field}[between]=…`
    case 'date':
      return `${field}[before]=…, ${field}[after]=…`
    default:
      return `${field}=…`
  }
}
