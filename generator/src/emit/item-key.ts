/**
 * @module
 * A resource's key as the runtime's `KeySpec` literal (runtime/src/hydra/item-key.ts): the kind
 * its item IRIs are written and read as, with what narrows its values (a `@db.Uuid` column, an
 * enum's values).
 */
import type { FieldModel, ResourceModel } from '../config/model.js'

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

/** The kind of a resource's key, the type argument of `defineResource`. */
export function resourceKeyKind(resource: ResourceModel): string {
  return keyKind(resource.idField)
}

/** The resource's key as the runtime's `KeySpec` literal. */
export function keyLiteral(resource: ResourceModel): string {
  return keyFieldLiteral(resource.idField)
}

/**
 * The `where` of Prisma's `findUnique` for a key value `id`: an enum key is typed as the client's
 * enum (the route checked it is one of its values).
 */
export function uniqueWhere(resource: ResourceModel, id = 'id'): string {
  const field = resource.idField
  const value =
    field.kind === 'enum'
      ? `${id} as NonNullable<Prisma.${resource.name}WhereUniqueInput['${field.name}']>`
      : id
  return `{ ${field.name}: ${value} }`
}
