import type { DMMF } from '@prisma/generator-helper'
import { type Problem, reporter } from '../problems.js'
import { checkEntrypointKeys, checkPaths } from './api-names.js'
import type { GlobalConfig } from './global.js'
import type { HydraModel, ResourceModel } from './model.js'
import { resolveResource } from './resource.js'

/**
 * Turns the DMMF and the global config into the model the emitter needs, checking every
 * annotation against the Prisma model. Pure; returns every problem found.
 */
export function resolveHydraModel(
  datamodel: DMMF.Datamodel,
  global: GlobalConfig,
  provider: string
): { model: HydraModel; problems: Problem[] } {
  const problems: Problem[] = []
  const resources: ResourceModel[] = []
  for (const model of datamodel.models) {
    const report = reporter(problems, `Model "${model.name}"`)
    const resource = resolveResource(model, datamodel, global, report, problems)
    if (resource) resources.push(resource)
  }
  checkPaths(resources, problems)
  checkEntrypointKeys(resources, problems)
  const model: HydraModel = {
    resources,
    parameters: global.parameters,
    provider,
    hydraPrefix: global.hydraPrefix ?? true,
  }
  if (global.title) model.title = global.title
  if (global.description) model.description = global.description
  return { model, problems }
}
