/**
 * @module
 * Whether a caller's row scope held on a row as the change log keeps it (its `image`, the values
 * before the change: docs/syncing.md), so that a feed tells a deletion only to a caller who could
 * see the row. The scope is evaluated in SQL's three-valued logic, as the database would evaluate
 * it on the row: a comparison with a null is unknown, and only a condition that is true holds.
 * What the image cannot answer exactly (a relation, a text pattern or a caseless comparison, an
 * order of enums, a comparison of a field that is not an integer, float, 64-bit integer, boolean,
 * text or enum) is an {@link UnknownScope} naming the part, never a guess:
 * {@link refuseUnevaluable} finds any such part of a scope before a row is read, whatever values
 * the rows hold.
 */
import type { Comparison, Condition, FieldTest } from '../../plan/condition.js'

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
const COMPARISONS: ReadonlySet<string> = new Set(['equals', 'lt', 'lte', 'gt', 'gte'])
const SCALARS = new Set(['Int', 'Float', 'BigInt', 'Boolean', 'String'])

type Truth = boolean | null

/** A field's test, ready to read a value of the image: what it holds, or null (unknown). */
type Leaf = (value: unknown) => Truth

/**
 * Throws {@link UnknownScope} when some part of `scope` cannot be evaluated on an image, whatever
 * its values: every part, not only those an evaluation would reach.
 */
export function refuseUnevaluable(scope: Condition | undefined, types: FieldTypes): void {
  if (scope === undefined) return
  for (const leaf of leaves(scope)) leafOf(leaf.field, leaf.test, types)
}

/** Whether `scope` (absent: every row) holds on `image`; throws {@link UnknownScope}. */
export function scopeHeldOn(
  scope: Condition | undefined,
  image: Readonly<Record<string, unknown>>,
  types: FieldTypes
): boolean {
  if (scope === undefined) return true
  refuseUnevaluable(scope, types)
  return evaluate(scope, image, types) === true
}

/** Each field test of `condition`; throws {@link UnknownScope} on a part that is none. */
function* leaves(condition: Condition): Generator<{ field: string; test: FieldTest }> {
  switch (condition.kind) {
    case 'never':
      return
    case 'and':
    case 'or':
      for (const part of condition.parts) yield* leaves(part)
      return
    case 'not':
      yield* leaves(condition.part)
      return
    case 'field':
      yield condition
      return
    case 'relation':
      throw new UnknownScope(`the relation ${condition.relation}`)
    case 'past':
      throw new UnknownScope('a cursor position')
  }
}

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
    case 'field': {
      if (!(condition.field in image))
        throw new UnknownScope(`the field ${condition.field}, which the log did not keep`)
      return leafOf(condition.field, condition.test, types)(image[condition.field])
    }
    case 'relation':
      throw new UnknownScope(`the relation ${condition.relation}`)
    case 'past':
      throw new UnknownScope('a cursor position')
  }
}

/**
 * The test `test` of `field`, ready to read the image's value; throws {@link UnknownScope} when
 * no value could be answered exactly, so that {@link refuseUnevaluable} refuses it up front.
 */
function leafOf(field: string, test: FieldTest, types: FieldTypes): Leaf {
  const type = types.get(field)
  // The image holds a null where the column does (JSON's null aside, which a Json field may hold).
  const nulls = type !== undefined && type !== 'Json'
  if (nulls && test.op === 'null') return (value) => value === null
  if (nulls && test.op === 'not' && test.test.op === 'null') return (value) => value !== null
  if (type === undefined || UNSUPPORTED.has(type))
    throw new UnknownScope(`the field ${field}${type ? ` (${type})` : ''}`)
  const [op, given]: [Comparison | 'in', readonly unknown[]] =
    test.op === 'in' && !test.caseless && !test.values.includes(null)
      ? ['in', test.values]
      : COMPARISONS.has(test.op) && 'value' in test && !test.caseless && test.value !== null
        ? [test.op as Comparison, [test.value]]
        : refuse(`a test (${test.op}) of the field ${field}`)
  const enumeration = !SCALARS.has(type)
  // An enum's order is its declaration's on PostgreSQL and MySQL, not its names'.
  if (enumeration && op !== 'equals' && op !== 'in')
    refuse(`an order (${op}) of the enum field ${field}`)
  const others = given.map((value) => comparable(value, type, field))
  return (value) => {
    if (value === null) return null
    const own = comparable(value, type, field)
    if (op === 'in') return others.some((other) => other === own)
    return compare(op, own, others[0] as typeof own)
  }
}

function refuse(part: string): never {
  throw new UnknownScope(part)
}

function compare<T extends number | bigint | string | boolean>(
  op: Comparison,
  own: T,
  other: T
): boolean {
  switch (op) {
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
    try {
      return BigInt(value as string)
    } catch {
      // A fraction, or text that is no integer.
      refuse(`a value of the field ${field} (${type})`)
    }
  // SQLite and MySQL write booleans as 1 and 0 in JSON.
  if (type === 'Boolean' && (typeof value === 'boolean' || value === 0 || value === 1))
    return value === true || value === 1
  if (typeof value === 'string' && !NUMBERS.has(type) && type !== 'BigInt' && type !== 'Boolean')
    return value
  throw new UnknownScope(`a value of the field ${field} (${type})`)
}
