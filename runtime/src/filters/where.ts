/**
 * Turns the conditions of a request into a Prisma `where` and its order into an `orderBy`, the
 * way API Platform's Doctrine filters turn them into DQL (docs/filters.md).
 */

import type { OrderEntry } from '../contract/order.js'
import type { DateOperator, LikeEscape, RelatedField, SearchStrategy } from '../contract/query.js'
import type { Caseless } from '../database/dialects.js'
import { pastFirst } from './relation-path.js'
import { allOf } from './settled-where.js'
import type { FilterCondition } from './spec.js'

/** A Prisma `where`. */
type Where = Record<string, unknown>

const DATE_COMPARISON: Record<DateOperator, 'lte' | 'lt' | 'gte' | 'gt'> = {
  before: 'lte',
  strictly_before: 'lt',
  after: 'gte',
  strictly_after: 'gt',
}

/**
 * The scope of the related rows the caller may see through a relation, by its path from the
 * operation's model (`author`, `book.author`), or undefined when the caller sees every one
 * (docs/security.md).
 */
export type RelationScope = (relation: string) => Where | undefined

/** How a request's conditions are written for its database and its caller. */
export interface WhereOptions {
  /** How the database reads `%` and `_` literally in LIKE patterns (default `backslash`). */
  likeEscape?: LikeEscape | undefined
  /**
   * How Prisma's client matches text whatever its case on the database: by default `like` where
   * LIKE has no escape character (SQLite), `mode` elsewhere.
   */
  caseless?: Caseless | undefined
  /** The client's `Prisma.AnyNull`, for `exists` on a Json field. */
  jsonNull?: unknown
  /**
   * The related rows the caller may see, by relation: a condition through a relation matches only
   * those, so that no filter tells a caller about rows it cannot see (docs/security.md).
   */
  scopeOf?: RelationScope | undefined
}

/** The Prisma `where` selecting the rows every condition accepts; undefined without conditions. */
export function filterWhere(
  conditions: readonly FilterCondition[],
  { likeEscape = 'backslash', caseless, jsonNull, scopeOf = () => undefined }: WhereOptions = {}
): Where | undefined {
  const options: WrittenAs = {
    likeEscape,
    caseless: caseless ?? (likeEscape === 'none' ? 'like' : 'mode'),
    jsonNull,
  }
  return levelWhere(conditions, options, scopeOf)
}

/** The `where` of the conditions on one model's rows (the operation's, or a related one's). */
function levelWhere(
  conditions: readonly FilterCondition[],
  options: WrittenAs,
  scopeOf: RelationScope
): Where | undefined {
  const own: FilterCondition[] = []
  const related = new Map<string, { through: RelatedField; conditions: FilterCondition[] }>()
  for (const condition of conditions) {
    const { through } = condition
    if (!through) {
      own.push(condition)
      continue
    }
    const group = related.get(through.relation) ?? { through, conditions: [] }
    group.conditions.push({ ...condition, field: through.field, through: pastFirst(through) })
    related.set(through.relation, group)
  }
  // A relation searched by IRI, or tested by exists, names a related row: a visible one. A row
  // whose related row the caller cannot see has no related row for that caller.
  const parts: Where[] = []
  const plain: FilterCondition[] = []
  for (const condition of own) {
    const scope = relationHeld(condition) ? scopeOf(condition.field) : undefined
    if (!scope) {
      plain.push(condition)
      continue
    }
    const visible = { [condition.field]: { is: scope } }
    if (condition.kind !== 'exists') plain.push(condition)
    parts.push(condition.kind === 'exists' && !condition.value ? { NOT: visible } : visible)
  }
  parts.unshift(...conditionParts(plain, options))
  // Every condition on one relation is one join, as API Platform's filters share their join: a
  // book matches `reviews.rating[gte]=4&reviews.author=Ann` when one review matches both. Each
  // relation of a longer path is a join of its own, under its own model's scope.
  for (const { through, conditions: inner } of related.values()) {
    const scope = scopeOf(through.relation)
    const deeper: RelationScope = (path) => scopeOf(`${through.relation}.${path}`)
    const held = levelWhere(inner, options, deeper)
    // The scope is "no row" when the target's guard refuses the caller: so is the whole join.
    const where = allOf([...(scope ? [scope] : []), ...(held ? [held] : [])]) ?? {}
    parts.push({ [through.relation]: through.many ? { some: where } : { is: where } })
  }
  return allOf(parts)
}

/**
 * How the database reads LIKE escapes and ignores case, and the client's `Prisma.AnyNull` for Json
 * fields.
 */
interface WrittenAs {
  likeEscape: LikeEscape
  caseless: Caseless
  jsonNull: unknown
}

/**
 * Whether a condition is on a to-one relation's related row (by IRI, a composite key's included,
 * or exists).
 */
function relationHeld(condition: FilterCondition): boolean {
  if (condition.kind === 'search') {
    return condition.foreignKey !== undefined || condition.composite !== undefined
  }
  return condition.kind === 'exists' && condition.relation === true
}

function conditionParts(conditions: readonly FilterCondition[], options: WrittenAs): Where[] {
  const parts: Where[] = []
  const excluded = new Set<string>()
  for (const condition of conditions) {
    if (condition.kind === 'date' && condition.nulls === 'exclude_null') {
      if (!excluded.has(condition.field)) parts.push({ [condition.field]: { not: null } })
      excluded.add(condition.field)
    }
    parts.push(conditionWhere(condition, options))
  }
  return parts
}

