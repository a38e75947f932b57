/**
 * @module
 * What one caller may filter and order by (docs/security.md): an operation's QuerySpec without
 * the caller's hidden fields, and without orders through a relation whose rows the caller sees
 * only in part (an order cannot leave out related rows the caller cannot see, so it could rank
 * rows by them). What is left out is an unknown parameter for that caller, as an undeclared one.
 */
import type { QuerySpec, Through } from '../contract/query.js'

/** The related model of each relation a spec's filters and orders go through, by relation. */
const models = new WeakMap<QuerySpec, ReadonlyMap<string, string>>()

/** By relation field (`author`), the model its filters and orders reach (`Author`). */
export function relatedModels(spec: QuerySpec | undefined): ReadonlyMap<string, string> {
  if (!spec) return new Map()
  let known = models.get(spec)
  if (!known) {
    const found = new Map<string, string>()
    for (const filter of spec.filters) {
      if (filter.through?.model) found.set(filter.through.relation, filter.through.model)
      if (filter.kind === 'search' && filter.relation?.model)
        found.set(filter.field, filter.relation.model)
      if (filter.kind === 'exists' && filter.relation && filter.model)
        found.set(filter.field, filter.model)
    }
    for (const field of spec.order)
      if (field.through?.model) found.set(field.through.relation, field.through.model)
    known = found
    models.set(spec, known)
  }
  return known
}

/**
 * Hidden fields (API names) as a spec's filters and orders name them: a link `@property` renames
 * (`writer`) by its Prisma field (`author`), which names `author=`, `author.name=`,
 * `exists[author]` and `order[author.name]`. Other fields keep their names.
 */
export function queryNames(
  hidden: ReadonlySet<string>,
  links: readonly { name: string; field?: string | undefined }[] = []
): ReadonlySet<string> {
  const fieldOf = new Map<string, string>()
  for (const { name, field } of links) if (field !== undefined) fieldOf.set(name, field)
  if (fieldOf.size === 0 || hidden.size === 0) return hidden
  return new Set([...hidden].map((name) => fieldOf.get(name) ?? name))
}

/** Each spec's caller variants, by what they leave out (few: one per kind of caller). */
const variants = new WeakMap<QuerySpec, Map<string, QuerySpec>>()

/**
 * `spec` without the filters and orders of `hidden` fields (and of hidden relations, and of a
 * related model's hidden fields, named `relation.field`), and without
 * orders through the relations of `partial` (relations to rows the caller sees only in part).
 * The same object for the same caller kind, so that what is built from it is built once.
 */
export function callerSpec(
  spec: QuerySpec,
  hidden: ReadonlySet<string>,
  partial: ReadonlySet<string>
): QuerySpec {
  if (hidden.size === 0 && partial.size === 0) return spec
  const key = `${[...hidden].sort().join(',')}|${[...partial].sort().join(',')}`
  let known = variants.get(spec)
  if (!known) {
    known = new Map()
    variants.set(spec, known)
  }
  let variant = known.get(key)
  if (!variant) {
    const shown = ({ through }: Through, field: string) =>
      !hidden.has(field) &&
      !(
        through &&
        (hidden.has(through.relation) || hidden.has(`${through.relation}.${through.field}`))
      )
    variant = {
      ...spec,
      filters: spec.filters.filter((filter) => shown(filter, filter.field)),
      order: spec.order.filter(
        (field) =>
          shown(field, field.field) && !(field.through && partial.has(field.through.relation))
      ),
    }
    known.set(key, variant)
  }
  return variant
}
