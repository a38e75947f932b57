/**
 * Every model of the schema as the `compiled` engine writes conditions and orders through its
 * relations (the runtime's CompiledModels): its table, its scalar fields' columns and types, and
 * each relation's join columns, read from the DMMF.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { CompiledRelationModel, CompiledTableModel } from '../schema/model.js'
import { backRelationOf } from './relations.js'

type Pair = readonly [string, string]
type Table = CompiledTableModel['table']

const tableOf = (model: DMMF.Model): Table => ({
  name: model.dbName ?? model.name,
  schema: model.schema ?? null,
})

/** The columns of `names`, fields of `model`. */
const columnsOf = (model: DMMF.Model, names: readonly string[]): string[] =>
  names.map((name) => {
    const field = model.fields.find((candidate) => candidate.name === name)
    return field?.dbName ?? name
  })

const zip = (left: readonly string[], right: readonly string[]): Pair[] =>
  left.map((column, index) => [column, right[index] ?? column] as const)

/** The single field of the model's id, when it has one. */
const idColumn = (model: DMMF.Model): string | undefined => {
  const ids = model.fields.filter((field) => field.isId)
  return ids.length === 1 ? (ids[0]?.dbName ?? ids[0]?.name) : undefined
}

/**
 * `field` of `model` as the compiled engine joins it, or undefined where it does not: an implicit
 * many-to-many relation of a model to itself, between models with an `@@schema`, or between
 * models without a single-field id.
 */
function relationOf(
  model: DMMF.Model,
  field: DMMF.Field,
  byName: ReadonlyMap<string, DMMF.Model>
): CompiledRelationModel | undefined {
  const target = byName.get(field.type)
  if (!target) return undefined
  const many = field.isList ? ({ many: true } as const) : {}
  if (field.relationFromFields?.length)
    return {
      model: target.name,
      owned: true,
      on: zip(
        columnsOf(model, field.relationFromFields),
        columnsOf(target, field.relationToFields ?? [])
      ),
    }
  const back = backRelationOf(model, field, target)
  if (!back) return undefined
  if (back.relationFromFields?.length)
    return {
      model: target.name,
      ...many,
      on: zip(
        columnsOf(model, back.relationToFields ?? []),
        columnsOf(target, back.relationFromFields)
      ),
    }
  // Prisma's join table `_<relation>`: column A holds the key of the model whose name sorts
  // first, B the other's.
  const own = idColumn(model)
  const other = idColumn(target)
  if (!field.isList || !back.isList || target.name === model.name || !own || !other)
    return undefined
  if (model.schema || target.schema) return undefined
  const first = model.name < target.name
  return {
    model: target.name,
    many: true,
    on: [[own, first ? 'A' : 'B']],
    through: {
      table: { name: `_${field.relationName}`, schema: null },
      on: [[first ? 'B' : 'A', other]],
    },
  }
}

/**
 * The native type of a `String` field on PostgreSQL (`Inet` of `@db.Inet`), where it declares
 * one: the runtime tags a page by such a field's values only where its equality is text equality
 * (runtime/src/data/value-tags.ts). Undefined on other providers, whose native types it does not read.
 */
export function nativeTypeOf(field: DMMF.Field, provider: string): string | undefined {
  if (provider !== 'postgresql' || field.type !== 'String') return undefined
  return field.nativeType?.[0] ?? undefined
}

/** Every model of `datamodel`, by name. */
export function compiledModels(
  datamodel: DMMF.Datamodel,
  provider: string
): Record<string, CompiledTableModel> {
  const byName = new Map(datamodel.models.map((model) => [model.name, model]))
  const models: Record<string, CompiledTableModel> = {}
  for (const model of datamodel.models) {
    const columns: CompiledTableModel['columns'] = {}
    const relations: CompiledTableModel['relations'] = {}
    const nativeTypes: Record<string, string> = {}
    for (const field of model.fields) {
      const native = nativeTypeOf(field, provider)
      if (native) nativeTypes[field.name] = native
      if ((field.kind === 'scalar' || field.kind === 'enum') && !field.isList)
        columns[field.name] = [field.dbName ?? field.name, field.type]
      if (field.kind !== 'object') continue
      const relation = relationOf(model, field, byName)
      if (relation) relations[field.name] = relation
    }
    models[model.name] = {
      table: tableOf(model),
      columns,
      ...(Object.keys(nativeTypes).length > 0 ? { nativeTypes } : {}),
      relations,
    }
  }
  return models
}
