/**
 * Filters and order fields through relations (`@filter(search: { "author.name": "partial" })`,
 * `@order(fields: ["book.author.name"])`; API Platform's nested properties, docs/filters.md).
 * Each relation is checked against the model the one before reaches, the last field against what
 * the last target serves.
 */
import type { DMMF } from '@prisma/generator-helper'
import type {
  FilterSpec,
  OrderFieldSpec,
  RelatedField,
  RelationHop,
} from '@prisma-hydra/runtime/defaults'
import type { AnnotationValue } from '../../annotations/parse.js'
import { didYouMean, show } from '../../problems.js'
import type { ServedModel } from '../models/served-model.js'
import type { FieldModel } from '../schema/model.js'
import {
  type FilterContext,
  type FilterKind,
  fieldFilter,
  orderField,
  orderProblem,
} from './filter-fields.js'
import { checkSubstringIndex } from './substring-index.js'

/** A filter (its kind) or an order field (`order`) named through a relation. */
interface RelatedEntry<K extends FilterKind | 'order'> {
  kind: K
  /** As written: `author.name`. */
  name: string
  /** The filter's setting (a search strategy, a date's null handling). */
  setting?: AnnotationValue | undefined
  source: string
}

/** The filter or order field of `author.name`, or undefined when it does not fit (reported). */
export function readRelatedField(
  entry: RelatedEntry<'order'>,
  context: FilterContext
): OrderFieldSpec | undefined
export function readRelatedField(
  entry: RelatedEntry<FilterKind>,
  context: FilterContext
): FilterSpec | undefined
export function readRelatedField(
  entry: RelatedEntry<FilterKind | 'order'>,
  context: FilterContext
): FilterSpec | OrderFieldSpec | undefined {
  const option = entry.kind === 'order' ? 'fields' : entry.kind
  const problem = (message: string) => {
    context.report({ source: entry.source, option, message: `field "${entry.name}" ${message}` })
    return undefined
  }
  const relation = relationOf(entry, context)
  if (typeof relation === 'string') return problem(relation)
  const { through, target } = relation
  if (entry.kind === 'search' && isRelation(target, through.field, context))
    return relatedItems(entry, through, target, context)
  const field = targetField(through, target, context)
  if (typeof field === 'string') return problem(field)
  // The related field's spec under the name as written, its relation after the name (the key
  // order of the emitted query).
  if (entry.kind === 'order') {
    const wrong = orderProblem(field)
    if (wrong) return problem(wrong)
    const { field: _, type, ...rest } = orderField(field)
    return { field: entry.name, type, through, ...rest }
  }
  const filter = fieldFilter(entry.kind, entry.name, field, entry.setting, context.provider)
  if (typeof filter === 'string') return problem(filter)
  if (filter.kind === 'search') {
    const { name, source } = entry
    const search = { name, source, strategy: filter.strategy, target, field: field.name }
    checkSubstringIndex(search, context.datamodel, context.provider, context.report)
  }
  const { kind, field: _, ...rest } = filter
  return { kind, field: entry.name, through, ...rest } as FilterSpec
}

/**
 * The relations of `author.name` (`author`) or `book.author.name` (`book`, then `author`), each
 * checked on the model the one before reaches, or what is wrong with the path.
 */
function relationOf(
  entry: RelatedEntry<FilterKind | 'order'>,
  context: FilterContext
): { through: RelatedField; target: string } | string {
  const parts = entry.name.split('.')
  if (parts.some((part) => part === ''))
    return 'is not a field, nor relations and a field of the last (author.name, book.author.name)'
  const fieldName = parts.pop() as string
  const hops: RelationHop[] = []
  let model = context.model
  for (const relationName of parts) {
    const hop = hopOf(entry, relationName, model, hops.length === 0, context)
    if (typeof hop === 'string') return hop
    hops.push(hop)
    model = context.datamodel.models.find((candidate) => candidate.name === hop.model) as DMMF.Model
  }
  const [first, ...next] = hops as [RelationHop, ...RelationHop[]]
  const through = {
    relation: first.relation,
    field: fieldName,
    ...(first.many ? { many: true } : {}),
    model: first.model,
    ...(next.length > 0 ? { next } : {}),
  }
  return { through, target: model.name }
}

/**
 * The relation `relationName` of `model`, or what is wrong: not a relation (with a suggestion), a
 * to-many relation ordered by, a relation leading to a model that is not served, and past the
 * first relation, one its model does not serve as a link.
 */
