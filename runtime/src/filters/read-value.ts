/**
 * Reads one filter value as its field's type, strictly: a value the field cannot hold is a 400
 * naming the parameter (docs/filters.md, "Strict values").
 */

import type { ValueType } from '../contract/query.js'
import { badRequest } from '../errors.js'
import { parseCursorValue } from '../paging/cursor.js'

const TRUE = new Set(['1', 'true', 'on', 'yes'])
const FALSE = new Set(['0', 'false', 'off', 'no'])

/** A 400 saying what `parameter` must be. */
export function fail(parameter: string, expected: string, raw: string): never {
  throw badRequest(`The "${parameter}" parameter must be ${expected}, "${raw}" given.`)
}

/** Reads one value as the field's type (the checks of cursor values: range, format, UUID, enum). */
export function readValue(
  type: ValueType & { field: string },
  raw: string,
  parameter: string,
  database: string | undefined
): unknown {
  switch (type.type) {
    case 'Enum':
      if (!type.enumValues?.includes(raw))
        fail(parameter, `one of ${type.enumValues?.join(', ')}`, raw)
      return raw
    case 'Boolean':
      return readBoolean(parameter, raw)
    default:
      return parseCursorValue(
        { field: type.field, direction: 'asc', type: type.type, uuid: type.uuid ?? false },
        raw,
        parameter,
        database
      )
  }
}

export function readBoolean(parameter: string, raw: string): boolean {
  const value = raw.trim().toLowerCase()
  if (TRUE.has(value)) return true
  if (FALSE.has(value)) return false
  fail(parameter, 'a boolean (1, true, on, yes, 0, false, off or no)', raw)
}
