/**
 * Filters and order fields one relation away (`@filter(search: { "author.name": "partial" })`,
 * `@order(fields: ["author.name"])`; API Platform's nested properties, docs/filters.md#relations).
 * The relation is checked when the model's annotations are read; the related field once every
 * model is resolved, against what its resource serves.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { FilterSpec, OrderFieldSpec, RelatedField } from '@prisma-hydra/runtime/defaults'
import type { AnnotationValue } from '../annotations/parse.js'
import { didYouMean, type Problem } from '../problems.js'
import {
  type FilterContext,
  type FilterKind,
  fieldFilter,
  orderField,
  orderProblem,
} from './filter-fields.js'
import type { ResourceModel } from './model.js'

/** A filter (its kind) or an order field (`order`) named through a relation. */
interface RelatedEntry<K extends FilterKind | 'order'> {
  kind: K
  /** As written: `author.name`. */
  name: string
  /** The filter's setting (a search strategy, a date's null handling). */
  setting?: AnnotationValue | undefined
  source: string
}

/** A related field waiting for its target resource; `spec` is filled in place once resolved. */
export interface PendingRelated {
  entry: RelatedEntry<FilterKind | 'order'>
  through: RelatedField
  /** The related model. */
  target: string
  location: string
  provider: string
  spec: FilterSpec | OrderFieldSpec
}

/** Checks the relation of `author.name` and returns the spec to be completed by the resolution. */
export function readRelatedField(
  entry: RelatedEntry<'order'>,
  context: FilterContext,
  pending: PendingRelated[]
): OrderFieldSpec | undefined
export function readRelatedField(
  entry: RelatedEntry<FilterKind>,
  context: FilterContext,
  pending: PendingRelated[]
): FilterSpec | undefined
export function readRelatedField(
  entry: RelatedEntry<FilterKind | 'order'>,
  context: FilterContext,
  pending: PendingRelated[]
): FilterSpec | OrderFieldSpec | undefined {
  const option = entry.kind === 'order' ? 'fields' : entry.kind
  const problem = (message: string) => {
    context.report({ source: entry.source, option, message: `field "${entry.name}" ${message}` })
    return undefined
  }
  const parts = entry.name.split('.')
  if (parts.some((part) => part === ''))
    return problem('is not a field, nor a relation and a field of it (author.name)')
  if (parts.length > 2)
    return problem(
      'goes through more than one relation: only one level (author.name) is filterable or orderable'
    )
  const [relationName, fieldName] = parts as [string, string]
  const relation = context.model.fields.find((field) => field.name === relationName)
  const relations = context.model.fields
    .filter((field) => field.kind === 'object')
    .map((field) => field.name)
  if (relation?.kind !== 'object')
    return problem(
      relation
        ? `does not go through a relation: "${relationName}" is a scalar field`
        : `names no relation "${relationName}".${didYouMean(relationName, relations)} Relations: ${relations.join(', ') || 'none'}`
    )
  if (entry.kind === 'order' && relation.isList)
    return problem(
      `goes through the to-many relation "${relationName}": an item has many ${fieldName} values to order by, so only to-one relations order`
    )
  const through: RelatedField = {
    relation: relationName,
    field: fieldName,
    ...(relation.isList ? { many: true } : {}),
    model: relation.type,
  }
  const spec: FilterSpec | OrderFieldSpec =
    entry.kind === 'order'
      ? { field: entry.name, type: 'String', through }
      : ({ kind: entry.kind, field: entry.name, through } as FilterSpec)
  pending.push({
    entry,
    through,
    target: relation.type,
    location: `Model "${context.model.name}"`,
    provider: context.provider,
    spec,
  })
  return spec
}

/**
 * Completes every related filter and order field with its target field's type, reporting a target
 * that is not served, a field it does not serve (unknown, hidden, a relation: one level only) and
 * a kind or strategy that does not fit the field.
 */
export function resolveRelatedFields(
  pending: readonly PendingRelated[],
  resources: readonly ResourceModel[],
  datamodel: DMMF.Datamodel,
  problems: Problem[]
): void {
  for (const { entry, through, target, location, provider, spec } of pending) {
    const option = entry.kind === 'order' ? 'fields' : entry.kind
    const problem = (message: string) =>
      problems.push({
        severity: 'error',
        location,
        source: entry.source,
        option,
        message: `field "${entry.name}" ${message}`,
      })
    const resource = resources.find((candidate) => candidate.name === target)
    if (!resource) {
      problem(
        `goes through "${through.relation}" to ${target}, which is not served: add /// @pagination to ${target}`
      )
      continue
    }
    const field = resource.fields.find((candidate) => candidate.name === through.field)
    if (!field) {
      const model = datamodel.models.find((candidate) => candidate.name === target)
      const known = model?.fields.find((candidate) => candidate.name === through.field)
      const names = resource.fields.map((candidate) => candidate.name)
      const link = resource.links.find((candidate) => candidate.from === through.field)
      problem(
        known?.kind === 'object'
          ? `names the relation "${through.field}" of ${target}: only one level (a field of ${target}) is filterable or orderable`
          : link
            ? `names the foreign key of ${target}'s link "${link.name}", which ${target} serves as the link, not as a field: only one level (a field of ${target}) is filterable or orderable`
            : known
              ? `names a field ${target} does not serve (@hidden): it is never filterable or orderable`
              : `names no field "${through.field}" of ${target}.${didYouMean(through.field, names)} Fields: ${names.join(', ')}`
      )
      continue
    }
    if (entry.kind === 'order') {
      const wrong = orderProblem(field)
      if (wrong) problem(wrong)
      else Object.assign(spec, orderField(field), { field: entry.name, through })
      continue
    }
    const filter = fieldFilter(entry.kind, entry.name, field, entry.setting, provider)
    if (typeof filter === 'string') problem(filter)
    else Object.assign(spec, filter, { through })
  }
}
