import type { DMMF } from '@prisma/generator-helper'
import { parseAnnotations } from '../annotations/parse.js'
import { type Problem, reporter } from '../problems.js'
import { checkEntrypointKeys, checkPaths } from './api-names.js'
import type { PendingRelation } from './filters.js'
import type { GlobalConfig } from './global.js'
import type { HydraModel, ResourceModel } from './model.js'
import { type PendingRelated, resolveRelatedFields } from './related-filters.js'
import { resolveRelations } from './relation-filters.js'
import { resolveLinks } from './relations.js'
import { resolveResource } from './resource.js'
import { unservedForeignKeys } from './unserved-keys.js'

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
  const relations: Array<PendingRelation & { location: string }> = []
  // Relations are links to served models only: which ones are is known before any is resolved.
  const served = new Set(
    datamodel.models
      .filter((model) =>
        parseAnnotations(model.documentation).annotations.some(
          (annotation) => annotation.name === 'pagination'
        )
      )
      .map((model) => model.name)
  )
  const related: PendingRelated[] = []
  for (const model of datamodel.models) {
    const report = reporter(problems, `Model "${model.name}"`)
    const resource = resolveResource(
      model,
      datamodel,
      global,
      provider,
      report,
      problems,
      {
        provider,
        relations,
        related,
      },
      served
    )
    if (resource) resources.push(resource)
  }
  // Filters through a relation (`author.name`) read their target's served fields.
  resolveRelatedFields(related, resources, datamodel, problems)
  // Relation filters name their targets' paths and id types, known once every model is resolved.
  resolveRelations(
    relations,
    new Map(resources.map((resource) => [resource.name, { ...resource, id: resource.idField }])),
    problems
  )
  resolveLinks(resources, problems)
  problems.push(...unservedForeignKeys(datamodel, served))
  checkPaths(resources, problems)
  checkEntrypointKeys(resources, problems)
  const model: HydraModel = {
    resources,
    parameters: global.parameters,
    filterParameters: global.filterParameters,
    provider,
    hydraPrefix: global.hydraPrefix ?? true,
  }
  if (global.title) model.title = global.title
  if (global.description) model.description = global.description
  return { model, problems }
}
