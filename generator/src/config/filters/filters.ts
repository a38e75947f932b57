/**
 * `@filter(...)` and `@order(...)` (docs/filters.md): what clients may filter and order a model's
 * collections by, as the model declares it, checked against the model's fields (each operation's
 * paging is checked in config/filters/operation-query.ts).
 */
import type { FilterSpec, OrderFieldSpec, PropertySpec } from '@prisma-hydra/runtime/defaults'
import type { Annotation, AnnotationValue } from '../../annotations/parse.js'
import { didYouMean, show } from '../../problems.js'
import { foreignKeyProblem } from '../models/relations.js'
import { compositeItemsSearch } from './composite-items.js'
import {
  FILTER_KINDS,
  type FilterContext,
  type FilterKind,
  fieldFilter,
  orderField,
  orderProblem,
} from './filter-fields.js'
import { readPropertyFilter } from './property-filter.js'
import { readRelatedField } from './related-filters.js'
import { relationExists } from './relation-exists.js'
import { relationSearch } from './relation-filters.js'

export type { FilterContext } from './filter-fields.js'

export const QUERY_ANNOTATIONS = ['filter', 'order'] as const

/** One declaration: the model's (no operation) or one operation's. */
export interface Declaration {
  readonly source: string
  readonly filters?: readonly FilterSpec[]
  readonly order?: readonly OrderFieldSpec[]
  /** `@filter(properties: ...)`: the property filter (property-filter.ts). */
  readonly properties?: PropertySpec
}

export interface QueryDeclarations {
  readonly model: Declaration
  readonly operations: ReadonlyMap<string, Declaration>
}

/** Reads every `@filter` and `@order` of a model, reporting what does not fit the model. */
export function readQueryDeclarations(
  annotations: readonly Annotation[],
  context: FilterContext
): QueryDeclarations {
  let model: Declaration = { source: '@filter' }
  const operations = new Map<string, Declaration>()
  for (const annotation of annotations) {
    if (!(QUERY_ANNOTATIONS as readonly string[]).includes(annotation.name)) continue
    const args = new Map(annotation.args.map(({ key, value }) => [key, value]))
    const operation = args.get('operation')
    if (operation !== undefined && typeof operation !== 'string') {
      context.report({
        source: `@${annotation.name}`,
        option: 'operation',
        message: `must be the name of an @operation, got ${show(operation)}`,
      })
      continue
    }
    const source = operation
      ? `@${annotation.name}(operation: "${operation}")`
      : `@${annotation.name}`
    const declaration = operation ? (operations.get(operation) ?? { source }) : model
    const read = readDeclaration(annotation.name, args, source, declaration, context)
    if (!read) continue
    if (operation) operations.set(operation, read)
    else model = read
  }
  return { model, operations }
}

/** `declaration` with one more `@filter` or `@order`, or undefined when it has one already. */
function readDeclaration(
  name: string,
  args: Map<string, AnnotationValue>,
  source: string,
  declaration: Declaration,
  context: FilterContext
): Declaration | undefined {
  if (declaration[name === 'filter' ? 'filters' : 'order']) {
    context.report({ source, message: 'is given more than once; merge them into one' })
    return undefined
  }
  if (name === 'filter') {
    const properties = args.has('properties')
      ? readPropertyFilter(args.get('properties') ?? null, source, context)
      : undefined
    const filters = readFilters(args, source, context)
    return { ...declaration, filters, ...(properties ? { properties } : {}) }
  }
  return { ...declaration, order: readOrderFields(args, source, context) }
}

function readFilters(
  args: Map<string, AnnotationValue>,
  source: string,
  context: FilterContext
): FilterSpec[] {
  const filters: FilterSpec[] = []
  const allowed = ['operation', 'properties', ...FILTER_KINDS]
  for (const [key, value] of args) {
    if (key === 'operation' || key === 'properties') continue
    if (!(FILTER_KINDS as readonly string[]).includes(key)) {
      context.report({
        source,
        option: key,
        message: `unknown filter kind.${didYouMean(key, allowed)} Allowed: ${allowed.join(', ')}`,
      })
      continue
    }
    const kind = key as FilterKind
    for (const [field, setting] of entries(kind, value, source, context)) {
      const spec = field.includes('.')
        ? readRelatedField({ kind, name: field, setting, source }, context)
        : readFilter(kind, field, setting, source, context)
      if (spec) filters.push(spec)
    }
  }
  checkSharedParameters(filters, source, context)
  return filters
}

/** `[a, b]` or `{ a: setting, b: setting }` as field/setting pairs. */
function entries(
  kind: FilterKind,
  value: AnnotationValue,
  source: string,
  context: FilterContext
): Array<[string, AnnotationValue | undefined]> {
  const example =
    kind === 'search'
      ? '{ title: "partial", genre: "exact" }'
      : kind === 'date'
        ? '[publishedAt] or { publishedAt: "exclude_null" }'
        : '[field, ...]'
  if (Array.isArray(value) && kind !== 'search') {
    if (value.every((item) => typeof item === 'string')) {
      return value.map((field) => [field as string, undefined])
    }
  } else if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (kind === 'search' || kind === 'date')
  ) {
    return Object.entries(value)
  }
  context.report({ source, option: kind, message: `must be ${example}, got ${show(value)}` })
  return []
}

