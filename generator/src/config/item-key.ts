/**
 * @module
 * Which fields name a model's items in their IRIs (docs/hydra.md#identifiers): its `@id` or
 * composite `@@id`, or, for a model without one (a Prisma `view` cannot have one), its first
 * required single-field `@unique`. A model with none cannot be served; the message says why.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { Report } from '../problems.js'

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
  return unique ? { fields: [unique], name: unique.name } : undefined
}

/** The key naming the model's items, or undefined (reported) when the model has none. */
export function resolveItemKey(model: DMMF.Model, report: Report): ItemKey | undefined {
  const key = itemKeyOf(model)
  if (key) return key
  const composite = model.uniqueFields.map((fields) => `@@unique([${fields.join(', ')}])`)
  report({
    source: '@pagination',
    message:
      composite.length > 0
        ? `has no @id and no required single-field @unique, only the composite ${composite.join(', ')}, which is not supported: add an @id or @@id, or a required @unique field`
        : 'has no field that names its items: add an @id field, or a required @unique field (the only key a Prisma view can have)',
  })
  return undefined
}
