/**
 * Turns the conditions of a request's filters into the plan's conditions (plan/condition.ts), the
 * way API Platform's Doctrine filters turn them into DQL (docs/filters.md).
 */

import type { DateOperator, LikeEscape, RelatedField, SearchStrategy } from '../contract/query.js'
import type { Caseless } from '../database/dialects.js'
import {
  allOf,
  anyOf,
  type Condition,
  type FieldTest,
  fieldEquals,
  onField,
  throughRelation,
} from '../plan/condition.js'
import { pastFirst } from './relation-path.js'
import type { FilterCondition } from './spec.js'

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
export type RelationScope = (relation: string) => Condition | undefined

/** How a request's conditions are written for its database and its caller. */
export interface FilterConditionOptions {
  /** How the database reads `%` and `_` literally in LIKE patterns (default `backslash`). */
  likeEscape?: LikeEscape | undefined
  /**
   * How Prisma's client matches text whatever its case on the database: by default `like` where
   * LIKE has no escape character (SQLite), `mode` elsewhere.
   */
  caseless?: Caseless | undefined
  /**
   * The related rows the caller may see, by relation: a condition through a relation matches only
   * those, so that no filter tells a caller about rows it cannot see (docs/security.md).
   */
  scopeOf?: RelationScope | undefined
}

/** The condition of the rows every filter accepts; undefined without filters. */
export function filterCondition(
  conditions: readonly FilterCondition[],
  { likeEscape = 'backslash', caseless, scopeOf = () => undefined }: FilterConditionOptions = {}
): Condition | undefined {
  const options: WrittenAs = {
    likeEscape,
    caseless: caseless ?? (likeEscape === 'none' ? 'like' : 'mode'),
  }
  return levelCondition(conditions, options, scopeOf)
}

/** The condition of the filters on one model's rows (the operation's, or a related one's). */
function levelCondition(
  conditions: readonly FilterCondition[],
  options: WrittenAs,
  scopeOf: RelationScope
): Condition | undefined {
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
  const parts: Condition[] = []
  const plain: FilterCondition[] = []
  for (const condition of own) {
    const scope = relationHeld(condition) ? scopeOf(condition.field) : undefined
    if (!scope) {
      plain.push(condition)
      continue
    }
    const visible = throughRelation(condition.field, 'is', scope)
    if (condition.kind !== 'exists') plain.push(condition)
    parts.push(
      condition.kind === 'exists' && !condition.value ? { kind: 'not', part: visible } : visible
    )
  }
  parts.unshift(...conditionParts(plain, options))
  // Every condition on one relation is one join, as API Platform's filters share their join: a
  // book matches `reviews.rating[gte]=4&reviews.author=Ann` when one review matches both. Each
  // relation of a longer path is a join of its own, under its own model's scope.
  for (const { through, conditions: inner } of related.values()) {
    const scope = scopeOf(through.relation)
    const deeper: RelationScope = (path) => scopeOf(`${through.relation}.${path}`)
    const held = levelCondition(inner, options, deeper)
    // The scope is "no row" when the target's guard refuses the caller: so is the whole join.
    const related = allOf([scope, held])
    parts.push(throughRelation(through.relation, through.many ? 'some' : 'is', related))
  }
  return allOf(parts)
}

