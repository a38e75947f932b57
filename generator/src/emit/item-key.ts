/**
 * @module
 * A resource's key as the runtime's `KeySpec` literal (runtime/src/hydra/item-key.ts): the kind
 * its item IRIs are written and read as, with what narrows its values (a `@db.Uuid` column, an
 * enum's values), or a composite key's fields; and the Prisma code that finds a row by it.
 */
import type { FieldModel, ItemKeyModel, ResourceModel } from '../config/model.js'

/** The runtime's kind of a key field: its Prisma type, or `Enum`. */
export function keyKind(field: FieldModel): string {
  return field.kind === 'enum' ? 'Enum' : field.type
}

/** One key field as the runtime's `KeyField` literal. */
export function keyFieldLiteral(field: FieldModel): string {
  const parts = [`name: ${JSON.stringify(field.name)}`, `kind: '${keyKind(field)}'`]
  if (field.uuid) parts.push('uuid: true')
  if (field.enumValues) parts.push(`values: ${JSON.stringify(field.enumValues)}`)
  return `{ ${parts.join(', ')} }`
}

const isComposite = (key: ItemKeyModel) => key.fields.length > 1

/** A key as the runtime's `KeySpec` literal. */
export function keySpecLiteral(key: ItemKeyModel): string {
  if (!isComposite(key)) return keyFieldLiteral(key.fields[0] as FieldModel)
  const fields = key.fields.map(keyFieldLiteral).join(', ')
  return `{ name: ${JSON.stringify(key.name)}, kind: 'Composite', fields: [${fields}] }`
}

/** The resource's key as the runtime's `KeySpec` literal. */
export function keyLiteral(resource: ResourceModel): string {
  return keySpecLiteral(resource.key)
}

/** Prisma's `select` of the key's fields. */
export function keySelect(key: ItemKeyModel): string {
  return `{ ${key.fields.map((field) => `${field.name}: true`).join(', ')} }`
}

/**
 * The `where` of Prisma's `findUnique` for a key value `id`: an enum key is typed as the client's
 * enum, a composite key as Prisma's compound key input (the route read every field of it, each
 * checked against its column).
 */
export function uniqueWhere(resource: ResourceModel, id = 'id'): string {
  return `{ ${resource.key.name}: ${keyValue(resource, id)} }`
}

/** A key value `id` as Prisma's type of the key (the client's enum, the compound key input). */
export function keyValue(resource: ResourceModel, id = 'id'): string {
  const typed = `NonNullable<Prisma.${resource.name}WhereUniqueInput['${resource.key.name}']>`
  return isComposite(resource.key) || resource.idField.kind === 'enum' ? `${id} as ${typed}` : id
}

/**
 * The condition on a to-many relation's target rows of one parent, for the `is` relation filter:
 * the parent's key fields (a composite key's value is an object of exactly those fields).
 */
export function parentKeyCondition(parent: ResourceModel, id = 'id'): string {
  return isComposite(parent.key)
    ? `${id} as Prisma.${parent.name}WhereInput`
    : `{ ${parent.idField.name}: ${id} }`
}