function conditionWhere(condition: FilterCondition, options: WrittenAs): Where {
  const { field } = condition
  switch (condition.kind) {
    case 'search':
      if (condition.composite) return compositeWhere(field, condition.composite, condition.values)
      return searchWhere(
        condition.foreignKey ?? field,
        condition.strategy,
        condition.values,
        options
      )
    case 'numeric':
      return anyOf(field, condition.values)
    case 'boolean':
      return { [field]: condition.value }
    case 'exists':
      // A to-one relation is null or not (`isNot`); a column, null or `not: null`.
      if (condition.relation)
        return condition.value ? { [field]: { isNot: null } } : { [field]: null }
      if (condition.json) {
        // Both nulls are served as `null`: `Prisma.AnyNull` is either.
        if (options.jsonNull === undefined)
          throw new TypeError(
            `The exists filter on the Json field ${field} needs the query spec's jsonNull.`
          )
        return {
          [field]: condition.value ? { not: options.jsonNull } : { equals: options.jsonNull },
        }
      }
      return condition.value ? { [field]: { not: null } } : { [field]: null }
    case 'range':
      if (condition.operator === 'between') {
        const [low, high] = condition.value
        return { [field]: { gte: low, lte: high } }
      }
      return { [field]: { [condition.operator]: condition.value } }
    case 'date': {
      const base = { [field]: { [DATE_COMPARISON[condition.operator]]: condition.value } }
      const before = condition.operator.endsWith('before')
      const withNull =
        condition.nulls === 'include_null_before_and_after' ||
        (condition.nulls === 'include_null_before' && before) ||
        (condition.nulls === 'include_null_after' && !before)
      return withNull ? { OR: [base, { [field]: null }] } : base
    }
  }
}

/**
 * Rows related to any of the items with these composite keys: on this model's foreign keys when
 * it holds them all (`{ lineOrderId: 3, lineProductId: 7 }`), else through the relation
 * (`{ line: { is: { orderId: 3, productId: 7 } } }`).
 */
function compositeWhere(
  field: string,
  { foreignKeys }: { foreignKeys?: Readonly<Record<string, string>> | undefined },
  values: readonly unknown[]
): Where {
  const branches = values.map((value): Where => {
    const key = value as Record<string, unknown>
    if (!foreignKeys) return { [field]: { is: key } }
    return Object.fromEntries(Object.entries(key).map(([name, part]) => [foreignKeys[name], part]))
  })
  return branches.length === 1 ? (branches[0] as Where) : { OR: branches }
}

function anyOf(field: string, values: readonly unknown[]): Where {
  return values.length === 1 ? { [field]: values[0] } : { [field]: { in: values } }
}

/**
 * A search strategy as Prisma string filters. Prisma writes `contains`, `startsWith` and
 * `endsWith` as LIKE patterns without escaping `%` and `_` (checked on SQLite and PostgreSQL by the
 * end-to-end tests), so they are escaped here, as the database reads escapes; with no escape
 * (SQLite), values holding one were refused when read. `word_start` is API Platform's: the value
 * starts the text or follows a space. The `i` strategies are the same LIKE patterns matched
 * whatever the case (docs/filters.md#case-sensitivity): with `mode: 'insensitive'` (ILIKE), or
 * with the plain LIKE where it ignores case itself.
 */
function searchWhere(
  field: string,
  strategy: SearchStrategy,
  values: readonly unknown[],
  { likeEscape, caseless }: WrittenAs
): Where {
  const insensitive = strategy.startsWith('i')
  const plain = (insensitive ? strategy.slice(1) : strategy) as SearchStrategy
  const mode = insensitive && caseless === 'mode' ? { mode: 'insensitive' } : {}
  if (plain === 'exact' && !insensitive) return anyOf(field, values)
  const branches = values.flatMap((raw): Where[] => {
    const value = typeof raw === 'string' ? escapeLike(raw, likeEscape) : raw
    switch (plain) {
      case 'exact':
        return [{ [field]: patternEquals(value, mode) }]
      case 'partial':
        return [{ [field]: { contains: value, ...mode } }]
      case 'start':
        return [{ [field]: { startsWith: value, ...mode } }]
      case 'end':
        return [{ [field]: { endsWith: value, ...mode } }]
      default:
        return [
          { [field]: { startsWith: value, ...mode } },
          { [field]: { contains: ` ${value as string}`, ...mode } },
        ]
    }
  })
  return branches.length === 1 ? (branches[0] as Where) : { OR: branches }
}

/**
 * The text matching the wildcard-free LIKE pattern `pattern` as a whole. Prisma writes `equals`
 * with `mode: 'insensitive'` as ILIKE (its value a pattern too); without a mode it writes `=`,
 * which ignores trailing spaces on MySQL/MariaDB and never ignores case on SQLite, so there it is
 * the pattern as a start followed by nothing (`LIKE 'ann%' AND NOT LIKE 'ann_%'`).
 */
function patternEquals(pattern: unknown, mode: Where): Where {
  if (mode.mode) return { equals: pattern, ...mode }
  return { startsWith: pattern, not: { startsWith: `${pattern as string}_` } }
}

/** A LIKE pattern's text matching `text` literally. */
export function escapeLike(text: string, likeEscape: LikeEscape): string {
  if (likeEscape === 'backslash') return text.replace(/[\\%_]/g, '\\$&')
  if (likeEscape === 'brackets') return text.replace(/[[%_]/g, '[$&]')
  return text
}

/**
 * A client order as a Prisma `orderBy` (reversed for the pages read backward). A field through
 * to-one relations (`author.name`, `book.author.name`; field names hold no dot) orders by the
 * related item's field.
 */
export function orderByOf(order: readonly OrderEntry[], reverse = false): Where[] {
  return order.map(({ field, direction }) => {
    const way = reverse ? (direction === 'asc' ? 'desc' : 'asc') : direction
    return field
      .split('.')
      .reduceRight<Where | string>((inner, name) => ({ [name]: inner }), way) as Where
  })
}