function hopOf(
  entry: RelatedEntry<FilterKind | 'order'>,
  relationName: string,
  model: DMMF.Model,
  first: boolean,
  context: FilterContext
): RelationHop | string {
  const of = first ? '' : ` of ${model.name}`
  const relation = model.fields.find((field) => field.name === relationName)
  const relations = model.fields.filter((field) => field.kind === 'object').map(({ name }) => name)
  if (relation?.kind !== 'object')
    return relation
      ? `does not go through a relation: "${relationName}"${of} is a scalar field`
      : `names no relation "${relationName}"${of}.${didYouMean(relationName, relations)} Relations${of}: ${relations.join(', ') || 'none'}`
  if (entry.kind === 'order' && relation.isList)
    return `goes through the to-many relation "${relationName}"${of}: an item has many ${entry.name.slice(entry.name.lastIndexOf('.') + 1)} values to order by, so only to-one relations order`
  const target = relation.type
  if (!context.served.has(target))
    return `goes through "${relationName}"${of} to ${target}, which is not served: add /// @pagination to ${target}`
  const link = context.served
    .get(model.name)
    ?.links.find((candidate) => candidate.field === relationName)
  if (!first && !link)
    return `goes through "${relationName}" of ${model.name}, which ${model.name} does not serve (@hidden): it is never filterable or orderable`
  return {
    relation: relationName,
    ...(relation.isList ? { many: true } : {}),
    model: target,
    // Rules hide a renamed link by its property name.
    ...(!first && link && link.name !== relationName ? { name: link.name } : {}),
  }
}

/** Whether `field` of `model` is a relation. */
function isRelation(model: string, field: string, context: FilterContext): boolean {
  const found = context.datamodel.models.find((candidate) => candidate.name === model)
  return (
    found?.fields.some((candidate) => candidate.name === field && candidate.kind === 'object') ===
    true
  )
}

/**
 * A path ending at a relation (`book.author=/authors/3` on reviews): the related item's key,
 * through every relation of the path and that one, by its IRI or id (as `id[]` reads its own
 * items), so that each relation's scope applies at its step, the last one's included. Reported
 * and undefined when it does not fit: not `exact`, a relation its model does not serve, a target
 * whose items are named by more than one field.
 */
function relatedItems(
  entry: RelatedEntry<FilterKind | 'order'>,
  through: RelatedField,
  model: string,
  context: FilterContext
): FilterSpec | undefined {
  const problem = (message: string) => {
    context.report({
      source: entry.source,
      option: 'search',
      message: `field "${entry.name}" ${message}`,
    })
    return undefined
  }
  if (entry.setting !== 'exact')
    return problem(
      `ends at the relation "${through.field}": it takes only the "exact" strategy (an IRI or an id), got ${show(entry.setting)}`
    )
  const relatedModel = context.datamodel.models.find((candidate) => candidate.name === model)
  const hop = hopOf(entry, through.field, relatedModel as DMMF.Model, false, context)
  if (typeof hop === 'string') return problem(hop)
  const target = context.served.get(hop.model as string) as ServedModel
  if (target.key.fields.length > 1)
    return problem(
      `ends at the relation "${through.field}" to ${hop.model}, whose items are named by ${target.key.fields.length} fields: only a path to items named by one field is filterable`
    )
  const id = target.idField
  return {
    kind: 'search',
    field: entry.name,
    strategy: 'exact',
    through: { ...through, field: id.name, next: [...(through.next ?? []), hop] },
    type: id.kind === 'enum' ? 'Enum' : id.type,
    ...(id.uuid ? { uuid: true } : {}),
    ...(id.enumValues ? { enumValues: id.enumValues } : {}),
    items: target.collectionPath,
  }
}

/**
 * The field `name` of `author.name` as its target serves it, or what is wrong: a field it does not
 * serve (unknown, hidden, a relation, a link's foreign key).
 */
function targetField(
  through: RelatedField,
  target: string,
  context: FilterContext
): FieldModel | string {
  const served = context.served.get(target) as ServedModel
  const field = served.shown.find((candidate) => candidate.name === through.field)
  if (field) return field
  const model = context.datamodel.models.find((candidate) => candidate.name === target)
  const known = model?.fields.find((candidate) => candidate.name === through.field)
  const names = served.shown.map((candidate) => candidate.name)
  const link = served.links.find((candidate) => candidate.from === through.field)
  return known?.kind === 'object'
    ? `names the relation "${through.field}" of ${target}, not a field: name one of its fields after it`
    : link
      ? `names the foreign key of ${target}'s link "${link.name}", which ${target} serves as the link, not as a field: name a field of the related model through "${link.field}"`
      : known
        ? `names a field ${target} does not serve (@hidden): it is never filterable or orderable`
        : `names no field "${through.field}" of ${target}.${didYouMean(through.field, names)} Fields: ${names.join(', ')}`
}
