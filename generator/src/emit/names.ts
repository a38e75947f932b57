/**
 * @module
 * The names of the declarations a resource module exports, shared by its writers and the index.
 */

import type { ResourceModel } from '../config/schema/model.js'
import { camelCase, pascalCase } from '../config/schema/naming.js'
import type { EmitContext } from './context.js'

/** Names of the declarations a resource module exports, shared with the index writer. */
export function resourceNames(resource: ResourceModel) {
  const base = camelCase(resource.fileName)
  return {
    member: `${resource.name}Member`,
    hideable: `${resource.name}Hideable`,
    resource: `${base}Resource`,
    model: `${base}Model`,
    operations: `${base}Operations`,
    relations: `${base}Relations`,
    createApp: `create${pascalCase(base)}App`,
    row: `${resource.name}Row`,
    providers: `${resource.name}Providers`,
    appOptions: `${resource.name}AppOptions`,
    access: `${resource.name}Access`,
    select: `${base}Select`,
    module: `./${resource.fileName}`,
  }
}

/**
 * Whether the resource has offset-paged operations, whose Prisma query a provider may replace:
 * on Prisma 7, whose `where` and `orderBy` the providers are handed.
 */
export function hasProviders(resource: ResourceModel, client: EmitContext['client']): boolean {
  return client === 'prisma7' && resource.operations.some((operation) => !operation.cursor)
}
