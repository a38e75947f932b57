/**
 * @module
 * The one reader of the conditions users write: a row scope answers in Prisma's `where` syntax
 * (docs/security.md), read here into the plan's typed conditions (plan/condition.ts), once per
 * request, by the rules of logic: `{}` and `AND: []` hold for every row, `OR: []` for none, `NOT`
 * (an object or a list) when none of its parts does; inside a relation's filter (`is`, `isNot`,
 * `some`, `every`, `none`, or a to-one relation written directly) the related model's conditions
 * are read the same way. A value Prisma would read as no condition (an undefined, `{}` as a
 * field's condition, a comparison of nothing) or that no database can compare alike (a text
 * holding NUL) is a fault of whoever wrote it, thrown as a {@link WhereFault} naming its path.
 */

import type { ScopeWhere } from '../contract/access-rules.js'
import { isDecimal } from '../decimal.js'
import {
  allOf,
  anyOf,
  type Condition,
  type FieldTest,
  NEVER,
  onField,
  type Pattern,
  type RelationCondition,
  throughRelation,
} from './condition.js'

/** A condition Prisma would read as none where its author meant one, or no database holds. */
export class WhereFault extends TypeError {
  constructor(
    readonly path: string,
    readonly problem: string
  ) {
    super(`${problem} at ${path || 'its top'}`)
    this.name = 'WhereFault'
  }
}

/** `where` read: undefined when it holds for every row, NEVER when for none. */
export function readWhere(where: unknown): Condition | undefined {
  if (!isPlainObject(where))
    throw new WhereFault('', `${kind(where)} where a where (an object) is expected`)
  return readLevel(where, '')
}

const RELATION = new Set(['is', 'isNot', 'some', 'every', 'none'])
/** The keys of Prisma's scalar, list and Json filters: such an object is a field's condition. */
const OPERATORS = new Set([
  'equals',
  'in',
  'notIn',
  'lt',
  'lte',
  'gt',
  'gte',
  'not',
  'contains',
  'startsWith',
  'endsWith',
  'mode',
  'search',
  'has',
  'hasEvery',
  'hasSome',
  'isEmpty',
  'isSet',
  'path',
  'string_contains',
  'string_starts_with',
  'string_ends_with',
  'array_contains',
  'array_starts_with',
  'array_ends_with',
])
/** The operators the plan reads; a field's condition with any other is carried opaque. */
const READ = new Set(['equals', 'in', 'notIn', 'lt', 'lte', 'gt', 'gte', 'not', 'mode'])
const PATTERNS = new Set<string>(['contains', 'startsWith', 'endsWith'])

function readLevel(level: ScopeWhere, path: string): Condition | undefined {
  const parts: (Condition | undefined)[] = []
  for (const [key, value] of Object.entries(level)) {
    const at = path === '' ? key : `${path}.${key}`
    if (value === undefined) throw new WhereFault(at, 'undefined, which Prisma leaves out,')
    if (key === 'AND' || key === 'OR' || key === 'NOT') parts.push(readLogic(key, value, at))
    else parts.push(readField(key, value, at))
  }
  return allOf(parts)
}

/** An `AND`, `OR` or `NOT` of one where or a list of them. */
function readLogic(key: 'AND' | 'OR' | 'NOT', value: unknown, at: string): Condition | undefined {
  const items = Array.isArray(value) ? value : [value]
  const read = items.map((item, index) => {
    const itemAt = Array.isArray(value) ? `${at}[${index}]` : at
    if (!isPlainObject(item))
      throw new WhereFault(itemAt, `${key} takes wheres, not ${kind(item)},`)
    return readLevel(item, itemAt)
  })
  if (key === 'AND') return allOf(read)
  // A part holding for every row: so does the OR, and the NOT holds for none.
  if (read.includes(undefined)) return key === 'OR' ? undefined : NEVER
  const held = read as Condition[]
  if (key === 'OR') return anyOf(held)
  return allOf(held.map(negation))
}

/** Not `condition`. */
function negation(condition: Condition): Condition | undefined {
  if (condition.kind === 'never') return undefined
  if (condition.kind === 'not') return condition.part
  return { kind: 'not', part: condition }
}

