import type { DMMF } from '@prisma/generator-helper'
import { withTieBreaker } from '@prisma-hydra/runtime/defaults'
import type { Report } from '../../problems.js'
import type { FieldModel, OperationModel, OrderEntry, ResolvedPaging } from '../schema/model.js'
import { checkOrderable, comparable, keysetKey } from './order.js'

/** What the checks of an operation's key need to know of its model. */
export interface KeyContext {
  model: DMMF.Model
  datamodel: DMMF.Datamodel
  fields: ReadonlyMap<string, FieldModel>
  /** The fields of the item key: the tie-breaker of every order. */
  keyFields: readonly string[]
  report: Report
}

/** An operation's orders and keys (model.ts's OperationModel). */
type OrderAndCursor = Pick<OperationModel, 'order' | 'ownOrder' | 'cursor' | 'orderKey'>

/**
 * The order of an operation, and its cursor key when it is cursor-paged: the listed cursor fields,
 * then the item key's fields when they are not unique together, so no row is skipped or repeated.
 * Offset-paged, the declared order ends with the key's fields as the runtime's `withTieBreaker`
 * ends it.
 */
export function orderAndCursor(
  paging: ResolvedPaging,
  order: readonly OrderEntry[] | undefined,
  source: string,
  context: KeyContext
): OrderAndCursor {
  const { fields, keyFields, report, model } = context
  if (!paging.viaCursor) {
    const full = withTieBreaker(order ?? [], keyFields)
    return { order: full, ownOrder: order ?? [], cursor: null, orderKey: keysetKey(full, fields) }
  }
  if (order) {
    report({
      source,
      option: 'order',
      message:
        'cannot be combined with viaCursor: a cursor-paged collection is ordered by its cursor fields',
    })
  }
  const listed: OrderEntry[] = []
  for (const entry of paging.viaCursor) {
    if (!checkOrderable(entry.field, fields, source, 'viaCursor', report)) continue
    const field = fields.get(entry.field) as FieldModel
    if (!comparable(field)) {
      report({
        source,
        option: 'viaCursor',
        message: `field "${entry.field}" (${field.type}) cannot be a cursor field: Prisma cannot compare it with lt/gt; use a String, Int, BigInt, Float, Decimal or DateTime field`,
      })
      continue
    }
    if (!field.isRequired) {
      report({
        source,
        option: 'viaCursor',
        message: `field "${entry.field}" is optional; cursor fields must be required, as a null has no place in the key order`,
      })
      continue
    }
    if (listed.some((previous) => previous.field === entry.field)) {
      report({
        source,
        option: 'viaCursor',
        message: `field "${entry.field}" is listed more than once`,
      })
      continue
    }
    listed.push({ field: entry.field, direction: entry.direction === 'DESC' ? 'desc' : 'asc' })
  }
  const names = listed.map((entry) => entry.field)
  const last = listed[listed.length - 1]
  const key =
    isUnique(model, names) || !last
      ? listed
      : [
          ...listed,
          ...keyFields
            .filter((name) => !names.includes(name))
            .map((field) => ({ field, direction: last.direction })),
        ]
  checkIndex(
    context,
    key.map((entry) => entry.field),
    source
  )
  const cursor = key.map((entry) => {
    const field = fields.get(entry.field) as FieldModel
    return {
      field: entry.field,
      direction: entry.direction,
      type: field.type,
      uuid: field.uuid,
    }
  })
  return { order: key, ownOrder: [], cursor, orderKey: null }
}

/** Whether the fields are unique together: one of them is, or they hold a unique set or the key. */
function isUnique(model: DMMF.Model, names: string[]): boolean {
  const covers = (set: readonly string[]) =>
    set.length > 0 && set.every((name) => names.includes(name))
  return (
    model.fields.some((field) => names.includes(field.name) && (field.isId || field.isUnique)) ||
    model.uniqueFields.some(covers) ||
    covers(model.primaryKey?.fields ?? [])
  )
}

/** Warns when no index starts with the key's fields: each page would then scan instead of seek. */
function checkIndex(context: KeyContext, key: string[], source: string): void {
  const { datamodel, model, report } = context
  if (key.length === 0) return
  const indexes = (datamodel.indexes ?? []).filter((index) => index.model === model.name)
  const supported = indexes.some((index) =>
    key.every((name, position) => index.fields[position]?.name === name)
  )
  if (!supported) {
    report({
      severity: 'warning',
      source,
      option: 'viaCursor',
      message: `no index starts with the cursor key (${key.join(', ')}): add @@index([${key.join(', ')}]) to the model so each page seeks to its position instead of scanning to it`,
    })
  }
}
