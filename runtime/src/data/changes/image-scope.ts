/**
 * @module
 * Whether a caller's row scope held on a row as the change log keeps it (its `image`, the values
 * before the change: docs/syncing.md), so that a feed tells a deletion only to a caller who could
 * see the row. The scope is evaluated in SQL's three-valued logic, as the database would evaluate
 * it on the row: a comparison with a null is unknown, and only a condition that is true holds.
 * Text is compared as its column compares it (text-comparison.ts). What the image cannot answer
 * exactly (a relation, a text pattern or a caseless comparison, an order of enums, a comparison of
 * a field that is not an integer, 64-bit integer, boolean, text or enum, text whose column is not
 * read) is an {@link UnknownScope} naming the part, never a guess: {@link refuseUnevaluable}
 * finds any such part of a scope before a row is read, whatever values the rows hold.
 */
import type { Comparison, Condition, FieldTest } from '../../plan/condition.js'
import type { TextComparison, TextOp } from './text-comparison.js'

/** A scope the log's image cannot evaluate: `part` names what it reads. */
export class UnknownScope extends Error {
  constructor(readonly part: string) {
    super(`the scope reads ${part}, which the change log cannot evaluate`)
    this.name = 'UnknownScope'
  }
}

/**
 * An image the scope cannot be read on, although the scope can be (a field added to the model
 * after the entry was logged, a value of another type than the field's): the feed cannot tell
 * whether the caller saw the row, and its caller must read the collection again.
 */
export class UnreadableImage extends Error {
  constructor(readonly part: string) {
    super(`the change log's entry holds ${part}, on which the scope cannot be evaluated`)
    this.name = 'UnreadableImage'
  }
}

/** A field's Prisma type by name (`Int`, `String`, an enum's name...). */
export type FieldTypes = ReadonlyMap<string, string>

/** What a scope is evaluated with: each field's Prisma type, and how text compares. */
export interface ScopeFields {
  /** Each field's Prisma type. */
  types: FieldTypes
  /** The comparisons of `String` fields, as their columns compare. */
  text: TextComparison
}

const NUMBERS = new Set(['Int'])
const UNSUPPORTED = new Set(['DateTime', 'Decimal', 'Bytes', 'Json'])
const COMPARISONS: ReadonlySet<string> = new Set(['equals', 'lt', 'lte', 'gt', 'gte'])
const SCALARS = new Set(['Int', 'Float', 'BigInt', 'Boolean', 'String'])

type Truth = boolean | null

/** A field's test, ready to read a value of the image: what it holds, or null (unknown). */
type Leaf = (value: unknown) => Truth | Promise<Truth>

/**
 * Throws {@link UnknownScope} when some part of `scope` cannot be evaluated on an image, whatever
 * its values: every part, not only those an evaluation would reach.
 */
export async function refuseUnevaluable(
  scope: Condition | undefined,
  fields: ScopeFields
): Promise<void> {
  if (scope === undefined) return
  if (readsText(scope, fields.types)) await fields.text.ready()
  for (const leaf of leaves(scope)) leafOf(leaf.field, leaf.test, fields)
}

/** Whether `scope` (absent: every row) holds on `image`; throws {@link UnknownScope}. */
export async function scopeHeldOn(
  scope: Condition | undefined,
  image: Readonly<Record<string, unknown>>,
  fields: ScopeFields
): Promise<boolean> {
  if (scope === undefined) return true
  await refuseUnevaluable(scope, fields)
  return (await evaluate(scope, image, fields)) === true
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

function readsText(condition: Condition, types: FieldTypes): boolean {
  for (const { field } of leaves(condition)) if (types.get(field) === 'String') return true
  return false
}

async function evaluate(
  condition: Condition,
  image: Readonly<Record<string, unknown>>,
  fields: ScopeFields
): Promise<Truth> {
  switch (condition.kind) {
    case 'never':
      return false
    case 'and': {
      let truth: Truth = true
      for (const part of condition.parts) {
        const held = await evaluate(part, image, fields)
        if (held === false) return false
        if (held === null) truth = null
      }
      return truth
    }
    case 'or': {
      let truth: Truth = false
      for (const part of condition.parts) {
        const held = await evaluate(part, image, fields)
        if (held === true) return true
        if (held === null) truth = null
      }
      return truth
    }
    case 'not': {
      const held = await evaluate(condition.part, image, fields)
      return held === null ? null : !held
    }
    case 'field': {
      // An empty list holds on no row, whatever the image holds of the field.
      if (condition.test.op === 'in' && condition.test.values.length === 0) return false
      if (!(condition.field in image))
        throw new UnreadableImage(`no value of the field ${condition.field}`)
      try {
        return await leafOf(condition.field, condition.test, fields)(image[condition.field])
      } catch (error) {
        // The scope's own parts were checked before: what fails now is the image's value.
        if (error instanceof UnknownScope) throw new UnreadableImage(error.part)
        throw error
      }
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
function leafOf(field: string, test: FieldTest, fields: ScopeFields): Leaf {
  const type = fields.types.get(field)
  // The image holds a null where the column does (JSON's null aside, which a Json field may hold).
  const nulls = type !== undefined && type !== 'Json'
  if (nulls && test.op === 'null') return (value) => value === null
  if (nulls && test.op === 'not' && test.test.op === 'null') return (value) => value !== null
  if (type === undefined || UNSUPPORTED.has(type))
    throw new UnknownScope(`the field ${field}${type ? ` (${type})` : ''}`)
  const [op, given]: [TextOp, readonly unknown[]] =
    test.op === 'in' && !test.caseless && !test.values.includes(null)
      ? ['in', test.values]
      : COMPARISONS.has(test.op) && 'value' in test && !test.caseless && test.value !== null
        ? [test.op as Comparison, [test.value]]
        : refuse(`a test (${test.op}) of the field ${field}`)
  // An empty list holds on no row, a null included: `1=0` on both engines.
  if (op === 'in' && given.length === 0) return () => false
  // A float column may be single precision (`@db.Real`), compared as such, and may hold NaN.
  if (type === 'Float') refuse(`a comparison (${op}) of the float field ${field}`)
  const enumeration = !SCALARS.has(type)
  // An enum's order is its declaration's on PostgreSQL and MySQL, not its names'.
  if (enumeration && op !== 'equals' && op !== 'in')
    refuse(`an order (${op}) of the enum field ${field}`)
  const others = given.map((value) => comparable(value, type, field))
  if (type === 'String') {
    if (!fields.text.covers(field))
      refuse(`a comparison (${op}) of the text field ${field}, whose column is not read`)
    const texts = others as string[]
    return (value) =>
      value === null ? null : fields.text.holds(field, text(value, field), op, texts)
  }
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

function text(value: unknown, field: string): string {
  if (typeof value === 'string') return value
  throw new UnknownScope(`a value of the field ${field} (String)`)
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
