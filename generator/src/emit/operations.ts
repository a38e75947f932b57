/**
 * @module
 * The operations of a resource module (`bookOperations`): each collection operation's path (when
 * not the collection's), resolved paging settings, declared order, cursor key, declared filters
 * and orders, and totals mode.
 */
import type { CodeBlockWriter } from 'ts-morph'
import type {
  CursorKeyModel,
  HydraModel,
  OperationModel,
  ResourceModel,
} from '../config/schema/model.js'
import { defaultParameterNames, type ParameterNames } from '../config/schema/options.js'
import { resourceNames } from './names.js'

/** An operation's paging settings as one object literal (the parameter names: `defineOperations`'). */
function pagingLiteral(operation: OperationModel): string {
  const { paging } = operation
  const settings = [
    `enabled: ${paging.enabled}`,
    `clientEnabled: ${paging.clientEnabled}`,
    `itemsPerPage: ${paging.itemsPerPage}`,
    `clientItemsPerPage: ${paging.clientItemsPerPage}`,
    `maximumItemsPerPage: ${paging.maximumItemsPerPage}`,
    `partial: ${paging.partial}`,
    `clientPartial: ${paging.clientPartial}`,
  ]
  if (paging.clientTotals?.length)
    settings.push(`clientTotals: ${JSON.stringify(paging.clientTotals).replaceAll('"', "'")}`)
  if (operation.cursor) settings.push(`cursor: ${keyList(operation.cursor)}`)
  return `{ ${settings.join(', ')} },`
}

/** Whether the paging parameters have their default names (then `defineOperations` gives them). */
export function defaultParameters(parameters: ParameterNames): boolean {
  const keys = Object.keys(defaultParameterNames) as (keyof ParameterNames)[]
  return keys.every((key) => parameters[key] === defaultParameterNames[key])
}

/** The paging parameter names every operation of the module reads, as an object literal. */
export function parametersLiteral(parameters: ParameterNames): string {
  const names = Object.entries(parameters).map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
  return `{ ${names.join(', ')} }`
}

/** A cursor key as the runtime's `CursorKey[]` literal. */
function keyList(keys: readonly CursorKeyModel[]): string {
  const entries = keys.map((key) => {
    const parts = [`field: '${key.field}'`, `direction: '${key.direction}'`, `type: '${key.type}'`]
    if (key.uuid) parts.push('uuid: true')
    return `{ ${parts.join(', ')} }`
  })
  return `[${entries.join(', ')}]`
}

/**
 * The distinct filter and order specs of a resource's operations, written once each (`query`,
 * `query2`...): extra operations usually share the collection's.
 */
export function querySpecs(
  resource: ResourceModel,
  filterParameters: HydraModel['filterParameters']
): Map<string, string> {
  const specs = new Map<string, string>()
  for (const operation of resource.operations) {
    if (!operation.query) continue
    const text = JSON.stringify({ ...operation.query, parameters: filterParameters })
    if (!specs.has(text)) specs.set(text, specs.size === 0 ? 'query' : `query${specs.size + 1}`)
  }
  return specs
}

/** An operation's declared order as the runtime's `OrderField[]` literal. */
function orderList(operation: OperationModel): string {
  const entries = operation.ownOrder.map(
    (entry) => `{ field: ${JSON.stringify(entry.field)}, direction: '${entry.direction}' }`
  )
  return `[${entries.join(', ')}]`
}

/**
 * `defineOperations(resource, { ... }, { hydraPrefix })`: each operation's data, its name the key;
 * its prefix when it is not the resource's, the parameter names when they are not the defaults.
 */
export function writeOperations(
  resource: ResourceModel,
  filterParameters: HydraModel['filterParameters'],
  specs: ReadonlyMap<string, string>,
  parameters: ParameterNames
) {
  const names = resourceNames(resource)
  return (writer: CodeBlockWriter) => {
    writer.write(`defineOperations(${names.resource}, `).inlineBlock(() => {
      for (const operation of resource.operations) {
        writer.write(`${operation.name}: `).inlineBlock(() => {
          // defineOperations gives the collection path, and ends the order with the key.
          if (operation.path !== resource.collectionPath)
            writer.write('path: ').quote(operation.path).write(',').newLine()
          writer.write(`paging: ${pagingLiteral(operation)}`)
          // The resource's prefix is the module's default (defineOperations' last argument).
          if (operation.hydraPrefix !== resource.hydraPrefix)
            writer.newLine().write(`hydraPrefix: ${operation.hydraPrefix},`)
          if (operation.ownOrder.length > 0)
            writer.newLine().write(`order: ${orderList(operation)},`)
          if (operation.query) {
            const text = JSON.stringify({ ...operation.query, parameters: filterParameters })
            writer.newLine().write(`query: ${specs.get(text)},`)
          }
          if (operation.totals.mode !== 'exact')
            writer.newLine().write(`totals: ${JSON.stringify(operation.totals)},`)
          if (operation.cacheControl)
            writer.newLine().write('cacheControl: ').quote(operation.cacheControl).write(',')
          if (operation.engine) writer.newLine().write(`engine: '${operation.engine}',`)
        })
        writer.write(',').newLine()
      }
    })
    const named = defaultParameters(parameters) ? '' : ', parameters'
    writer.write(`, { hydraPrefix: ${resource.hydraPrefix}${named} })`)
  }
}
