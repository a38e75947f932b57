/**
 * @module
 * The relations a field through relations goes through (`book.author.name`: `book`, then
 * `author`), each named by its path from the operation's model (`book`, `book.author`): scopes and
 * hidden fields are looked up by these paths, since one relation name can lead to different
 * models at different depths.
 */
import type { RelatedField, RelationHop } from '../contract/query.js'

/** One relation of a path, with its path from the operation's model. */
export interface PathHop extends RelationHop {
  /** `book`, `book.author`. */
  path: string
  /** The path of the model it leaves from; undefined for the operation's own model. */
  from?: string | undefined
}

/** Every relation `through` goes through, in order. */
export function relationHops(through: RelatedField): PathHop[] {
  const { relation, many, model } = through
  const hops: PathHop[] = [{ relation, many, model, path: relation }]
  for (const hop of through.next ?? []) {
    const from = (hops[hops.length - 1] as PathHop).path
    hops.push({ ...hop, path: `${from}.${hop.relation}`, from })
  }
  return hops
}

/**
 * What `through` goes through once past its first relation, from the model that relation reaches:
 * undefined when the field is that model's own.
 */
export function pastFirst(through: RelatedField): RelatedField | undefined {
  const [first, ...rest] = through.next ?? []
  if (!first) return undefined
  return {
    relation: first.relation,
    field: through.field,
    ...(first.many ? { many: true } : {}),
    ...(first.model ? { model: first.model } : {}),
    ...(rest.length > 0 ? { next: rest } : {}),
  }
}
