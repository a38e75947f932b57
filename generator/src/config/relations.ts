/**
 * Relations served as links (docs/hydra.md#relations): which relation fields of a model are
 * shown, under which name, how each reads its value, and which foreign keys they replace.
 */
import type { DMMF } from '@prisma/generator-helper'
import { type Problem, reporter } from '../problems.js'
import type { FieldAnnotations } from './fields.js'
import { itemKeyOf } from './item-key.js'
import type { LinkModel, ResourceModel } from './model.js'

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
    const targetId = targetKey.fields[0] as DMMF.Field
    const link: LinkModel = {
      name: name ?? field.name,
      field: field.name,
      kind: field.isList ? 'many' : 'one',
      target: target.name,
      required: field.isList || field.isRequired,
      ...(iri ? { iri } : {}),
    }
    if (field.isList) {
      const condition = subCollectionCondition(model, field, target)
      if (!condition) continue
      link.condition = condition
    } else {
      const keys = field.relationFromFields ?? []
      for (const key of keys) foreignKeys.set(key, field.name)
      // A composite key is read through the relation, all its fields at once.
      link.from =
        targetKey.fields.length > 1
          ? [field.name]
          : keys.length === 1 && sameFields(field.relationToFields, [targetId.name])
            ? (keys[0] as string)
            : [field.name, targetId.name]
    }
    links.push(link)
  }
  return { links, foreignKeys }
}

const sameFields = (fields: readonly string[] | undefined, expected: readonly string[]) =>
  (fields ?? []).length === expected.length &&
  expected.every((name, index) => fields?.[index] === name)

/**
 * How the target rows of one item are selected: the target's foreign key when it references the
 * item's id (one-to-many), else the back relation (`is` to-one, `some` to-many: implicit
 * many-to-many). A self-relation's back relation is its other field.
 */
function subCollectionCondition(
  model: DMMF.Model,
  field: DMMF.Field,
  target: DMMF.Model
): LinkModel['condition'] {
  const back = target.fields.find(
    (candidate) =>
      candidate.kind === 'object' &&
      candidate.relationName === field.relationName &&
      !(target.name === model.name && candidate.name === field.name)
  )
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
 * Checks each link's name against the model's shown fields and other links (one property, one
 * name), and fills in the related resource once every model is resolved; a link to a model that
 * could not be resolved (its own problems are reported) is dropped.
 */
export function resolveLinks(resources: ResourceModel[], problems: Problem[]): void {
  const byName = new Map(resources.map((resource) => [resource.name, resource]))
  for (const resource of resources) {
    const taken = new Map<string, string>(
      resource.fields.map((field) => [field.name, `field "${field.name}"`])
    )
    resource.links = resource.links.filter((link) => {
      const report = reporter(problems, `Model "${resource.name}", field "${link.field}"`)
      const owner = taken.get(link.name)
      if (owner) {
        report({
          source: link.name === link.field ? 'relation' : '@property',
          ...(link.name === link.field ? {} : { option: 'name' }),
          message: `the relation's property "${link.name}" is already the name of ${owner}; give the relation another name (@property(name: "...")) or hide one of them (@hidden)`,
        })
        return false
      }
      taken.set(link.name, `relation "${link.field}"`)
      const target = byName.get(link.target)
      if (!target) return false
      link.targetResource = {
        collectionPath: target.collectionPath,
        idField: target.idField,
        key: target.key,
        ...(target.iri ? { iri: target.iri } : {}),
      }
      return true
    })
  }
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
