/**
 * @module
 * A member as a caller of an app with access rules receives it: in the member and in every item
 * it embeds by declaration (docs/member-shape.md, "Declared embeds"), the fields the rules may
 * hide of that item's own type optional (docs/security.md#rules-in-types). An embedded
 * item is written by the rules of its type wherever it appears, so its type must say so too.
 */
import type { HiddenBy } from '../contract/access-rules.js'
import type { Hideable } from './member-type.js'

/**
 * The items of a collection (`hydra:member`, `member`), each by its own type's rules; any other
 * value of a property so named (a member's own field or link `member`) as `CallerValue` reads it.
 */
type CallerItems<V, A> = V extends (infer I)[] ? CallerMember<I, A>[] : CallerValue<V, A>

/** A property's value: an embedded item or collection as the caller receives it; any other as it is. */
type CallerValue<V, A> = V extends {
  /** A JSON-LD node's type: an item. */
  '@type': string
}
  ? CallerMember<V, A>
  : V

/**
 * `M` itself where the rules leave it as it is (so that a client's types keep the names the app
 * gives them, `HydraItem<BookMember>`), else its caller's form `C`.
 */
type Unchanged<M, C> = [M] extends [C] ? ([C] extends [M] ? M : C) : C

/**
 * The member `M` (a resource's member type, an item or collection it embeds, or a page of
 * members) under the rules `A` (the type of the app's `access`): the fields the rules may hide of
 * its `@type` optional, and each item it holds the same by its own `@type`. An app without rules:
 * `M` as it is.
 */
export type CallerMember<M, A> = [keyof A] extends [never]
  ? M
  : M extends {
        /** The member's type, whose rules apply. */
        '@type': infer T extends string
      }
    ? Unchanged<
        M,
        Hideable<
          {
            [K in keyof M]: K extends 'hydra:member' | 'member'
              ? CallerItems<M[K], A>
              : CallerValue<M[K], A>
          },
          HiddenBy<A, T>
        >
      >
    : M
