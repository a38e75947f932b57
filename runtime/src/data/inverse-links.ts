/**
 * @module
 * A link hidden from a caller is hidden from both of its sides (docs/security.md): a relation's two
 * links tell the same fact, so when `Task` hides `assignee`, `User` hides `tasks` too. Applied once,
 * to the rules the app gives, before any route reads them: every road that reads a model's hidden
 * fields (members, items, filters, orders and `exists` through a relation, embeds, `id[]`,
 * sub-collections, the app's own routes through `hydraRules`) then holds it without a rule of
 * its own.
 */
import type { HiddenBy, HiddenRule, ModelRules, ResourceRules } from '../contract/access-rules.js'

/**
 * Each model's links whose target serves a link back, by the link's name in members: the target
 * model and the name of its link back (`{ User: { tasks: ['Task', 'assignee'] } }`).
 */
export type InverseLinks = {
  readonly [model: string]: { readonly [link: string]: readonly [string, string] }
}

/** The links of model `M` in `I` whose other side its target's rule in `A` may hide. */
type HiddenBack<A, I, M> = M extends keyof I
  ? {
      [L in keyof I[M]]: I[M][L] extends readonly [infer T extends string, infer B]
        ? B extends HiddenBy<A, T>
          ? L
          : never
        : never
    }[keyof I[M]]
  : never

/**
 * The type of the rules `A` as the types of members read them (`CallerMember`, `CallerApp`):
 * each model's hidden fields with the links whose other side the target's rule may hide, as
 * {@link hideInverseLinks} hides them at run time. `A` itself when it gives no rule.
 */
export type WithInverseLinks<A, I> = [keyof A] extends [never]
  ? A
  : {
      [M in (keyof A | keyof I) & string]?: {
        /** The fields and links the model's rules may hide, and those hidden on the other side. */
        hidden: () => readonly (HiddenBy<A, M> | (HiddenBack<A, I, M> & string))[]
      }
    }

type Rules = ResourceRules<Record<string, unknown>, string, string, unknown>

/**
 * On a `hidden` rule built here for a model without one of its own: the only links it may hide,
 * so that the documentation and OpenAPI keep every other field of the model required.
 */
const LINKS_ONLY: unique symbol = Symbol('prisma-hydra inverse links only')

/** On rules built here: read through {@link hideInverseLinks} again, they are given back as they are. */
const BUILT: unique symbol = Symbol('prisma-hydra rules with inverse links')

/**
 * Whether the rules may hide a property of `model` from some caller: any of its fields when it has
 * a `hidden` rule of its own or a `shownWhere` rule (a field shown on some rows only), only the
 * links {@link hideInverseLinks} hides when it has neither.
 */
export function hideableBy(
  rules: ModelRules<never> | undefined,
  model: string
): (name: string) => boolean {
  if (rules?.[model]?.shownWhere) return () => true
  const hidden = rules?.[model]?.hidden
  if (!hidden) return () => false
  const links = (hidden as { [LINKS_ONLY]?: readonly string[] })[LINKS_ONLY]
  return links ? (name) => links.includes(name) : () => true
}

/**
 * `access` with each model's `hidden` rule also hiding the links whose other side the target's own
 * rule hides; the same object when no rule hides a field, or when it is such rules already. A
 * model gains a `hidden` rule only where a target's rule could hide its link back, so the answers
 * of the others stay as they were.
 */
export function hideInverseLinks<R extends ModelRules<never> | undefined>(
  access: R,
  inverses: InverseLinks
): R {
  if (!access || BUILT in access) return access
  const rules = access as ModelRules<unknown>
  let linked: Record<string, Rules | undefined> | undefined
  for (const [model, links] of Object.entries(inverses)) {
    const through = Object.entries(links).filter(([, [target]]) => rules[target]?.hidden)
    if (through.length === 0) continue
    linked ??= { ...rules }
    const both = hiddenBothWays(rules, model, through)
    const hidden = rules[model]?.hidden
      ? both
      : Object.assign(both, { [LINKS_ONLY]: through.map(([link]) => link) })
    // The built rule reads what its targets' rules read: credentials alone when they all say so.
    const readers = [rules[model], ...through.map(([, [target]]) => rules[target])]
    const credentials = readers.every((own) => own === undefined || own.reads === 'credentials')
    linked[model] = { ...rules[model], hidden, reads: credentials ? 'credentials' : undefined }
  }
  return (linked ? Object.assign(linked, { [BUILT]: true }) : access) as R
}

/** The hidden rule of `model`: its own fields, and each link of `through` its target hides back. */
function hiddenBothWays(
  rules: ModelRules<unknown>,
  model: string,
  through: readonly (readonly [string, readonly [string, string]])[]
): HiddenRule<string, unknown> {
  const own = rules[model]?.hidden
  const targets = [...new Set(through.map(([, [target]]) => target))]
  return async (caller) => {
    const hidden = new Set((await own?.(caller)) ?? [])
    // The targets' own rules, never the ones built here, each called once.
    const theirs = new Map(
      await Promise.all(
        targets.map(
          async (target) =>
            [target, new Set((await rules[target]?.hidden?.(caller)) ?? [])] as const
        )
      )
    )
    for (const [link, [target, back]] of through)
      if (theirs.get(target)?.has(back)) hidden.add(link)
    return [...hidden]
  }
}
