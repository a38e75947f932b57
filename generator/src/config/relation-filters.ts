/**
 * Relation filters by the related item's IRI (`author=/authors/3`,
 * `line=/order-lines/orderId=3;productId=7`), completed once every model is resolved: the
 * target's collection path and key types, and where the condition is written (the foreign key,
 * or through the relation when it references another unique key of the target).
 */
import type { RelatedKeyField, ValueType } from '@prisma-hydra/runtime/defaults'
import type { Problem } from '../problems.js'
import type { PendingRelation } from './filters.js'
import type { FieldModel, ItemKeyModel } from './model.js'

const valueTypeOf = (field: FieldModel): ValueType => ({
  type: field.kind === 'enum' ? 'Enum' : field.type,
  ...(field.uuid ? { uuid: true } : {}),
  ...(field.enumValues ? { enumValues: field.enumValues } : {}),
})

/**
 * A composite target key's fields, each with the foreign key holding it when the relation
 * references exactly the key's fields; otherwise (another unique key) none: the condition then
 * goes through the relation.
 */
function compositeKey(key: ItemKeyModel, relation: PendingRelation): RelatedKeyField[] {
  const names = key.fields.map((field) => field.name)
  const direct =
    relation.references.length === names.length &&
    names.every((name) => relation.references.includes(name))
  return key.fields.map((field) => {
    const foreignKey = relation.foreignKeys[relation.references.indexOf(field.name)]
    return {
      name: field.name,
      ...valueTypeOf(field),
      ...(direct && foreignKey ? { foreignKey } : {}),
    }
  })
}

/**
 * Fills each relation search with its target's collection path and id type, once every model is
 * resolved; a target that is not served is an error.
 */
export function resolveRelations(
  pending: ReadonlyArray<PendingRelation & { location: string }>,
  served: ReadonlyMap<string, { collectionPath: string; id: FieldModel; key: ItemKeyModel }>,
  problems: Problem[]
): void {
  for (const relation of pending) {
    const target = served.get(relation.target)
    if (!target) {
      problems.push({
        severity: 'error',
        location: relation.location,
        source: relation.source,
        option: 'search',
        message: `relation "${relation.field}" leads to ${relation.target}, which is not served: its items have no IRI to filter by; add /// @pagination to ${relation.target}`,
      })
      continue
    }
    const id = valueTypeOf(target.id)
    // A composite key is read field by field. A foreign key to another unique field of the target
    // (`references: [handle]`) holds no value of the IRI's key: the condition is on the related
    // item's key, through the relation.
    const direct = relation.references.length === 1 && relation.references[0] === target.id.name
    const reached =
      target.key.fields.length > 1
        ? { key: compositeKey(target.key, relation) }
        : direct
          ? {}
          : { through: target.id.name }
    Object.assign(relation.spec, {
      ...id,
      relation: {
        ...relation.spec.relation,
        collectionPath: target.collectionPath,
        id,
        ...reached,
      },
    })
  }
}
