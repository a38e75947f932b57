/**
 * @module
 * The conditions of a request's plan, as typed values: the rows its filters, its caller's scopes,
 * its parent and its cursor position select. Every module reads and joins them as they are; only
 * the engines write them, each in its own language (data/prisma7/where.ts: Prisma's `where`;
 * data/compiled/sql.ts: SQL). Users' scopes are read into them by plan/scope-reader.ts.
 *
 * The logic: a condition absent (undefined) holds for every row, {@link NEVER} for none; `and`
 * holds when each of its parts does, `or` when one does, `not` when its part does not.
 */

import type { KeysetPast } from './keyset-position.js'

/** A condition on the rows of one model. */
export type Condition = Never | And | Or | Not | FieldCondition | RelationCondition | PastCondition

/** No row. */
export interface Never {
  /** The kind of condition. */
  readonly kind: 'never'
}

/** Every one of `parts` (two or more). */
export interface And {
  /** The kind of condition. */
  readonly kind: 'and'
  /** The conditions that all hold. */
  readonly parts: readonly Condition[]
}

/** One of `parts` at least (two or more). */
export interface Or {
  /** The kind of condition. */
  readonly kind: 'or'
  /** The conditions one of which holds. */
  readonly parts: readonly Condition[]
}

/** Not `part`. */
export interface Not {
  /** The kind of condition. */
  readonly kind: 'not'
  /** The condition that does not hold. */
  readonly part: Condition
}

/** A test of one of the model's own fields. */
export interface FieldCondition {
  /** The kind of condition. */
  readonly kind: 'field'
  /** The field's name in the schema. */
  readonly field: string
  /** What the field's value is tested by. */
  readonly test: FieldTest
}

/** A comparison of a field's value with the test's. */
export type Comparison = 'equals' | 'lt' | 'lte' | 'gt' | 'gte'

/** A text's LIKE pattern by where the text stands in it. */
export type Pattern = 'contains' | 'startsWith' | 'endsWith'

/**
 * What a field's value is tested by. A `pattern` holds LIKE's wildcards as Prisma's string
 * filters read them: escaped by whoever wrote it, as the database reads escapes. `caseless` tests
 * ignore the text's case (Prisma's `mode: 'insensitive'`: for `equals`, a pattern too).
 */
export type FieldTest =
  | CompareTest
  | ListTest
  | NullTest
  | JsonNullTest
  | PatternTest
  | NotTest
  | OpaqueTest

/** The value compared with one value. */
export interface CompareTest {
  /** How it compares. */
  readonly op: Comparison
  /** The value it is compared with. */
  readonly value: unknown
  /** Whether text compares whatever its case. */
  readonly caseless?: true | undefined
}

/** The value among a list's (`in`), or not (`notIn`). */
export interface ListTest {
  /** Among the values, or not. */
  readonly op: 'in' | 'notIn'
  /** The values. */
  readonly values: readonly unknown[]
  /** Whether text compares whatever its case. */
  readonly caseless?: true | undefined
}

/** The value is null. */
export interface NullTest {
  /** The test. */
  readonly op: 'null'
}

/**
 * A Json field's value is null: the database's `NULL` or JSON's `null`, which are both served as
 * `null` (docs/filters.md).
 */
export interface JsonNullTest {
  /** The test. */
  readonly op: 'jsonNull'
}

/** The text matches a LIKE pattern. */
export interface PatternTest {
  /** Where the pattern stands in the text. */
  readonly op: Pattern
  /** The pattern, escaped as the database reads escapes. */
  readonly pattern: string
  /** Whether the text matches whatever its case. */
  readonly caseless?: true | undefined
}

/** Another test does not hold (Prisma's `not`). */
export interface NotTest {
  /** The test. */
  readonly op: 'not'
  /** The test that does not hold. */
  readonly test: FieldTest
}

