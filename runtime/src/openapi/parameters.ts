/**
 * The query parameters of a collection operation as OpenAPI parameters, in the bracket style API
 * Platform's clients send (`order[title]=asc`, `price[gte]=10`, `title[]=a&title[]=b`): the same
 * variables, in the same order and with the same descriptions, as its `hydra:search` template
 * (hydra/search.ts's collectionVariables, the one rule), each with the schema of its values.
 */
import type { PagingConfig } from '../contract/paging.js'
import type { PropertySpec } from '../contract/properties.js'
import type { FilterSpec, QuerySpec, ValueType } from '../contract/query.js'
import { propertyVariables, queryVariables } from '../filters/variables.js'
import type { DocumentedType } from '../hydra/documented-types.js'
import { collectionVariables } from '../hydra/search.js'
import { type Schema, scalarSchema } from './schemas.js'

/** An OpenAPI 3.1 parameter object. */
export interface Parameter {
  /** The parameter's name (`order[title]`). */
  name: string
  /** Where it is sent: the query string, the path, or a header (`Prefer`). */
  in: 'query' | 'path' | 'header'
  /** Whether requests must give it. */
  required: boolean
  /** What it does, as the `hydra:search` template says. */
  description: string
  /** The schema of its value. */
  schema: Schema
  /** `form` for a list (`title[]=a&title[]=b`). */
  style?: 'form'
  /** With `style`: one parameter per value. */
  explode?: boolean
  /** An example value. */
  example?: string
}

/** The schema of one value of a filter or cursor parameter, as the route reads it. */
function valueSchema(value: ValueType): Schema {
  switch (value.type) {
    case 'Enum':
      return { type: 'string', enum: [...(value.enumValues ?? [])] }
    case 'String':
      return value.uuid ? { type: 'string', format: 'uuid' } : { type: 'string' }
    // Sent as text by clients that keep their precision: either is read.
    case 'Decimal':
      return { type: ['number', 'string'] }
    case 'BigInt':
      return { type: ['integer', 'string'] }
    case 'DateTime':
      return { type: 'string', description: 'An ISO 8601 date or date-time.' }
    default:
      return scalarSchema(value.type)
  }
}

const BOOLEAN: Schema = {
  type: 'boolean',
  description: 'true, 1, on or yes; false, 0, off or no (any case).',
}

/** The schema of one variable of a filter (its name tells which operator or form it is). */
function filterSchema(filter: FilterSpec, variable: string): Schema {
  const list = variable.endsWith('[]')
  switch (filter.kind) {
    case 'search': {
      const path = filter.relation?.collectionPath ?? filter.items
      const one =
        path !== undefined
          ? { type: 'string', description: `An IRI of ${path}, or an id.` }
          : valueSchema(filter)
      return list ? { type: 'array', items: one } : one
    }
    case 'numeric':
      return list ? { type: 'array', items: valueSchema(filter) } : valueSchema(filter)
    case 'range':
      return variable.endsWith('[between]')
        ? { type: 'string', pattern: '^[^.]+\\.\\.[^.]+$', description: 'low..high' }
        : valueSchema(filter)
    case 'date':
      return valueSchema({ type: 'DateTime' })
    case 'boolean':
    case 'exists':
      return BOOLEAN
  }
}

const ORDER: Schema = { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] }

/** The schemas of the filter and order variables of a query spec, by variable. */
function querySchemas(spec: QuerySpec): Map<string, Schema> {
  const schemas = new Map<string, Schema>()
  for (const filter of spec.filters) {
    for (const { variable } of queryVariables({ ...spec, filters: [filter], order: [] }))
      if (!schemas.has(variable)) schemas.set(variable, filterSchema(filter, variable))
  }
  for (const { variable } of queryVariables({ ...spec, filters: [] }))
    if (!schemas.has(variable)) schemas.set(variable, ORDER)
  for (const { variable, names } of propertyVariables(spec))
    if (!schemas.has(variable))
      schemas.set(variable, { type: 'array', items: { type: 'string', enum: [...names] } })
  return schemas
}

/** The schemas of the paging variables under the operation's settings, by variable. */
function pagingSchemas(paging: PagingConfig): Map<string, Schema> {
  const { parameters } = paging
  const maximum = paging.maximumItemsPerPage === null ? {} : { maximum: paging.maximumItemsPerPage }
  const schemas = new Map<string, Schema>([
    [parameters.page, { type: 'integer', minimum: 1, default: 1 }],
    [
      parameters.itemsPerPage,
      { type: 'integer', minimum: 0, ...maximum, default: paging.itemsPerPage },
    ],
    [parameters.enabled, { ...BOOLEAN, default: paging.enabled }],
    [parameters.partial, { ...BOOLEAN, default: paging.partial }],
  ])
  for (const key of paging.cursor ?? []) {
    const schema = valueSchema({ type: key.type, uuid: key.uuid })
    for (const operator of ['gt', 'gte', 'lt', 'lte'])
      schemas.set(`${key.field}[${operator}]`, schema)
  }
  return schemas
}

/**
 * The query parameters of a collection: its paging variables, then its filters and orders; a
 * variable both describe (a cursor position on a field a range filter reads) is one parameter.
 */
export function collectionParameters(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  paging: PagingConfig,
  spec: QuerySpec | undefined
): Parameter[] {
  const paged = pagingSchemas(paging)
  const filtered = spec ? querySchemas(spec) : new Map<string, Schema>()
  const parameters: Parameter[] = []
  for (const { variable, description, property } of collectionVariables(type, paging, spec)) {
    // A paging variable carries the property it sets; a filter's or an order's does not.
    const schema = property === undefined ? filtered.get(variable) : paged.get(variable)
    const list = schema?.type === 'array'
    parameters.push({
      name: variable,
      in: 'query',
      required: false,
      description,
      schema: schema ?? { type: 'string' },
      ...(list ? { style: 'form' as const, explode: true } : {}),
    })
  }
  return parameters
}

/**
 * The query parameters of an item whose model declares the property filter (docs/member-shape.md):
 * `properties[]`, then `properties[author][]` for each relation it embeds, as its collection's.
 */
export function itemParameters(properties: PropertySpec | undefined): Parameter[] {
  return propertyVariables({ properties }).map(({ variable, description, names }) => ({
    name: variable,
    in: 'query',
    required: false,
    description,
    schema: { type: 'array', items: { type: 'string', enum: [...names] } },
    style: 'form',
    explode: true,
  }))
}
