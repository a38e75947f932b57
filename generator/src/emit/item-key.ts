/**
 * @module
 * A resource's key as the runtime's `KeySpec` literal (runtime/src/hydra/item-key.ts): the kind
 * its item IRIs are written and read as, with what narrows its values (a `@db.Uuid` column, an
 * enum's values), or a composite key's fields; and Prisma's `select` of its fields.
 */
import type { FieldModel, ItemKeyModel, ResourceModel } from '../config/schema/model.js'

/** The runtime's kind of a key field: its Prisma type, or `Enum`. */
function keyKind(field: FieldModel): string {
  return field.kind === 'enum' ? 'Enum' : field.type
}

/** One key field as the runtime's `KeyField` literal. */
function keyFieldLiteral(field: FieldModel): string {
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
