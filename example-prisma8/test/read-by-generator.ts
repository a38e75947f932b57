/** What the generator reads of a DMMF datamodel (generator/src/config), to compare two. */
import type { DMMF } from '@prisma/generator-helper'

/** Every model, field and enum property the generator reads; an absent one as null. */
export function readByGenerator(datamodel: DMMF.Datamodel) {
  return {
    models: datamodel.models.map((model) => ({
      name: model.name,
      dbName: model.dbName ?? null,
      schema: model.schema ?? null,
      documentation: model.documentation ?? null,
      primaryKey: model.primaryKey,
      uniqueFields: model.uniqueFields,
      uniqueIndexes: model.uniqueIndexes,
      fields: model.fields.map((field) => ({
        name: field.name,
        kind: field.kind,
        type: field.type,
        isList: field.isList,
        isRequired: field.isRequired,
        isId: field.isId,
        isUnique: field.isUnique,
        dbName: field.dbName ?? null,
        nativeType: field.nativeType ?? null,
        documentation: field.documentation ?? null,
        relationName: field.relationName ?? null,
        relationFromFields: field.relationFromFields ?? null,
        relationToFields: field.relationToFields ?? null,
      })),
    })),
    enums: datamodel.enums.map(({ name, values }) => ({
      name,
      values: values.map((value) => ({ name: value.name, dbName: value.dbName ?? null })),
    })),
  }
}

/** The indexes as the generator reads them: a model, a kind, its fields in order. */
export const indexKeys = (datamodel: DMMF.Datamodel) =>
  (datamodel.indexes ?? []).map(
    (index) =>
      `${index.model} ${index.type} (${index.fields.map((field) => field.name).join(', ')})`
  )
