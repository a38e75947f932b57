/**
 * @module
 * A Prisma `where` read by the rules of logic, and written so that Prisma reads it the same in any
 * position. Prisma reads `{ OR: [] }` as no row at the top of a `where`, but as no condition once
 * it is nested in `AND` (and `{ NOT: {} }` or `{ AND: [{ OR: [] }] }` as every row even at the
 * top): a scope the runtime joins to a request by nesting would then select every row. A settled
 * `where` holds no such construct where Prisma misreads it: "no row" is {@link NO_ROW} alone, and
 * joins ({@link andWhere}) keep it so.
 *
 * The logic: `{}` and `AND: []` hold for every row, `OR: []` for none; `AND` holds when every part
 * does, `OR` when one does, `NOT` (an object or a list) when none of its parts does. Inside a
 * relation's filter (`is`, `isNot`, `some`, `every`, `none`, or a to-one relation written directly)
 * the related model's `where` is settled the same way.
 */

type Where = Record<string, unknown>

/** The `where` no row holds. Prisma reads it so at the top of a `where` and inside a relation's. */
export const NO_ROW: Where = Object.freeze({ OR: [] })

/** Whether `where` is "no row" as the runtime writes it. */
export function isNoRow(where: Where | undefined): boolean {
  if (where === undefined) return false
  if (where === NO_ROW) return true
  const keys = Object.keys(where)
  return keys.length === 1 && keys[0] === 'OR' && Array.isArray(where.OR) && where.OR.length === 0
}

/** Both wheres, or either; "no row" when either is. The runtime's one way to join two wheres. */
export function andWhere(first: Where | undefined, second: Where | undefined): Where | undefined {
  if (!first) return second
  if (!second) return first
  if (isNoRow(first) || isNoRow(second)) return NO_ROW
  return { AND: [first, second] }
}

/** Every one of `parts`, or undefined when there is none; "no row" when one of them is. */
export function allOf(parts: readonly Where[]): Where | undefined {
  if (parts.length === 0) return undefined
  if (parts.some(isNoRow)) return NO_ROW
  return parts.length === 1 ? parts[0] : { AND: [...parts] }
}

/**
 * A `where` that Prisma would read as no condition where its author meant one, or that no database
 * can hold: a fault of whoever wrote it (a row scope), named by the path of the value.
 */
export class WhereFault extends TypeError {
  constructor(
    readonly path: string,
    readonly problem: string
  ) {
    super(`${problem} at ${path || 'its top'}`)
    this.name = 'WhereFault'
  }
}

/**
 * `where` settled: undefined when it holds for every row, {@link NO_ROW} when for none, else a
 * `where` of the same meaning that holds no empty `OR`, `AND` or `NOT` and no `{}` (the same object
 * when it held none). Throws a {@link WhereFault} for a value Prisma would read as no condition (an
 * undefined, `{}` as a field's condition) or that no database can compare (a text holding NUL).
 */
export function settleWhere(where: unknown): Where | undefined {
  if (!isPlainObject(where))
    throw new WhereFault('', `${kind(where)} where a where (an object) is expected`)
  const settled = settleLevel(where, '')
  return settled === true ? undefined : settled === false ? NO_ROW : settled
}

/** A level settled: true (every row), false (none), or a where without constants. */
type Settled = boolean | Where

const LOGIC = new Set(['AND', 'OR', 'NOT'])
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

function settleLevel(level: Where, path: string): Settled {
  const parts: Settled[] = []
  let changed = false
  for (const [key, value] of Object.entries(level)) {
    const at = path === '' ? key : `${path}.${key}`
    if (value === undefined) throw new WhereFault(at, 'undefined, which Prisma leaves out,')
    const part = LOGIC.has(key) ? settleLogic(key, value, at) : settleField(key, value, at)
    if (part !== value) changed = true
    parts.push(part === value ? { [key]: value } : (part as Settled))
  }
  if (parts.includes(false)) return false
  const conditions = parts.filter((part): part is Where => part !== true)
  if (conditions.length === 0) return true
  if (!changed) return level
  return conditions.length === 1 ? (conditions[0] as Where) : { AND: conditions }
}

