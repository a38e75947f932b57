/**
 * @module
 * Which fields name a model's items in their IRIs (docs/hydra.md#identifiers): its `@id` or
 * composite `@@id`, or, for a model without one (a Prisma `view` cannot have one), its first
 * required single-field `@unique`, else its first `@@unique` of required fields, served as a
 * composite `@@id` is (Prisma's `findUnique` takes a compound unique as it takes a compound id).
 * A model with none cannot be served; the message says why.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { Report } from '../../problems.js'

/** The fields naming a model's items, and Prisma's name of their unique `where`. */
export interface ItemKey {
  fields: DMMF.Field[]
  name: string
}

/**
 * The key naming the model's items: its `@id`, its composite `@@id` (Prisma's compound name:
 * given, or the fields joined by `_`), else its first required single-field `@unique`.
 */
export function itemKeyOf(model: DMMF.Model): ItemKey | undefined {
  const id = model.fields.find((field) => field.isId)
  if (id) return { fields: [id], name: id.name }
  if (model.primaryKey) {
    const fields = model.primaryKey.fields.map((name) =>
      model.fields.find((field) => field.name === name)
    )
    if (fields.some((field) => !field)) return undefined
    return {
      fields: fields as DMMF.Field[],
      name: model.primaryKey.name ?? model.primaryKey.fields.join('_'),
    }
  }
  const unique = model.fields.find(
    (field) => field.isUnique && field.kind !== 'object' && field.isRequired && !field.isList
  )
  if (unique) return { fields: [unique], name: unique.name }
  for (const index of model.uniqueIndexes) {
    const fields = index.fields.map((name) => model.fields.find((field) => field.name === name))
    // A null never equals a null in a unique index: only required fields name one row.
    if (fields.every((field) => field?.isRequired && !field.isList))
      return { fields: fields as DMMF.Field[], name: index.name ?? index.fields.join('_') }
  }
  return undefined
}

/** The key naming the model's items, or undefined (reported) when the model has none. */
export function resolveItemKey(model: DMMF.Model, report: Report): ItemKey | undefined {
  const key = itemKeyOf(model)
  if (key) return key
  const uniques = [
    ...model.fields.filter((field) => field.isUnique).map((field) => `${field.name} @unique`),
    ...model.uniqueFields.map((fields) => `@@unique([${fields.join(', ')}])`),
  ]
  report({
    source: '@pagination',
    message:
      uniques.length > 0
        ? `has no @id and no unique key of required fields: its unique keys (${uniques.join(', ')}) hold optional fields, and a unique index lets nulls repeat, so no IRI could name one row: add an @id or @@id, or make the fields of a unique key required`
        : 'has no field that names its items: add an @id field, or a required @unique field (the only key a Prisma view can have)',
  })
  return undefined
}
