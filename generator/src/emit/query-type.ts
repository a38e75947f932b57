/**
 * The query parameters of each collection operation as a TypeScript type, for Hono's RPC client
 * (`hc`): `{ page?: number | `${number}`; 'order[title]'?: 'asc' | 'desc' | ...; 'genre[]'?: ...[] }`.
 * Written from the runtime's own list of the operation's parameters (the one its OpenAPI document
 * and `hydra:search` give), so the three agree.
 */
import {
  collectionParameters,
  type PagingConfig,
  type ParameterNames,
  type QuerySpec,
  type Schema,
} from '@prisma-hydra/runtime/defaults'
import type { HydraModel, OperationModel } from '../config/model.js'

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

/** The type of the query an operation reads: every parameter optional. */
export function queryType(
  operation: OperationModel,
  parameters: ParameterNames,
  filterParameters: HydraModel['filterParameters']
): string {
  const query: QuerySpec | undefined = operation.query && {
    ...operation.query,
    parameters: filterParameters,
  }
  const entries = collectionParameters(
    { name: '', fields: [] },
    pagingOf(operation, parameters),
    query
  ).map((parameter) => `${JSON.stringify(parameter.name)}?: ${valueType(parameter.schema)}`)
  return entries.length > 0 ? `{ ${entries.join('; ')} }` : 'Record<never, never>'
}

/** The name of an operation's query type: `BookCollectionQuery`, `BookRecentQuery`. */
export const queryTypeName = (model: string, operation: string) =>
  `${model}${operation.charAt(0).toUpperCase()}${operation.slice(1)}Query`
