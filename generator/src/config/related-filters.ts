/**
 * Filters and order fields one relation away (`@filter(search: { "author.name": "partial" })`,
 * `@order(fields: ["author.name"])`; API Platform's nested properties, docs/filters.md#relations).
 * The relation is checked against the model, the related field against what its target serves.
 */
import type { FilterSpec, OrderFieldSpec, RelatedField } from '@prisma-hydra/runtime/defaults'
import type { AnnotationValue } from '../annotations/parse.js'
import { didYouMean } from '../problems.js'
import {
  type FilterContext,
  type FilterKind,
  fieldFilter,
  orderField,
  orderProblem,
} from './filter-fields.js'
import type { FieldModel } from './model.js'

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
  const { kind, field: _, ...rest } = filter
  return { kind, field: entry.name, through, ...rest } as FilterSpec
}

/** The relation `author` of `author.name`, or what is wrong with it. */
function relationOf(
  entry: RelatedEntry<FilterKind | 'order'>,
  context: FilterContext
): { through: RelatedField; target: string } | string {
  const parts = entry.name.split('.')
  if (parts.some((part) => part === ''))
    return 'is not a field, nor a relation and a field of it (author.name)'
  if (parts.length > 2)
    return 'goes through more than one relation: only one level (author.name) is filterable or orderable'
  const [relationName, fieldName] = parts as [string, string]
  const relation = context.model.fields.find((field) => field.name === relationName)
  const relations = context.model.fields
    .filter((field) => field.kind === 'object')
    .map((field) => field.name)
  if (relation?.kind !== 'object')
    return relation
      ? `does not go through a relation: "${relationName}" is a scalar field`
      : `names no relation "${relationName}".${didYouMean(relationName, relations)} Relations: ${relations.join(', ') || 'none'}`
  if (entry.kind === 'order' && relation.isList)
    return `goes through the to-many relation "${relationName}": an item has many ${fieldName} values to order by, so only to-one relations order`
  const through = {
    relation: relationName,
    field: fieldName,
    ...(relation.isList ? { many: true } : {}),
    model: relation.type,
  }
  return { through, target: relation.type }
}

/**
 * The field `name` of `author.name` as its target serves it, or what is wrong: a target that is
 * not served, a field it does not serve (unknown, hidden, a relation: one level only).
 */
function targetField(
  through: RelatedField,
  target: string,
  context: FilterContext
): FieldModel | string {
  const served = context.served.get(target)
  if (!served)
    return `goes through "${through.relation}" to ${target}, which is not served: add /// @pagination to ${target}`
  const field = served.shown.find((candidate) => candidate.name === through.field)
  if (field) return field
  const model = context.datamodel.models.find((candidate) => candidate.name === target)
  const known = model?.fields.find((candidate) => candidate.name === through.field)
  const names = served.shown.map((candidate) => candidate.name)
  const link = served.links.find((candidate) => candidate.from === through.field)
  return known?.kind === 'object'
    ? `names the relation "${through.field}" of ${target}: only one level (a field of ${target}) is filterable or orderable`
    : link
      ? `names the foreign key of ${target}'s link "${link.name}", which ${target} serves as the link, not as a field: only one level (a field of ${target}) is filterable or orderable`
      : known
        ? `names a field ${target} does not serve (@hidden): it is never filterable or orderable`
        : `names no field "${through.field}" of ${target}.${didYouMean(through.field, names)} Fields: ${names.join(', ')}`
}
