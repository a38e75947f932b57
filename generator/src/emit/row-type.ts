/**
 * @module
 * A resource's row type on Prisma 8 (`BookRow`): the values the runtime's compiled engine reads
 * of each column its `select` names (a Date, a Prisma Decimal, a bigint, a Uint8Array, parsed
 * JSON) and of the keys read through its links. On Prisma 7 the client's own payload type says
 * the same (`Prisma.BookGetPayload<{ select: typeof bookSelect }>`); Prisma 8 generates none.
 */
import type { ItemKeyModel, ResourceModel } from '../config/schema/model.js'

/** The TypeScript type of a Prisma scalar's value as the compiled engine reads it. */
const SCALAR_TYPES: Readonly<Record<string, string>> = {
  String: 'string',
  Int: 'number',
  Float: 'number',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'Date',
  Decimal: 'Decimal',
  Json: 'JsonValue',
  Bytes: 'Uint8Array',
}

/** One value of a field of `type` (an enum's values, or a scalar's type). */
function valueType(type: string, values: readonly string[] | undefined): string {
  if (values && values.length > 0) return values.map((value) => JSON.stringify(value)).join(' | ')
  const scalar = SCALAR_TYPES[type]
  if (!scalar) throw new Error(`No row type for the Prisma type ${type}.`)
  return scalar
}

/** `{ id: number }`: the fields of `key`, each of its value type. */
function keyType(key: ItemKeyModel): string {
  return `{ ${key.fields.map((field) => `${field.name}: ${valueType(field.type, field.enumValues)}`).join('; ')} }`
}

/** Whether the row type names `name` (a runtime type the module imports). */
export function rowTypeUses(resource: ResourceModel, name: 'Decimal' | 'JsonValue'): boolean {
  return rowType(resource).includes(name)
}

/** `{ id: number; title: string; author: { id: number } }`, in the order of the `select`. */
export function rowType(resource: ResourceModel): string {
  const entries = resource.selected.map((name) => {
    const column = resource.columns.find((candidate) => candidate.name === name)
    if (column)
      return `${name}: ${valueType(column.type, column.values)}${column.optional ? ' | null' : ''}`
    // A list field: no column of its own in the compiled form.
    const field = [...resource.fields, ...resource.unshown].find((item) => item.name === name)
    if (!field) throw new Error(`${resource.name} selects ${name}, which it does not describe.`)
    return `${name}: ${valueType(field.type, field.enumValues)}[]`
  })
  for (const link of resource.links) {
    if (!Array.isArray(link.from)) continue
    const [relation, keyField] = link.from
    // As the select reads it (resource-module.ts): the related id, or the related key's fields.
    const target = link.targetResource
    if (keyField && !target)
      throw new Error(`${resource.name}'s link ${link.field} leads to no served resource.`)
    const key: ItemKeyModel =
      keyField && target
        ? { name: keyField, fields: [{ ...target.idField, name: keyField }] }
        : (target?.key ?? resource.key)
    entries.push(`${relation}: ${keyType(key)}${link.required ? '' : ' | null'}`)
  }
  return `{ ${entries.join('; ')} }`
}
