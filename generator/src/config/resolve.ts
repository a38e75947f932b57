import type { DMMF } from '@prisma/generator-helper'
import type { Problem } from '../problems.js'
import { checkEmbedOperations } from './embed-operations.js'
import { buildCatalog } from './models/catalog.js'
import { feedPathClashes } from './models/change-feed-paths.js'
import { readChangeLog } from './models/change-log.js'
import { compiledEnums } from './models/compiled-enums.js'
import { compiledModels } from './models/compiled-models.js'
import { unservedForeignKeys } from './models/unserved-keys.js'
import type { GlobalConfig } from './paging/global.js'
import { resolveResource } from './resource.js'
import { checkEntrypointKeys, checkPaths } from './schema/api-names.js'
import type { HydraModel } from './schema/model.js'

/**
 * Turns the DMMF and the global config into the model the emitter needs, checking every
 * annotation against the Prisma model: the catalog of models first, then each resource against
 * it. Pure; returns every problem found. `schema`, the schema's text when given, tells views apart.
 */
export function resolveHydraModel(
  datamodel: DMMF.Datamodel,
  global: GlobalConfig,
  provider: string,
  schema?: string
): {
  /** The resolved model: the resources without errors. */
  model: HydraModel
  /** Every problem found. */
  problems: Problem[]
} {
  const catalog = buildCatalog(datamodel, global, provider)
  const resolved = catalog.models.map((entry) => resolveResource(entry, catalog))
  const resources = resolved.flatMap(({ resource }) => (resource ? [resource] : []))
  const changeLog = readChangeLog(datamodel, provider, resources, schema)
  const problems = [
    ...resolved.flatMap((result) => result.problems),
    ...changeLog.problems,
    ...unservedForeignKeys(catalog),
    ...checkPaths(resources),
    ...feedPathClashes(resources),
    ...checkEntrypointKeys(resources),
    ...checkEmbedOperations(resources),
  ]
  const model: HydraModel = {
    resources,
    parameters: global.parameters,
    filterParameters: global.filterParameters,
    provider,
    hydraPrefix: global.hydraPrefix ?? true,
    compiledModels: compiledModels(datamodel, provider),
    compiledEnums: compiledEnums(datamodel),
    ...(global.title ? { title: global.title } : {}),
    ...(global.description ? { description: global.description } : {}),
    ...(changeLog.tables ? { changeLog: changeLog.tables } : {}),
  }
  return { model, problems }
}
