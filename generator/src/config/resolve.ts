import type { DMMF } from '@prisma/generator-helper'
import type { Problem } from '../problems.js'
import { checkEntrypointKeys, checkPaths } from './api-names.js'
import { buildCatalog } from './catalog.js'
import type { GlobalConfig } from './global.js'
import type { HydraModel } from './model.js'
import { resolveResource } from './resource.js'
import { unservedForeignKeys } from './unserved-keys.js'

/**
 * Turns the DMMF and the global config into the model the emitter needs, checking every
 * annotation against the Prisma model: the catalog of models first, then each resource against
 * it. Pure; returns every problem found.
 */
export function resolveHydraModel(
  datamodel: DMMF.Datamodel,
  global: GlobalConfig,
  provider: string
): { model: HydraModel; problems: Problem[] } {
  const catalog = buildCatalog(datamodel, global, provider)
  const resolved = catalog.models.map((entry) => resolveResource(entry, catalog))
  const resources = resolved.flatMap(({ resource }) => (resource ? [resource] : []))
  const problems = [
    ...resolved.flatMap((result) => result.problems),
    ...unservedForeignKeys(catalog),
    ...checkPaths(resources),
    ...checkEntrypointKeys(resources),
  ]
  const model: HydraModel = {
    resources,
    parameters: global.parameters,
    filterParameters: global.filterParameters,
    provider,
    hydraPrefix: global.hydraPrefix ?? true,
    ...(global.title ? { title: global.title } : {}),
    ...(global.description ? { description: global.description } : {}),
  }
  return { model, problems }
}