/**
 * A test of a user's scope the plan carries without reading it (a Json path, a list's `has`, a
 * full-text `search`, a client's null sentinel compared): by its Prisma operators, which the
 * `prisma` engine writes as they are and the compiled engine does not write.
 */
export interface OpaqueTest {
  /** The test. */
  readonly op: 'opaque'
  /** Prisma's operators of the field's filter, as written. */
  readonly operators: Readonly<Record<string, unknown>>
}

/**
 * A test of the rows related through `relation`: `some`, `every` or `none` of a to-many
 * relation's rows holds `condition` (absent: any row), a to-one's related row exists and holds it
 * (`is`), or is missing or does not (`isNot`).
 */
export interface RelationCondition {
  /** The kind of condition. */
  readonly kind: 'relation'
  /** The relation field's name in the schema. */
  readonly relation: string
  /** How the related rows hold the condition. */
  readonly quantifier: 'some' | 'every' | 'none' | 'is' | 'isNot'
  /** The related rows' condition; absent: any related row. */
  readonly condition?: Condition | undefined
}

/** The rows past a cursor position in a key order (keyset-position.ts). */
export interface PastCondition {
  /** The kind of condition. */
  readonly kind: 'past'
  /** The position and the way read. */
  readonly past: KeysetPast
}

/** The condition no row holds. */
export const NEVER: Never = Object.freeze({ kind: 'never' })

/** Whether `condition` holds for no row. */
export const isNever = (condition: Condition | undefined): condition is Never =>
  condition?.kind === 'never'

/** Every one of `parts` (undefined parts hold for every row); undefined when none is left. */
export function allOf(parts: readonly (Condition | undefined)[]): Condition | undefined {
  const held: Condition[] = []
  for (const part of parts) {
    if (part === undefined) continue
    if (part.kind === 'never') return NEVER
    if (part.kind === 'and') held.push(...part.parts)
    else held.push(part)
  }
  if (held.length <= 1) return held[0]
  return { kind: 'and', parts: held }
}

/** Both conditions, or either. */
export const both = (
  first: Condition | undefined,
  second: Condition | undefined
): Condition | undefined => (first === undefined ? second : allOf([first, second]))

/** One of `parts` at least: {@link NEVER} when there is none. */
export function anyOf(parts: readonly Condition[]): Condition {
  const live = parts.filter((part) => part.kind !== 'never')
  if (live.length === 0) return NEVER
  if (live.length === 1) return live[0] as Condition
  return { kind: 'or', parts: live }
}

/** A test of `field`. */
export const onField = (field: string, test: FieldTest): FieldCondition => ({
  kind: 'field',
  field,
  test,
})

/** `field` equal to `value` (`null`: the field is null). */
export const fieldEquals = (field: string, value: unknown): FieldCondition =>
  onField(field, value === null ? { op: 'null' } : { op: 'equals', value })

/** A related row through `relation` holding `condition`, by the relation's kind. */
export const throughRelation = (
  relation: string,
  quantifier: RelationCondition['quantifier'],
  condition?: Condition | undefined
): RelationCondition =>
  condition === undefined
    ? { kind: 'relation', relation, quantifier }
    : { kind: 'relation', relation, quantifier, condition }

/**
 * Each condition `condition` holds inside it, depth first with the model each is on: relations
 * followed to their target by `targetOf` (a relation it does not know stays on `model`).
 */
export function* walkConditions(
  condition: Condition | undefined,
  model: string,
  targetOf: (model: string, relation: string) => string | undefined
): Generator<{ condition: Condition; model: string }> {
  if (condition === undefined) return
  yield { condition, model }
  switch (condition.kind) {
    case 'and':
    case 'or':
      for (const part of condition.parts) yield* walkConditions(part, model, targetOf)
      return
    case 'not':
      yield* walkConditions(condition.part, model, targetOf)
      return
    case 'relation': {
      const target = targetOf(model, condition.relation) ?? model
      yield* walkConditions(condition.condition, target, targetOf)
      return
    }
    default:
      return
  }
}