/** The condition of one key of a level: a field's, or a relation's. */
function readField(key: string, value: unknown, at: string): Condition | undefined {
  if (typeof value === 'string') {
    checkValues(value, at)
    return onField(key, { op: 'equals', value })
  }
  if (value === null) return onField(key, { op: 'null' })
  if (Array.isArray(value)) {
    checkValues(value, at)
    return onField(key, { op: 'equals', value })
  }
  if (!isPlainObject(value))
    return onField(key, isValue(value) ? { op: 'equals', value } : opaque('equals', value, false))
  const keys = Object.keys(value)
  if (keys.length === 0) throw new WhereFault(at, '{}, which Prisma reads as no condition,')
  if (keys.some((name) => OPERATORS.has(name))) {
    checkValues(value, at)
    checkConstrains(value, at)
    return readTests(key, value)
  }
  if (keys.every((name) => RELATION.has(name))) return readRelation(key, value, at)
  // A to-one relation written directly (`author: { name: 'Ann' }`): Prisma's `is`.
  return related(key, 'is', readRelated(value, at))
}

/** A relation's filter: each of its quantifiers, all of them holding. */
function readRelation(relation: string, filter: ScopeWhere, at: string): Condition | undefined {
  const parts: Condition[] = []
  for (const [quantifier, inner] of Object.entries(filter)) {
    const innerAt = `${at}.${quantifier}`
    const q = quantifier as RelationCondition['quantifier']
    if (inner === null) {
      // `is: null`: no related row; `isNot: null`: one.
      if (q !== 'is' && q !== 'isNot')
        throw new WhereFault(innerAt, `${quantifier} takes a where, not null,`)
      parts.push(throughRelation(relation, q === 'is' ? 'isNot' : 'is'))
      continue
    }
    const condition = readRelated(inner, innerAt)
    // Every related row holds a condition of none: so does every row.
    if (q === 'every' && condition === undefined)
      throw new WhereFault(innerAt, '{}, which holds for every row,')
    parts.push(related(relation, q, condition))
  }
  return allOf(parts)
}

/** A relation test of `condition` (undefined: any row; NEVER stays, as a condition of none). */
const related = (
  relation: string,
  quantifier: RelationCondition['quantifier'],
  condition: Condition | undefined
): Condition => throughRelation(relation, quantifier, condition)

/** The where of a related model inside a relation's filter. */
function readRelated(inner: unknown, at: string): Condition | undefined {
  if (inner === undefined) throw new WhereFault(at, 'undefined, which Prisma leaves out,')
  if (!isPlainObject(inner))
    throw new WhereFault(at, `a relation takes a where, not ${kind(inner)},`)
  return readLevel(inner, at)
}

/**
 * A field's condition as tests, all of which hold: the operators the plan reads typed, `mode`
 * making each comparison of text caseless; any other operator leaves the whole condition opaque.
 */
function readTests(field: string, operators: ScopeWhere): Condition | undefined {
  const read = (name: string) =>
    (READ.has(name) || PATTERNS.has(name)) && (name !== 'mode' || isModifier(name, operators[name]))
  // A to-one relation written directly with a field named as an operator (`{ mode: 'dark' }`)
  // is carried as it is, for Prisma to read.
  if (
    !Object.keys(operators).every(read) ||
    Object.keys(operators).every((name) => name === 'mode')
  )
    return onField(field, { op: 'opaque', operators })
  const { mode, ...rest } = operators
  const caseless = mode === 'insensitive'
  const tests = Object.entries(rest).map(([op, value]) => testOf(op, value, caseless))
  return allOf(tests.map((test) => onField(field, test)))
}

/**
 * One operator's test. A value of a class the plan does not compare (Prisma's null sentinels
 * `DbNull`, `JsonNull` and `AnyNull`, a reference to a field) is Prisma's to read: carried opaque.
 */
function testOf(op: string, value: unknown, caseless: boolean): FieldTest {
  const mode = caseless ? { caseless: true as const } : {}
  if (!isValue(value)) return opaque(op, value, caseless)
  if (PATTERNS.has(op) && typeof value === 'string')
    return { op: op as Pattern, pattern: value, ...mode }
  if ((op === 'in' || op === 'notIn') && Array.isArray(value)) return { op, values: value, ...mode }
  if (op === 'not') return { op: 'not', test: notTest(value) }
  if (value === null && op === 'equals') return { op: 'null' }
  if (op === 'equals' || op === 'lt' || op === 'lte' || op === 'gt' || op === 'gte')
    return { op, value, ...mode }
  return opaque(op, value, caseless)
}

