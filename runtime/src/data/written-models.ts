/**
 * @module
 * The models a Prisma write changes (docs/caching.md#what-a-write-purges) besides the rows it
 * names: every model its nested writes reach (`data: { books: { create: [...] } }`, `connect`,
 * `disconnect`, `set`), and, for a delete, every model its relations reach, since a cascade or
 * `SetNull` changes their rows too. What a write purges is written from them
 * (data/written-rows.ts).
 */

/** By model, its relation fields and the model each leads to. */
export type RelationTargets = ReadonlyMap<string, ReadonlyMap<string, string>>

/** A field of Prisma's runtime data model: a relation when `kind` is `object`. */
interface DataModelField {
  name: string
  kind: string
  type: string
}

/**
 * The relations of a Prisma client's models, read from the data model the generated client holds
 * (`_runtimeDataModel`, which Prisma's own query builder reads): Prisma's extension API names the
 * model a top-level write is of, never the models its nested writes reach. Empty when the client
 * holds none: nested writes then purge their own model alone, which the docs say.
 */
export function relationTargets(client: object): RelationTargets {
  const model = (client as { _runtimeDataModel?: { models?: Record<string, unknown> } })
    ._runtimeDataModel
  const targets = new Map<string, Map<string, string>>()
  for (const [name, value] of Object.entries(model?.models ?? {})) {
    const fields = (value as { fields?: DataModelField[] }).fields ?? []
    const relations = new Map<string, string>()
    for (const field of fields) if (field.kind === 'object') relations.set(field.name, field.type)
    targets.set(name, relations)
  }
  return targets
}

/** The write operations of Prisma's model API. */
export const WRITE_OPERATIONS: ReadonlySet<string> = new Set([
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'upsert',
  'delete',
  'deleteMany',
])

/** Adds the models a nested write payload of `model` reaches (filters in `where` excepted). */
function walk(targets: RelationTargets, model: string, value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(targets, model, item, into)
    return
  }
  if (typeof value !== 'object' || value === null) return
  const relations = targets.get(model)
  for (const [key, nested] of Object.entries(value)) {
    // A filter reads rows; it changes none.
    if (key === 'where') continue
    const target = relations?.get(key)
    if (target !== undefined) {
      into.add(target)
      walk(targets, target, nested, into)
    } else walk(targets, model, nested, into)
  }
}

/** Adds every model `model`'s relations reach, transitively (what a cascade may change). */
function reach(targets: RelationTargets, model: string, into: Set<string>): void {
  for (const target of targets.get(model)?.values() ?? []) {
    if (into.has(target)) continue
    into.add(target)
    reach(targets, target, into)
  }
}

/**
 * The models a write of `model` (`operation`, with `args`) changes besides the rows it names: those
 * its nested writes reach, and for a delete every model its relations reach. `model` itself is in
 * it only when reached so (a relation to its own model).
 */
export function nestedModels(
  targets: RelationTargets,
  model: string,
  operation: string,
  args: unknown
): Set<string> {
  const models = new Set<string>()
  if (operation === 'delete' || operation === 'deleteMany') {
    // Every relation is seen from both of its sides, so the walk comes back to `model` through
    // any of them: other rows of it change only through a relation to itself.
    const reached = new Set([model])
    reach(targets, model, reached)
    for (const other of reached) if (other !== model) models.add(other)
    if ([...(targets.get(model)?.values() ?? [])].includes(model)) models.add(model)
  }
  const { data, create, update } = (args ?? {}) as Record<string, unknown>
  for (const payload of [data, create, update]) walk(targets, model, payload, models)
  return models
}
