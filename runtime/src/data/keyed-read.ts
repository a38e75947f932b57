/**
 * @module
 * A read of one row by its key within the caller's scope (an item, a sub-collection's parent), as
 * each engine's `findUnique` takes it, and such a read made beside a page, in its transaction.
 */

import type { ModelKey } from '../contract/model-source.js'
import type { Condition } from '../plan/condition.js'
import type { ReadShape } from '../plan/read-shape.js'

/**
 * Why the compiled engine hands a read to the `prisma` engine: a relation it embeds, or a condition
 * or order it cannot write.
 */
export type HandoffCause = 'embed' | 'query'

/** The row of the model `delegate` names whose `key` is `value`, when `scope` holds for it. */
export interface KeyedRead {
  /** The delegate of the row's model (`author`). */
  readonly delegate: string
  /** The model's key: one field, or a composite key's fields under its name. */
  readonly key: ModelKey
  /** The key's value (an object of its fields' values for a composite key). */
  readonly value: unknown
  /** The caller's scope of the row's model (undefined: every row). */
  readonly scope: Condition | undefined
  /** The fields read (absent: the model's columns). */
  readonly shape?: ReadShape | undefined
  /** The row's fields shown on some rows only (FindManyArgs' `shown`). */
  readonly shown?: ReadonlyMap<string, Condition> | undefined
  /** Told by the compiled engine when it hands this read to the `prisma` engine, with the cause. */
  readonly handoff?: ((cause: HandoffCause) => void) | undefined
}

/** A keyed read an engine makes beside a page, in its transaction, and tells what it read. */
export interface RowBeside extends KeyedRead {
  /** Told the row read (null: none); throws when it is not the row asked for. */
  found(row: object | null): void
}
