/**
 * @module
 * Which fields name a model's items in their IRIs (docs/hydra.md#identifiers): its `@id`, or, for
 * a model without one (a Prisma `view` cannot have one), its first required single-field
 * `@unique`. A model with neither cannot be served; the message says what to add.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { Report } from '../problems.js'

/** The field naming the model's items: its `@id`, else its first required single-field `@unique`. */
export function itemKeyOf(model: DMMF.Model): DMMF.Field | undefined {
  return (
    model.fields.find((field) => field.isId) ??
    (model.primaryKey
      ? undefined
      : model.fields.find(
          (field) => field.isUnique && field.kind !== 'object' && field.isRequired && !field.isList
        ))
  )
}

/** The field naming the model's items, or undefined (reported) when the model has none. */
export function resolveItemKey(model: DMMF.Model, report: Report): DMMF.Field | undefined {
  const key = itemKeyOf(model)
  if (key) return key
  if (model.primaryKey) {
    report({
      source: '@pagination',
      message: `has a composite primary key @@id([${model.primaryKey.fields.join(', ')}]), which is not supported yet: items need a single key field for their IRIs`,
    })
    return undefined
  }
  const composite = model.uniqueFields.map((fields) => `@@unique([${fields.join(', ')}])`)
  report({
    source: '@pagination',
    message:
      composite.length > 0
        ? `has no @id and no required single-field @unique, only the composite ${composite.join(', ')}, which is not supported yet: items need a single key field for their IRIs`
        : 'has no field that names its items: add an @id field, or a required @unique field (the only key a Prisma view can have)',
  })
  return undefined
}