/**
 * An `AND`, `OR` or `NOT` settled: the same value when it holds no constant, else its meaning (a
 * boolean or a where).
 */
function settleLogic(key: string, value: unknown, at: string): Settled | unknown {
  const items = Array.isArray(value) ? value : [value]
  const settled = items.map((item, index) => {
    const itemAt = Array.isArray(value) ? `${at}[${index}]` : at
    if (!isPlainObject(item))
      throw new WhereFault(itemAt, `${key} takes wheres, not ${kind(item)},`)
    return settleLevel(item, itemAt)
  })
  const constant = settled.some((item) => typeof item === 'boolean')
  if (!constant && settled.every((item, index) => item === items[index]) && items.length > 0)
    return value
  const wheres = settled.filter((item): item is Where => typeof item !== 'boolean')
  if (key === 'AND') {
    if (settled.includes(false)) return false
    return wheres.length === 0 ? true : { AND: wheres }
  }
  if (key === 'OR') {
    if (settled.includes(true)) return true
    return wheres.length === 0 ? false : { OR: wheres }
  }
  // NOT: none of its parts holds.
  if (settled.includes(true)) return false
  return wheres.length === 0 ? true : { NOT: wheres }
}

/** A field's condition settled: the same value, or a where (a relation's filter rewritten). */
function settleField(key: string, value: unknown, at: string): unknown {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw new WhereFault(at, 'a text holding NUL')
    return value
  }
  if (Array.isArray(value)) {
    checkValues(value, at)
    return value
  }
  if (!isPlainObject(value)) return value
  const keys = Object.keys(value)
  if (keys.length === 0) throw new WhereFault(at, '{}, which Prisma reads as no condition,')
  if (keys.some((name) => OPERATORS.has(name))) {
    checkValues(value, at)
    checkConstrains(value, at)
    return value
  }
  if (keys.every((name) => RELATION.has(name))) {
    let changed = false
    const filter: Where = {}
    for (const [name, inner] of Object.entries(value)) {
      const written = relatedWhere(inner, `${at}.${name}`)
      // Every related row holds a condition of none: so does every row.
      if (name === 'every' && isPlainObject(written) && Object.keys(written).length === 0)
        throw new WhereFault(`${at}.every`, '{}, which holds for every row,')
      if (written !== inner) changed = true
      filter[name] = written
    }
    return changed ? { [key]: filter } : value
  }
  // A to-one relation written directly (`author: { name: 'Ann' }`): Prisma's `is`.
  const written = relatedWhere(value, at)
  return written === value ? value : { [key]: { is: written } }
}

/** The `where` of a related model inside a relation's filter, settled and written back. */
function relatedWhere(inner: unknown, at: string): unknown {
  if (inner === null) return null
  if (inner === undefined) throw new WhereFault(at, 'undefined, which Prisma leaves out,')
  if (!isPlainObject(inner))
    throw new WhereFault(at, `a relation takes a where, not ${kind(inner)},`)
  const settled = settleLevel(inner, at)
  // Prisma reads `{}` and `{ OR: [] }` right as the whole where of a relation's filter.
  return settled === true ? {} : settled === false ? { OR: [] } : settled
}

/**
 * Checks that a field's condition constrains its rows: whatever its values, one that compares
 * nothing (`{ mode: 'insensitive' }`, a `not` of such a condition) is one Prisma reads as no
 * condition, so it is decided by what it compares, not by the shape of its values.
 */
function checkConstrains(condition: Where, at: string): void {
  const entries = Object.entries(condition).filter(([key, value]) => !isModifier(key, value))
  if (entries.length === 0 || entries.every(([key, value]) => comparesNothing(key, value)))
    throw new WhereFault(at, `${JSON.stringify(condition)}, which compares nothing,`)
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

function isPlainObject(value: unknown): value is Where {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value
}
