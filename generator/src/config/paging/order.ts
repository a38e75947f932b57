import { orderKeyOf, scalarType } from '@prisma-hydra/runtime/defaults'
import type { AnnotationValue } from '../../annotations/parse.js'
import { didYouMean, type Report, show } from '../../problems.js'
import type { CursorKeyModel, FieldModel, OrderEntry } from '../schema/model.js'

/** Whether a field can key a cursor or an unpaged batch: Prisma compares its values with lt/gt. */
export function comparable(field: FieldModel): boolean {
  return field.kind === 'scalar' && scalarType(field.type)?.cursor === true
}

/** Reads an `order: { field: "asc" | "desc" }` argument, checking each field can be ordered by. */
export function readOrder(
  value: AnnotationValue | undefined,
  source: string,
  fields: ReadonlyMap<string, FieldModel>,
  report: Report
): OrderEntry[] | undefined {
  if (value === undefined) return undefined
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    Object.keys(value).length === 0
  ) {
    report({
      source,
      option: 'order',
      message: `must be an object of fields and directions, e.g. { publishedAt: "desc" }, got ${show(value)}`,
    })
    return undefined
  }
  const order: OrderEntry[] = []
  for (const [field, direction] of Object.entries(value)) {
    const checked = checkOrderable(field, fields, source, 'order', report)
    if (typeof direction !== 'string' || !/^(asc|desc)$/i.test(direction)) {
      report({
        source,
        option: 'order',
        message: `direction of "${field}" must be "asc" or "desc", got ${show(direction)}`,
      })
      continue
    }
    if (checked)
      order.push({ field, direction: direction.toLowerCase() as OrderEntry['direction'] })
  }
  return order
}

/** Whether `field` is a scalar or enum field a query can order by; reports why not. */
export function checkOrderable(
  field: string,
  fields: ReadonlyMap<string, FieldModel>,
  source: string,
  option: string,
  report: Report
): boolean {
  const model = fields.get(field)
  if (!model) {
    report({
      source,
      option,
      message: `field "${field}" does not exist or is not a scalar field.${didYouMean(field, [...fields.keys()])} Fields: ${[...fields.keys()].join(', ')}`,
    })
    return false
  }
  if (model.isList || (model.kind === 'scalar' && !scalarType(model.type)?.orderable)) {
    report({
      source,
      option,
      message: `field "${field}" (${model.type}${model.isList ? '[]' : ''}) cannot be ordered by; use a String, number, Boolean, DateTime or enum field`,
    })
    return false
  }
  return true
}

/**
 * The order as a keyset key, for reading unpaged responses in batches
 * (docs/paging.md#d5-unpaged-collections-are-streamed): the runtime's derivation (`orderKeyOf`,
 * which `defineOperations` runs over the generated resource) over the model's fields. Null when a
 * field is optional, a list or not comparable with lt/gt (an enum, a Boolean): batches then go by
 * offset.
 */
export function keysetKey(
  order: readonly OrderEntry[],
  fields: ReadonlyMap<string, FieldModel>
): CursorKeyModel[] | null {
  const key = orderKeyOf(order, (name) => {
    const field = fields.get(name)
    return (
      field && {
        type: field.kind === 'enum' ? 'Enum' : field.type,
        required: field.isRequired,
        list: field.isList,
        uuid: field.uuid,
      }
    )
  })
  return key?.map((entry) => ({ ...entry, uuid: entry.uuid === true })) ?? null
}
