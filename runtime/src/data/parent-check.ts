/**
 * @module
 * A sub-collection's parent (`/authors/3/books`), read once per request: the `prisma` engine reads
 * it beside the page and its count, in their transaction (one call of the client and one snapshot,
 * as a hand-written route batches them); any other read of the rows reads it first, on its own. A
 * parent that does not exist, or that the caller may not see, is the route's 404.
 */

import type { ModelKey } from '../contract/model-source.js'
import type { Condition } from '../plan/condition.js'
import type { ReadShape } from '../plan/read-shape.js'
import type { KeyedRead, RowBeside } from './keyed-read.js'

/** How a parent is told apart and looked up on its own. */
export interface ParentLookUp {
  /** Whether the row read is the parent asked for (its key exactly as asked). */
  holds(row: object): boolean
  /** Reads the row on its own (data/data-access.ts's lookup of an item). */
  read(read: KeyedRead): Promise<object | null>
  /** The route's 404 for a missing parent. */
  missing(): Error
}

/** A sub-collection's parent, read beside its page or on its own before its rows. */
export interface ParentRead extends RowBeside {
  /** Resolves once the parent is known to be there; rejects with the route's 404 when it is not. */
  confirm(): Promise<void>
}

/** One request's check of its parent: read at most once, by the page's read or on its own. */
export class ParentCheck implements ParentRead {
  /** undefined: not read yet. */
  #present: boolean | undefined
  #reading: Promise<void> | undefined

  constructor(
    readonly delegate: string,
    readonly key: ModelKey,
    readonly value: unknown,
    readonly scope: Condition | undefined,
    readonly shape: ReadShape,
    private readonly lookUp: ParentLookUp
  ) {}

  found(row: object | null): void {
    this.#present = row !== null && this.lookUp.holds(row)
    if (!this.#present) throw this.lookUp.missing()
  }

  /**
   * Resolves once the parent is known to be there (read now unless a read said so); rejects with
   * the 404 when it is not.
   */
  confirm(): Promise<void> {
    if (this.#present === true) return Promise.resolve()
    if (this.#present === false) return Promise.reject(this.lookUp.missing())
    this.#reading ??= this.lookUp.read(this).then((row) => this.found(row))
    return this.#reading
  }
}

/** A sub-collection's rows: the condition tying them to their parent, and the parent's check. */
export interface ParentRows {
  /** The condition the rows hold: tied to the parent, within the caller's scope of its model. */
  readonly condition: Condition
  /** The parent, read with the rows. */
  readonly parent: ParentRead
}
