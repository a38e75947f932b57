/**
 * The query parameters of each collection operation as a TypeScript type, for Hono's RPC client
 * (`hc`): `{ page?: number | `${number}`; 'order[title]'?: 'asc' | 'desc' | ...; 'genre[]'?: ...[] }`.
 * Written from the runtime's own list of the operation's parameters (the one its OpenAPI document
 * and `hydra:search` give), so the three agree.
 */
import {
  collectionParameters,
  itemParameters,
  type PagingConfig,
  type ParameterNames,
  type PropertySpec,
  type QuerySpec,
  type Schema,
} from '@prisma-hydra/runtime/defaults'
import type { HydraModel, OperationModel } from '../config/schema/model.js'

/** A number, or its text (what a query string holds). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text of a template type.
const NUMBER = 'number | `${number}`'

/** The TypeScript type of a value a parameter's schema accepts, as a client may send it. */
function valueType(schema: Schema): string {
  if (Array.isArray(schema.enum))
    return schema.enum.map((value) => JSON.stringify(value)).join(' | ')
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  const parts = types.map((type) => {
    switch (type) {
      case 'array':
        return `Array<${valueType((schema.items ?? {}) as Schema)}>`
      case 'integer':
      case 'number':
        return NUMBER
      case 'boolean':
        return 'boolean | string'
      default:
        return 'string'
    }
  })
  return [...new Set(parts)].join(' | ')
}

/** The paging settings the operation's descriptor states (resource-module.ts writes the same). */
function pagingOf(operation: OperationModel, parameters: ParameterNames): PagingConfig {
  const { viaCursor: _cursor, ...paging } = operation.paging
  return {
    ...paging,
    parameters,
    ...(operation.cursor ? { cursor: operation.cursor } : {}),
  }
}

/** The members of the type of the query an operation reads (`"page"?: number | ...`). */
export function queryEntries(
  operation: OperationModel,
  parameters: ParameterNames,
  filterParameters: HydraModel['filterParameters']
): string[] {
  const query: QuerySpec | undefined = operation.query && {
    ...operation.query,
    parameters: filterParameters,
  }
  return collectionParameters({ name: '', fields: [] }, pagingOf(operation, parameters), query).map(
    (parameter) => `${JSON.stringify(parameter.name)}?: ${valueType(parameter.schema)}`
  )
}

/**
 * The type of the query an operation reads, every parameter optional; when it reads some of the
 * parameters of an earlier operation (`first`, its type's name and members) and nothing else, that
 * type without the others (`Omit<BookCollectionQuery, "itemsPerPage">`).
 */
export function queryType(
  entries: readonly string[],
  first?: { name: string; entries: readonly string[] }
): string {
  if (entries.length === 0) return 'Record<never, never>'
  if (
    first &&
    first.entries.length > entries.length &&
    entries.every((entry) => first.entries.includes(entry))
  ) {
    const left = first.entries.filter((entry) => !entries.includes(entry))
    const keys = left.map((entry) => entry.slice(0, entry.indexOf('?:')))
    return `Omit<${first.name}, ${keys.join(' | ')}>`
  }
  return `{ ${entries.join('; ')} }`
}

/** The name of an operation's query type: `BookCollectionQuery`, `BookRecentQuery`. */
export const queryTypeName = (model: string, operation: string) =>
  `${model}${operation.charAt(0).toUpperCase()}${operation.slice(1)}Query`

/** The name of the query type of a resource's items: `BookItemQuery`. */
export const itemQueryTypeName = (model: string) => `${model}ItemQuery`

/**
 * The members of the type of the query an item reads: its property filter's parameters
 * (`"properties[]"?: Array<"id" | "title" | ...>`), from the runtime's list that OpenAPI gives.
 */
export function itemQueryEntries(properties: PropertySpec | undefined): string[] {
  return itemParameters(properties).map(
    (parameter) => `${JSON.stringify(parameter.name)}?: ${valueType(parameter.schema)}`
  )
}