/** One operator carried as Prisma writes it. */
const opaque = (op: string, value: unknown, caseless: boolean): FieldTest => ({
  op: 'opaque',
  operators: { [op]: value, ...(caseless ? { mode: 'insensitive' } : {}) },
})

/**
 * Whether the plan compares `value` itself: a scalar, a date, a decimal, bytes, a list, or a plain
 * object (a Json value, or a field's condition).
 */
function isValue(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true
  return (
    Array.isArray(value) ||
    isPlainObject(value) ||
    value instanceof Date ||
    value instanceof Uint8Array ||
    isDecimal(value)
  )
}

/** The test a `not` negates: a value, null, or a field's condition of its own. */
function notTest(value: unknown): FieldTest {
  if (value === null) return { op: 'null' }
  if (!isPlainObject(value)) return { op: 'equals', value }
  const { mode, ...rest } = value
  const [entry, ...more] = Object.entries(rest)
  if (entry && more.length === 0 && (READ.has(entry[0]) || PATTERNS.has(entry[0])))
    return testOf(entry[0], entry[1], mode === 'insensitive')
  return { op: 'opaque', operators: value }
}

/**
 * Whether a key of a field's condition says how its comparisons read and compares nothing itself:
 * a text's case (`mode: 'insensitive'`), a Json value's path (a list, or MySQL's `$.…`). Judged
 * by its value too: a to-one relation written directly may have a field named `mode` or `path`.
 */
const isModifier = (key: string, value: unknown): boolean =>
  (key === 'mode' && (value === 'insensitive' || value === 'default')) ||
  (key === 'path' && (Array.isArray(value) || (typeof value === 'string' && value.startsWith('$'))))

/** Comparisons that hold for every row they can hold for: a list excluding nothing, any text. */
function comparesNothing(key: string, value: unknown): boolean {
  if (key === 'notIn' || key === 'hasEvery') return Array.isArray(value) && value.length === 0
  if (key === 'contains' || key === 'startsWith' || key === 'endsWith') return value === ''
  return false
}

/**
 * Checks that a field's condition constrains its rows: whatever its values, one that compares
 * nothing (`{ mode: 'insensitive' }`, a `not` of such a condition) is one Prisma reads as no
 * condition, so it is decided by what it compares, not by the shape of its values.
 */
function checkConstrains(condition: ScopeWhere, at: string): void {
  const entries = Object.entries(condition).filter(([key, value]) => !isModifier(key, value))
  if (entries.length === 0 || entries.every(([key, value]) => comparesNothing(key, value)))
    throw new WhereFault(at, `${JSON.stringify(condition)}, which compares nothing,`)
  // A list, or an object for Prisma to read (a field's reference); one value or null is a claim
  // of the wrong shape.
  for (const list of ['in', 'notIn']) {
    const value = condition[list]
    if (!Object.hasOwn(condition, list) || (typeof value === 'object' && value !== null)) continue
    const what = value === null ? 'null' : `one value (${kind(value)})`
    throw new WhereFault(`${at}.${list}`, `${what} where a list belongs`)
  }
  const { not } = condition
  if (isPlainObject(not)) {
    if (Object.keys(not).length === 0)
      throw new WhereFault(`${at}.not`, '{}, which Prisma reads as no condition,')
    if (Object.keys(not).some((name) => OPERATORS.has(name))) {
      checkConstrains(not, `${at}.not`)
      // The opposite of a condition no row holds (`not: { in: [] }`) holds for every row.
      const { in: among, ...rest } = not
      if (Array.isArray(among) && among.length === 0 && Object.keys(rest).length === 0)
        throw new WhereFault(`${at}.not`, '{"in":[]}, whose opposite compares nothing,')
    }
  }
}

/** Checks the values of a field's condition: no undefined, no text holding NUL. */
function checkValues(value: unknown, at: string): void {
  if (value === undefined) throw new WhereFault(at, 'undefined, which Prisma leaves out,')
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw new WhereFault(at, 'a text holding NUL')
    return
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) checkValues(item, `${at}[${index}]`)
    return
  }
  if (!isPlainObject(value)) return
  for (const [key, item] of Object.entries(value)) checkValues(item, `${at}.${key}`)
}

function isPlainObject(value: unknown): value is ScopeWhere {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value
}
