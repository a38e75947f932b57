/**
 * @module
 * Whether a caller's row scope held on a row as the change log keeps it (its `image`, the values
 * before the change: docs/syncing.md), so that a feed tells a deletion only to a caller who could
 * see the row. The scope is evaluated in SQL's three-valued logic, as the database would evaluate
 * it on the row: a comparison with a null is unknown, and only a condition that is true holds.
 * What the image cannot answer exactly (a relation, a text pattern or a caseless comparison, a
 * field that is not an integer, float, 64-bit integer, boolean, text or enum) is an
 * {@link UnknownScope} naming the part, never a guess.
 */
import type { Condition, FieldTest } from '../../plan/condition.js'

/** A scope the log's image cannot evaluate: `part` names what it reads. */
export class UnknownScope extends Error {
  constructor(readonly part: string) {
    super(`the scope reads ${part}, which the change log cannot evaluate`)
    this.name = 'UnknownScope'
  }
}

/** A field's Prisma type by name (`Int`, `String`, an enum's name...). */
export type FieldTypes = ReadonlyMap<string, string>

const NUMBERS = new Set(['Int', 'Float'])
const UNSUPPORTED = new Set(['DateTime', 'Decimal', 'Bytes', 'Json'])

/** Whether `scope` (absent: every row) holds on `image`; throws {@link UnknownScope}. */
export function scopeHeldOn(
  scope: Condition | undefined,
  image: Readonly<Record<string, unknown>>,
  types: FieldTypes
): boolean {
  return scope === undefined || evaluate(scope, image, types) === true
}

type Truth = boolean | null

function evaluate(
  condition: Condition,
  image: Readonly<Record<string, unknown>>,
  types: FieldTypes
): Truth {
  switch (condition.kind) {
    case 'never':
      return false
    case 'and': {
      let truth: Truth = true
      for (const part of condition.parts) {
        const held = evaluate(part, image, types)
        if (held === false) return false
        if (held === null) truth = null
      }
      return truth
    }
    case 'or': {
      let truth: Truth = false
      for (const part of condition.parts) {
        const held = evaluate(part, image, types)
        if (held === true) return true
        if (held === null) truth = null
      }
      return truth
    }
    case 'not': {
      const held = evaluate(condition.part, image, types)
      return held === null ? null : !held
    }
    case 'field':
      return fieldTest(condition.field, condition.test, image, types)
    case 'relation':
      throw new UnknownScope(`the relation ${condition.relation}`)
    case 'past':
      throw new UnknownScope('a cursor position')
  }
}

function fieldTest(
  field: string,
  test: FieldTest,
  image: Readonly<Record<string, unknown>>,
  types: FieldTypes
): Truth {
  const type = types.get(field)
  if (type === undefined || UNSUPPORTED.has(type) || !(field in image))
    throw new UnknownScope(`the field ${field}${type ? ` (${type})` : ''}`)
  const value = image[field]
  if (test.op === 'null') return value === null
  if (test.op === 'not' && test.test.op === 'null') return value !== null
  const read = (given: unknown) => comparable(given, type, field)
  if (test.op === 'in' && !test.caseless && !test.values.includes(null)) {
    if (value === null) return null
    const own = read(value)
    return test.values.some((item) => read(item) === own)
  }
  const compare =
    test.op === 'equals' ||
    test.op === 'lt' ||
    test.op === 'lte' ||
    test.op === 'gt' ||
    test.op === 'gte'
  if (!compare || test.caseless || test.value === null)
    throw new UnknownScope(`a test (${test.op}) of the field ${field}`)
  if (value === null) return null
  const [own, other] = [read(value), read(test.value)]
  switch (test.op) {
    case 'equals':
      return own === other
    case 'lt':
      return own < other
    case 'lte':
      return own <= other
    case 'gt':
      return own > other
    case 'gte':
      return own >= other
  }
}

/** A value of the image or of a test as a value JavaScript compares as the database does. */
function comparable(
  value: unknown,
  type: string,
  field: string
): number | bigint | string | boolean {
  if (NUMBERS.has(type) && (typeof value === 'number' || typeof value === 'bigint'))
    return Number(value)
  if (type === 'BigInt' && ['number', 'bigint', 'string'].includes(typeof value))
    return BigInt(value as string)
  // SQLite and MySQL write booleans as 1 and 0 in JSON.
  if (type === 'Boolean' && (typeof value === 'boolean' || value === 0 || value === 1))
    return value === true || value === 1
  if (typeof value === 'string' && !NUMBERS.has(type) && type !== 'BigInt' && type !== 'Boolean')
    return value
  throw new UnknownScope(`a value of the field ${field} (${type})`)
}