/** How the database reads LIKE escapes and ignores case. */
interface WrittenAs {
  likeEscape: LikeEscape
  caseless: Caseless
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

function conditionParts(conditions: readonly FilterCondition[], options: WrittenAs): Condition[] {
  const parts: Condition[] = []
  const excluded = new Set<string>()
  for (const condition of conditions) {
    if (condition.kind === 'date' && condition.nulls === 'exclude_null') {
      if (!excluded.has(condition.field))
        parts.push(onField(condition.field, { op: 'not', test: { op: 'null' } }))
      excluded.add(condition.field)
    }
    parts.push(filterPart(condition, options))
  }
  return parts
}

function filterPart(condition: FilterCondition, options: WrittenAs): Condition {
  const { field } = condition
  switch (condition.kind) {
    case 'search':
      if (condition.composite)
        return compositeCondition(field, condition.composite, condition.values)
      return searchCondition(
        condition.foreignKey ?? field,
        condition.strategy,
        condition.values,
        options
      )
    case 'numeric':
      return oneOf(field, condition.values)
    case 'boolean':
      return fieldEquals(field, condition.value)
    case 'exists':
      return existsCondition(field, condition)
    case 'range':
      if (condition.operator === 'between') {
        const [low, high] = condition.value
        return allOf([
          onField(field, { op: 'gte', value: low }),
          onField(field, { op: 'lte', value: high }),
        ]) as Condition
      }
      return onField(field, { op: condition.operator, value: condition.value })
    case 'date': {
      const base = onField(field, {
        op: DATE_COMPARISON[condition.operator],
        value: condition.value,
      })
      const before = condition.operator.endsWith('before')
      const withNull =
        condition.nulls === 'include_null_before_and_after' ||
        (condition.nulls === 'include_null_before' && before) ||
        (condition.nulls === 'include_null_after' && !before)
      return withNull ? anyOf([base, fieldEquals(field, null)]) : base
    }
  }
}

/**
 * An exists filter: a to-one relation's related row, or a column's value, there or not. A Json
 * field's value is there when it is neither null: both are served as `null`.
 */
function existsCondition(
  field: string,
  condition: Extract<FilterCondition, { kind: 'exists' }>
): Condition {
  if (condition.relation) return throughRelation(field, condition.value ? 'is' : 'isNot')
  if (condition.json) {
    const test: FieldTest = { op: 'jsonNull' }
    return onField(field, condition.value ? { op: 'not', test } : test)
  }
  return condition.value
    ? onField(field, { op: 'not', test: { op: 'null' } })
    : fieldEquals(field, null)
}

/**
 * Rows related to any of the items with these composite keys: on this model's foreign keys when
 * it holds them all (`{ lineOrderId: 3, lineProductId: 7 }`), else through the relation
 * (`{ line: { is: { orderId: 3, productId: 7 } } }`).
 */
function compositeCondition(
  field: string,
  { foreignKeys }: { foreignKeys?: Readonly<Record<string, string>> | undefined },
  values: readonly unknown[]
): Condition {
  const branches = values.map((value): Condition => {
    const key = Object.entries(value as Record<string, unknown>)
    const parts = key.map(([name, part]) => fieldEquals(foreignKeys?.[name] ?? name, part))
    const all = allOf(parts) as Condition
    return foreignKeys ? all : throughRelation(field, 'is', all)
  })
  return anyOf(branches)
}

function oneOf(field: string, values: readonly unknown[]): Condition {
  return values.length === 1 ? fieldEquals(field, values[0]) : onField(field, { op: 'in', values })
}

/**
 * A search strategy as LIKE patterns. Prisma writes `contains`, `startsWith` and `endsWith` as
 * LIKE patterns without escaping `%` and `_` (checked on SQLite and PostgreSQL by the end-to-end
 * tests), so they are escaped here, as the database reads escapes; with no escape (SQLite), values
 * holding one were refused when read. `word_start` is API Platform's: the value starts the text or
 * follows a space. The `i` strategies are the same LIKE patterns matched whatever the case
 * (docs/filters.md#case-sensitivity): caseless (ILIKE), or with the plain LIKE where it ignores
 * case itself.
 */
function searchCondition(
  field: string,
  strategy: SearchStrategy,
  values: readonly unknown[],
  { likeEscape, caseless }: WrittenAs
): Condition {
  const insensitive = strategy.startsWith('i')
  const plain = (insensitive ? strategy.slice(1) : strategy) as SearchStrategy
  const mode = insensitive && caseless === 'mode' ? { caseless: true as const } : {}
  if (plain === 'exact' && !insensitive) return oneOf(field, values)
  const branches = values.flatMap((raw): Condition[] => {
    const pattern = typeof raw === 'string' ? escapeLike(raw, likeEscape) : String(raw)
    switch (plain) {
      case 'exact':
        return [patternEquals(field, pattern, mode)]
      case 'partial':
        return [onField(field, { op: 'contains', pattern, ...mode })]
      case 'start':
        return [onField(field, { op: 'startsWith', pattern, ...mode })]
      case 'end':
        return [onField(field, { op: 'endsWith', pattern, ...mode })]
      default:
        return [
          onField(field, { op: 'startsWith', pattern, ...mode }),
          onField(field, { op: 'contains', pattern: ` ${pattern}`, ...mode }),
        ]
    }
  })
  return anyOf(branches)
}

/**
 * The text matching the wildcard-free LIKE pattern `pattern` as a whole. Prisma writes `equals`
 * caseless as ILIKE (its value a pattern too); without a mode it writes `=`, which ignores
 * trailing spaces on MySQL/MariaDB and never ignores case on SQLite, so there it is the pattern as
 * a start followed by nothing (`LIKE 'ann%' AND NOT LIKE 'ann_%'`).
 */
function patternEquals(
  field: string,
  pattern: string,
  mode: { caseless?: true | undefined }
): Condition {
  if (mode.caseless) return onField(field, { op: 'equals', value: pattern, caseless: true })
  return allOf([
    onField(field, { op: 'startsWith', pattern }),
    onField(field, { op: 'not', test: { op: 'startsWith', pattern: `${pattern}_` } }),
  ]) as Condition
}

/** A LIKE pattern's text matching `text` literally. */
function escapeLike(text: string, likeEscape: LikeEscape): string {
  if (likeEscape === 'backslash') return text.replace(/[\\%_]/g, '\\$&')
  if (likeEscape === 'brackets') return text.replace(/[[%_]/g, '[$&]')
  return text
}
