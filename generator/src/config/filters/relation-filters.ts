/**
 * Relation filters by the related item's IRI (`author=/authors/3`,
 * `line=/order-lines/orderId=3;productId=7`), read against the target's served model: its
 * collection path and key types, and where the condition is written (the foreign key,
 * or through the relation when it references another unique key of the target).
 */
import type { DMMF } from '@prisma/generator-helper'
import type { FilterSpec, RelatedKeyField, ValueType } from '@prisma-hydra/runtime/defaults'
import type { AnnotationValue } from '../../annotations/parse.js'
import { show } from '../../problems.js'
import type { ServedModel } from '../models/served-model.js'
import type { FieldModel, ItemKeyModel } from '../schema/model.js'

export const valueTypeOf = (field: FieldModel): ValueType => ({
  type: field.kind === 'enum' ? 'Enum' : field.type,
  ...(field.uuid ? { uuid: true } : {}),
  ...(field.enumValues ? { enumValues: field.enumValues } : {}),
})

/**
 * A composite target key's fields, each with the foreign key holding it when the relation
 * references exactly the key's fields; otherwise (another unique key) none: the condition then
 * goes through the relation.
 */
function compositeKey(
  key: ItemKeyModel,
  references: readonly string[],
  foreignKeys: readonly string[]
): RelatedKeyField[] {
  const names = key.fields.map((field) => field.name)
  const direct =
    references.length === names.length && names.every((name) => references.includes(name))
  return key.fields.map((field) => {
    const foreignKey = foreignKeys[references.indexOf(field.name)]
    return {
      name: field.name,
      ...valueTypeOf(field),
      ...(direct && foreignKey ? { foreignKey } : {}),
    }
  })
}

/**
 * The search filter of a relation by its related item's IRI or id (`@filter(search: { author:
 * "exact" })`), or what is wrong with it (a message following the relation's name): to-one, its
 * foreign key on this model, its target served.
 */
export function relationSearch(
  relation: DMMF.Field,
  setting: AnnotationValue | undefined,
  served: ReadonlyMap<string, ServedModel>
): FilterSpec | string {
  if (setting !== 'exact')
    return `takes only the "exact" strategy (an IRI or an id), got ${show(setting)}`
  const keys = relation.relationFromFields ?? []
  if (relation.isList || keys.length === 0)
    return relation.isList
      ? 'is to-many: only to-one relations with their foreign key on this model are filterable'
      : 'has no foreign key on this model: only to-one relations holding the key are filterable'
  const target = served.get(relation.type)
  if (!target)
    return `leads to ${relation.type}, which is not served: its items have no IRI to filter by; add /// @pagination to ${relation.type}`
  const foreignKey = keys[0] as string
  const id = valueTypeOf(target.idField)
  const references = relation.relationToFields ?? []
  // A composite key is read field by field. A foreign key to another unique field of the target
  // (`references: [handle]`) holds no value of the IRI's key: the condition is on the related
  // item's key, through the relation.
  const direct = references.length === 1 && references[0] === target.idField.name
  const reached =
    target.key.fields.length > 1
      ? { key: compositeKey(target.key, references, keys) }
      : direct
        ? {}
        : { through: target.idField.name }
  return {
    kind: 'search',
    field: relation.name,
    strategy: 'exact',
    type: id.type,
    relation: {
      foreignKey,
      collectionPath: target.collectionPath,
      id,
      model: relation.type,
      ...reached,
    },
    // After the relation, as the emitted query writes them.
    ...(id.uuid ? { uuid: id.uuid } : {}),
    ...(id.enumValues ? { enumValues: id.enumValues } : {}),
  }
}
