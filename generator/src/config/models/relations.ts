/**
 * Relations served as links (docs/hydra.md#relations): which relation fields of a model are
 * shown, under which name, how each reads its value, and which foreign keys they replace.
 */
import type { DMMF } from '@prisma/generator-helper'
import { type Problem, reporter } from '../../problems.js'
import type { FieldAnnotations } from '../schema/fields.js'
import { type ItemKey, itemKeyOf } from '../schema/item-key.js'
import type { FieldModel, ItemKeyModel, LinkModel } from '../schema/model.js'

/** What a link needs of its target's resource. */
export interface LinkTarget {
  readonly collectionPath: string
  readonly idField: FieldModel
  readonly key: ItemKeyModel
  readonly iri: string | undefined
}

export interface ModelLinks {
  links: LinkModel[]
  /** Foreign-key fields of the links, by field: not served (the link is), with their relation. */
  foreignKeys: Map<string, string>
}

/**
 * The links of a model: every relation field to a served model, unless `@hidden` (the relation is
 * then off, and its foreign key is a plain field). Relations to models that are not served are
 * never shown.
 */
export function readLinks(
  model: DMMF.Model,
  datamodel: DMMF.Datamodel,
  served: ReadonlySet<string>,
  annotations: readonly FieldAnnotations[]
): ModelLinks {
  const links: LinkModel[] = []
  const foreignKeys = new Map<string, string>()
  for (const { field, hidden, name, iri } of annotations) {
    if (field.kind !== 'object' || hidden || !served.has(field.type)) continue
    const target = datamodel.models.find((candidate) => candidate.name === field.type)
    const targetKey = target ? itemKeyOf(target) : undefined
    if (!target || !targetKey) continue
    const link = {
      name: name ?? field.name,
      field: field.name,
      kind: field.isList ? 'many' : 'one',
      target: target.name,
      ...(field.relationName ? { relation: field.relationName } : {}),
      required: field.isList || field.isRequired,
      ...(iri ? { iri } : {}),
    } as const
    if (field.isList) {
      const condition = subCollectionCondition(model, field, target)
      if (condition) links.push({ ...link, condition })
      continue
    }
    const keys = field.relationFromFields ?? []
    for (const key of keys) foreignKeys.set(key, field.name)
    links.push({ ...link, from: linkFrom(field, targetKey) })
  }
  return { links, foreignKeys }
}

/** How a to-one link reads the related key: its foreign key, or through the relation. */
function linkFrom(field: DMMF.Field, targetKey: ItemKey): NonNullable<LinkModel['from']> {
  const keys = field.relationFromFields ?? []
  const targetId = targetKey.fields[0] as DMMF.Field
  // A composite key is read through the relation, all its fields at once.
  if (targetKey.fields.length > 1) return [field.name]
  return keys.length === 1 && sameFields(field.relationToFields, [targetId.name])
    ? (keys[0] as string)
    : [field.name, targetId.name]
}

const sameFields = (fields: readonly string[] | undefined, expected: readonly string[]) =>
  (fields ?? []).length === expected.length &&
  expected.every((name, index) => fields?.[index] === name)

/**
 * How the target rows of one item are selected: the target's foreign key when it references the
 * item's id (one-to-many), else the back relation (`is` to-one, `some` to-many: implicit
 * many-to-many). A self-relation's back relation is its other field.
 */
/** The relation field of `target` on the other side of `model`'s relation `field`, if any. */
export function backRelationOf(
  model: DMMF.Model,
  field: DMMF.Field,
  target: DMMF.Model
): DMMF.Field | undefined {
  return target.fields.find(
    (candidate) =>
      candidate.kind === 'object' &&
      candidate.relationName === field.relationName &&
      !(target.name === model.name && candidate.name === field.name)
  )
}

function subCollectionCondition(
  model: DMMF.Model,
  field: DMMF.Field,
  target: DMMF.Model
): LinkModel['condition'] {
  const back = backRelationOf(model, field, target)
  if (!back) return undefined
  if (back.isList) return { field: back.name, kind: 'some' }
  const keys = back.relationFromFields ?? []
  const key = itemKeyOf(model)
  const id = key?.fields.length === 1 ? key.name : ''
  if (keys.length === 1 && sameFields(back.relationToFields, [id]))
    return { field: keys[0] as string, kind: 'column', relation: back.name }
  return { field: back.name, kind: 'is' }
}

/**
 * The links of a served model with their related resources, each checked against the model's
 * shown fields and the links before it (one property, one name); a link whose name is taken, or
 * to a model that could not be resolved (its own problems are reported), is left out.
 */
export function targetLinks(
  model: string,
  served: { readonly shown: readonly FieldModel[]; readonly links: readonly LinkModel[] },
  targets: ReadonlyMap<string, LinkTarget>,
  problems: Problem[]
): LinkModel[] {
  const taken = new Map<string, string>(
    served.shown.map((field) => [field.name, `field "${field.name}"`])
  )
  return served.links.flatMap((link) => {
    const report = reporter(problems, `Model "${model}", field "${link.field}"`)
    const owner = taken.get(link.name)
    if (owner) {
      report({
        source: link.name === link.field ? 'relation' : '@property',
        ...(link.name === link.field ? {} : { option: 'name' }),
        message: `the relation's property "${link.name}" is already the name of ${owner}; give the relation another name (@property(name: "...")) or hide one of them (@hidden)`,
      })
      return []
    }
    taken.set(link.name, `relation "${link.field}"`)
    const target = targets.get(link.target)
    if (!target) return []
    const targetResource = {
      collectionPath: target.collectionPath,
      idField: target.idField,
      key: target.key,
      ...(target.iri ? { iri: target.iri } : {}),
    }
    return [{ ...link, targetResource }]
  })
}

/** The foreign-key problem of a field a filter or an order names, or undefined. */
export function foreignKeyProblem(
  name: string,
  foreignKeys: ReadonlyMap<string, string> | undefined,
  use: 'filter' | 'order' = 'filter'
): string | undefined {
  const relation = foreignKeys?.get(name)
  if (relation === undefined) return undefined
  const served = `is the foreign key of relation "${relation}", which is served as a link: it is not a field of the API`
  return use === 'filter'
    ? `${served}; filter by the relation instead: @filter(search: { ${relation}: "exact" }) (by IRI or id)`
    : `${served}, so clients cannot order by it; to serve the key as a field, turn the relation off (@hidden on "${relation}")`
}
