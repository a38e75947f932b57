/**
 * The catalog: every model of the schema, its annotations parsed once, and for each served model
 * what its own annotations and fields say (its key, path, fields and links). Built first and
 * never changed; each resource is then resolved against it alone.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { Annotation } from '../../annotations/parse.js'
import { type Problem, reporter } from '../../problems.js'
import type { GlobalConfig } from '../paging/global.js'
import { MODEL_ANNOTATIONS, readAnnotations } from '../schema/annotation-args.js'
import { type FieldAnnotations, readFieldAnnotations } from '../schema/fields.js'
import { readServedModel, type ServedModel } from './served-model.js'

/** One model of the schema as its annotations declare it. */
export interface CatalogModel {
  readonly model: DMMF.Model
  /** Its model annotations of ours (`@pagination`, `@resource`, `@operation`, `@filter`, `@order`). */
  readonly annotations: readonly Annotation[]
  /** What each field's own annotations say (`@hidden`, `@property`). */
  readonly fields: readonly FieldAnnotations[]
  /** Served (`@pagination`) and keyed: what the resource is built from. */
  readonly served?: ServedModel
  /** What is wrong in its annotations and its model, in the order they are read. */
  readonly problems: readonly Problem[]
}

export interface Catalog {
  readonly datamodel: DMMF.Datamodel
  readonly global: GlobalConfig
  readonly provider: string
  /** Every model, in the schema's order. */
  readonly models: readonly CatalogModel[]
  /** The names of the models carrying `@pagination`, keyed or not. */
  readonly servedNames: ReadonlySet<string>
  /** The served and keyed models, by name. */
  readonly served: ReadonlyMap<string, ServedModel>
}

/** Reads every model's annotations, then what each served model declares. */
export function buildCatalog(
  datamodel: DMMF.Datamodel,
  global: GlobalConfig,
  provider: string
): Catalog {
  const parsed = datamodel.models.map((model) => {
    const problems: Problem[] = []
    const report = reporter(problems, `Model "${model.name}"`)
    const annotations = readAnnotations(model.documentation, MODEL_ANNOTATIONS, report)
    const fields = readFieldAnnotations(model)
    return {
      model,
      annotations,
      fields: fields.fields,
      problems: [...problems, ...fields.problems],
    }
  })
  // Relations are links to served models only: which ones are is known before any is read.
  const servedNames = new Set(
    parsed
      .filter(({ annotations }) =>
        annotations.some((annotation) => annotation.name === 'pagination')
      )
      .map(({ model }) => model.name)
  )
  const models = parsed.map((entry): CatalogModel => {
    const problems: Problem[] = []
    const report = reporter(problems, `Model "${entry.model.name}"`)
    const served = readServedModel(entry, { datamodel, global, servedNames }, report)
    return {
      ...entry,
      ...(served ? { served } : {}),
      problems: [...entry.problems, ...problems],
    }
  })
  return {
    datamodel,
    global,
    provider,
    models,
    servedNames,
    served: new Map(
      models.flatMap((entry) => (entry.served ? [[entry.model.name, entry.served] as const] : []))
    ),
  }
}