function readFilter(
  kind: FilterKind,
  name: string,
  setting: AnnotationValue | undefined,
  source: string,
  context: FilterContext
): FilterSpec | undefined {
  const problem = (message: string) => {
    context.report({ source, option: kind, message: `field "${name}" ${message}` })
    return undefined
  }
  if (context.hidden.has(name)) return problem('is hidden (@hidden): it is never filterable')
  const linked = context.foreignKeys?.get(name)
  if (kind === 'exists' && linked !== undefined)
    return problem(
      `is the foreign key of relation "${linked}", which is served as a link: test the relation instead: exists: [${linked}]`
    )
  const foreignKey = foreignKeyProblem(name, context.foreignKeys)
  if (foreignKey) return problem(foreignKey)
  const field = context.fields.get(name)
  const items = kind === 'search' ? compositeItemsSearch(name, setting, context) : undefined
  if (typeof items === 'string') return problem(items)
  if (items) return items
  if (!field) {
    const relation = context.model.fields.find(
      (candidate) => candidate.name === name && candidate.kind === 'object'
    )
    if (relation && kind === 'search') {
      const spec = relationSearch(relation, setting, context.served)
      if (typeof spec !== 'string') return spec
      context.report({ source, option: kind, message: `relation "${name}" ${spec}` })
      return undefined
    }
    if (relation && kind === 'exists') {
      const spec = relationExists(relation, context.foreignKeys)
      return typeof spec === 'string' ? problem(spec) : spec
    }
    const names = [...context.fields.keys()].filter((candidate) => !context.hidden.has(candidate))
    return problem(
      relation
        ? `is a relation: only search (exact, by IRI or id) and exists filters take relations`
        : `does not exist or is not a scalar field.${didYouMean(name, names)} Fields: ${names.join(', ')}`
    )
  }
  const spec = fieldFilter(kind, name, field, setting, context.provider)
  if (typeof spec === 'string') return problem(spec)
  return itemsByKey(spec, context)
}

/**
 * An exact search on the item key (`id`, a key of one field) takes the items' IRIs as well as
 * their ids (`id[]=/authors/1&id[]=3`), as API Platform's SearchFilter reads an identifier: the
 * filter API Platform's admin looks for to read several items in one request (its `getMany`).
 */
function itemsByKey(spec: FilterSpec, context: FilterContext): FilterSpec {
  const keyed = (context.keyFields?.length ?? 1) === 1 && spec.field === context.idField.name
  if (spec.kind !== 'search' || spec.strategy !== 'exact' || !keyed) return spec
  const path = context.served.get(context.model.name)?.collectionPath
  return path === undefined ? spec : { ...spec, items: path }
}

/** Two kinds answering the same `field=` parameter, or a field named like a parameter. */
function checkSharedParameters(
  filters: FilterSpec[],
  source: string,
  context: FilterContext
): void {
  const bare = new Map<string, string>()
  for (const filter of filters) {
    if (filter.kind !== 'search' && filter.kind !== 'numeric' && filter.kind !== 'boolean') continue
    const other = bare.get(filter.field)
    if (other) {
      context.report({
        source,
        option: filter.kind,
        message: `field "${filter.field}" is already a ${other} filter: both would read "${filter.field}=…"; keep one`,
      })
    }
    bare.set(filter.field, filter.kind)
  }
}

function readOrderFields(
  args: Map<string, AnnotationValue>,
  source: string,
  context: FilterContext
): OrderFieldSpec[] {
  for (const key of args.keys()) {
    if (key !== 'operation' && key !== 'fields')
      context.report({
        source,
        option: key,
        message: `unknown option.${didYouMean(key, ['fields', 'operation'])} Allowed: fields, operation`,
      })
  }
  const value = args.get('fields')
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    context.report({
      source,
      option: 'fields',
      message: `must be a list of fields, e.g. fields: [title, publishedAt], got ${show(value)}`,
    })
    return []
  }
  const order: OrderFieldSpec[] = []
  for (const name of value as string[]) {
    const problem = (message: string) =>
      context.report({ source, option: 'fields', message: `field "${name}" ${message}` })
    if (order.some((entry) => entry.field === name)) {
      problem('is listed more than once')
      continue
    }
    if (name.includes('.')) {
      const entry = readRelatedField({ kind: 'order', name, source }, context)
      if (entry) order.push(entry)
      continue
    }
    const field = context.fields.get(name)
    if (context.hidden.has(name)) {
      problem('is hidden (@hidden): it is never orderable')
      continue
    }
    const foreignKey = foreignKeyProblem(name, context.foreignKeys, 'order')
    if (foreignKey) {
      problem(foreignKey)
      continue
    }
    if (!field) {
      const names = [...context.fields.keys()].filter((candidate) => !context.hidden.has(candidate))
      problem(
        `does not exist or is not a scalar field.${didYouMean(name, names)} Fields: ${names.join(', ')}`
      )
      continue
    }
    const wrong = orderProblem(field)
    if (wrong) {
      problem(wrong)
      continue
    }
    order.push(orderField(field))
  }
  return order
}
