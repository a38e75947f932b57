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
  relationName?: string
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

/**
 * What an update of a model may name in its `data` and leave the pages reading none of it cached
 * (data/written-rows.ts): its scalar fields, those of them holding a relation's foreign key, and
 * those Prisma may set without their being named (`@updatedAt`).
 */
export interface ModelFields {
  scalars: ReadonlySet<string>
  foreignKeys: ReadonlySet<string>
  /**
   * The model's date-time fields: Prisma's runtime data model does not say which is `@updatedAt`
   * (set by every update), so every update counts as changing each of them.
   */
  updatedAt: ReadonlySet<string>
}

/** A served resource's relations as its links declare them: their field and foreign key. */
export interface ResourceLinks {
  /**
   * Its links (a generated resource's `links`): a to-one link's `from` names the foreign key
   * referencing the target's key when it is one field (a string); a to-many link has none.
   */
  links?: readonly ResourceLink[] | undefined
}

/** One link of a served resource, as much of it as purging reads. */
export interface ResourceLink {
  /** The link's name in the resource. */
  name: string
  /** The relation field of the model it reads, where it is not `name`. */
  field?: string | undefined
  /** `one` for a to-one link, `many` for a to-many link. */
  kind: string
  /** A to-one link's foreign key: its field's name where it is one field. */
  from?: unknown
}

/**
 * The fields of each model of a Prisma client (its runtime data model) that a resource serves,
 * with the foreign keys its links name. A model one of whose relations is no link of its resource,
 * or a link whose foreign key is not one field, is left out: its updates cannot be told from
 * moves, and purge as any write of the model.
 */
export function modelFields(
  client: object,
  resources: ReadonlyMap<string, ResourceLinks>
): ReadonlyMap<string, ModelFields> {
  const model = (client as { _runtimeDataModel?: { models?: Record<string, unknown> } })
    ._runtimeDataModel
  const described = new Map<string, ModelFields>()
  const models = model?.models ?? {}
  for (const [name, value] of Object.entries(models)) {
    const fields = (value as { fields?: DataModelField[] }).fields ?? []
    const links = new Map(
      (resources.get(name)?.links ?? []).map((link) => [link.field ?? link.name, link])
    )
    const foreignKeys = new Set<string>()
    const known = fields.every((field) => {
      if (field.kind !== 'object') return true
      const link = links.get(field.name)
      if (!link) return false
      if (typeof link.from === 'string') foreignKeys.add(link.from)
      return link.kind === 'many' || typeof link.from === 'string'
    })
    if (!known || !resources.has(name) || !keyReferenced(name, fields, resources, models)) continue
    const scalars = fields.filter((field) => field.kind !== 'object')
    described.set(name, {
      scalars: new Set(scalars.map((field) => field.name)),
      foreignKeys,
      updatedAt: new Set(scalars.filter((f) => f.type === 'DateTime').map((f) => f.name)),
    })
  }
  return described
}

/** A served resource's links by their relation field. */
const linksOf = (resources: ReadonlyMap<string, ResourceLinks>, model: string) =>
  new Map((resources.get(model)?.links ?? []).map((link) => [link.field ?? link.name, link]))

/**
 * Whether every relation of `model` is known to reference a key, never another unique field of
 * `model` (which an update could set unnamed by any tag of the models referencing it): its own
 * side holds the foreign key, the other side's link reads `model`'s key through one foreign key,
 * or both sides are lists (an implicit many-to-many, through the keys). The runtime data model
 * does not say which fields a relation references: a relation known by neither side's link is
 * taken as possibly referencing any field.
 */
function keyReferenced(
  model: string,
  fields: readonly DataModelField[],
  resources: ReadonlyMap<string, ResourceLinks>,
  models: Record<string, unknown>
): boolean {
  const own = linksOf(resources, model)
  return fields.every((field) => {
    if (field.kind !== 'object') return true
    const link = own.get(field.name)
    if (typeof link?.from === 'string') return true
    const others = (models[field.type] as { fields?: DataModelField[] } | undefined)?.fields ?? []
    const back = others.find(
      (other) =>
        other.kind === 'object' &&
        other.relationName === field.relationName &&
        !(field.type === model && other.name === field.name)
    )
    if (!back) return false
    const backLink = linksOf(resources, field.type).get(back.name)
    return (
      typeof backLink?.from === 'string' || (link?.kind === 'many' && backLink?.kind === 'many')
    )
  })
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

/**
 * By model, its relation fields whose foreign key it holds itself (a served resource's to-one
 * link with one `from` field) and whose target shows no to-one link back: a delete of its rows
 * changes no answer of their targets.
 */
export type OwnForeignKeys = (model: string) => ReadonlySet<string>

/**
 * The relation fields of each model whose foreign key it holds, as its resource's links say, but
 * those whose target's resource links back to it as to-one (`Article.body`, whose key the body
 * holds): the target's answers write that link from the deleted row, and carry none of its tags.
 */
export function ownForeignKeys(
  resources: ReadonlyMap<string, ResourceLinks>,
  targets: RelationTargets
): OwnForeignKeys {
  return (model) =>
    new Set(
      (resources.get(model)?.links ?? [])
        .filter((link) => link.kind === 'one' && typeof link.from === 'string')
        .map((link) => link.field ?? link.name)
        .filter((field) => {
          const target = targets.get(model)?.get(field)
          return target !== undefined && !linksBackToOne(resources, targets, target, model)
        })
    )
}

/** Whether `target`'s resource shows a to-one link through a relation of it to `model`. */
function linksBackToOne(
  resources: ReadonlyMap<string, ResourceLinks>,
  targets: RelationTargets,
  target: string,
  model: string
): boolean {
  const back = [...(targets.get(target) ?? [])].filter(([, to]) => to === model)
  const links = resources.get(target)?.links ?? []
  return back.some(([relation]) =>
    links.some((link) => link.kind === 'one' && (link.field ?? link.name) === relation)
  )
}

/**
 * Adds every model `model`'s relations reach, transitively (what a cascade may change), but
 * through a relation whose foreign key the model holds itself (`owned`): deleting a book changes
 * no author.
 */
function reach(
  targets: RelationTargets,
  model: string,
  into: Set<string>,
  owned: OwnForeignKeys
): void {
  const holds = owned(model)
  for (const [relation, target] of targets.get(model) ?? []) {
    if (holds.has(relation) || into.has(target)) continue
    into.add(target)
    reach(targets, target, into, owned)
  }
}

/**
 * The models a write of `model` (`operation`, with `args`) changes besides the rows it names: those
 * its nested writes reach, and for a delete every model its relations reach, but through those
 * whose foreign key the model on the walk holds (`owned`). `model` itself is in it only when
 * reached so (a relation to its own model).
 */
export function nestedModels(
  targets: RelationTargets,
  model: string,
  operation: string,
  args: unknown,
  owned: OwnForeignKeys = () => new Set()
): Set<string> {
  const models = new Set<string>()
  if (operation === 'delete' || operation === 'deleteMany') {
    // Every relation is seen from both of its sides, so the walk comes back to `model` through
    // any of them: other rows of it change only through a relation to itself.
    const reached = new Set([model])
    reach(targets, model, reached, owned)
    for (const other of reached) if (other !== model) models.add(other)
    if ([...(targets.get(model)?.values() ?? [])].includes(model)) models.add(model)
  }
  const { data, create, update } = (args ?? {}) as Record<string, unknown>
  for (const payload of [data, create, update]) walk(targets, model, payload, models)
  return models
}
