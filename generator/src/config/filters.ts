/**
 * `@filter(...)` and `@order(...)` (docs/filters.md): what clients may filter and order a model's
 * collections by, checked against the model and each operation's paging at generation time.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { FilterSpec, OrderFieldSpec, QuerySpec } from '@prisma-hydra/runtime/defaults'
import { dialectOf, KEYSET_TYPES } from '@prisma-hydra/runtime/defaults'
import type { Annotation, AnnotationValue } from '../annotations/parse.js'
import { didYouMean, type Report, show } from '../problems.js'
import {
  FILTER_KINDS,
  type FilterContext,
  type FilterKind,
  fieldFilter,
  orderField,
  orderProblem,
} from './filter-fields.js'
import { type PendingRelated, readRelatedField } from './related-filters.js'
import { relationExists } from './relation-exists.js'
import { foreignKeyProblem } from './relations.js'

export type { FilterContext } from './filter-fields.js'

export const QUERY_ANNOTATIONS = ['filter', 'order'] as const

/** A relation search waiting for its target resource (known once every model is resolved). */
export interface PendingRelation {
  spec: Extract<FilterSpec, { kind: 'search' }>
  target: string
  source: string
  field: string
  /** The target's fields the foreign key references (its id, or another unique key). */
  references: readonly string[]
  /** This model's foreign-key fields, one for each of `references`. */
  foreignKeys: readonly string[]
}

/** One declaration: the model's (no operation) or one operation's. */
interface Declaration {
  source: string
  filters?: FilterSpec[]
  order?: OrderFieldSpec[]
  relations: PendingRelation[]
  /** Filters and order fields through a relation (`author.name`), checked once targets resolve. */
  related: PendingRelated[]
}

export interface QueryDeclarations {
  model: Declaration
  operations: Map<string, Declaration>
}

/** Reads every `@filter` and `@order` of a model, reporting what does not fit the model. */
export function readQueryDeclarations(
  annotations: readonly Annotation[],
  context: FilterContext
): QueryDeclarations {
  const declarations: QueryDeclarations = {
    model: { source: '@filter', relations: [], related: [] },
    operations: new Map(),
  }
  for (const annotation of annotations) {
    if (!(QUERY_ANNOTATIONS as readonly string[]).includes(annotation.name)) continue
    const args = new Map(annotation.args.map(({ key, value }) => [key, value]))
    const operation = args.get('operation')
    let source = `@${annotation.name}`
    if (operation !== undefined && typeof operation !== 'string') {
      context.report({
        source,
        option: 'operation',
        message: `must be the name of an @operation, got ${show(operation)}`,
      })
      continue
    }
    if (operation) source = `@${annotation.name}(operation: "${operation}")`
    const declaration: Declaration = operation
      ? (declarations.operations.get(operation) ?? { source, relations: [], related: [] })
      : declarations.model
    if (operation) declarations.operations.set(operation, declaration)
    if (annotation.name === 'filter') {
      if (declaration.filters) {
        context.report({ source, message: 'is given more than once; merge them into one' })
        continue
      }
      declaration.filters = readFilters(args, source, context, declaration)
      if (!operation) declaration.source = source
    } else {
      if (declaration.order) {
        context.report({ source, message: 'is given more than once; merge them into one' })
        continue
      }
      declaration.order = readOrderFields(args, source, context, declaration.related)
    }
  }
  return declarations
}

function readFilters(
  args: Map<string, AnnotationValue>,
  source: string,
  context: FilterContext,
  pending: Pick<Declaration, 'relations' | 'related'>
): FilterSpec[] {
  const filters: FilterSpec[] = []
  const allowed = ['operation', ...FILTER_KINDS]
  for (const [key, value] of args) {
    if (key === 'operation') continue
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
        ? readRelatedField({ kind, name: field, setting, source }, context, pending.related)
        : readFilter(kind, field, setting, source, context, pending.relations)
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
  context: FilterContext,
  relations: PendingRelation[]
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
  if (!field) {
    const relation = context.model.fields.find(
      (candidate) => candidate.name === name && candidate.kind === 'object'
    )
    if (relation && kind === 'search')
      return readRelation(relation, setting, source, context, relations)
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
  return typeof spec === 'string' ? problem(spec) : spec
}

function readRelation(
  relation: DMMF.Field,
  setting: AnnotationValue | undefined,
  source: string,
  context: FilterContext,
  relations: PendingRelation[]
): FilterSpec | undefined {
  const problem = (message: string) => {
    context.report({ source, option: 'search', message: `relation "${relation.name}" ${message}` })
    return undefined
  }
  if (setting !== 'exact')
    return problem(`takes only the "exact" strategy (an IRI or an id), got ${show(setting)}`)
  const keys = relation.relationFromFields ?? []
  if (relation.isList || keys.length === 0)
    return problem(
      relation.isList
        ? 'is to-many: only to-one relations with their foreign key on this model are filterable'
        : 'has no foreign key on this model: only to-one relations holding the key are filterable'
    )
  const foreignKey = keys[0] as string
  const key = context.fields.get(foreignKey)
  const spec: Extract<FilterSpec, { kind: 'search' }> = {
    kind: 'search',
    field: relation.name,
    strategy: 'exact',
    type: key?.type ?? 'String',
    relation: {
      foreignKey,
      collectionPath: '',
      id: { type: key?.type ?? 'String' },
      model: relation.type,
    },
  }
  relations.push({
    spec,
    target: relation.type,
    source,
    field: relation.name,
    references: relation.relationToFields ?? [],
    foreignKeys: keys,
  })
  return spec
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
  context: FilterContext,
  related: PendingRelated[]
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
      const entry = readRelatedField({ kind: 'order', name, source }, context, related)
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

/** Operations named by `operation:` that the model does not have. */
export function checkDeclaredOperations(
  declarations: QueryDeclarations,
  operations: readonly string[],
  report: Report
): void {
  for (const [name, declaration] of declarations.operations) {
    if (!operations.includes(name)) {
      report({
        source: declaration.source,
        option: 'operation',
        message: `the model has no operation "${name}".${didYouMean(name, operations)} Operations: ${operations.join(', ')}`,
      })
    }
  }
}

/**
 * What one operation accepts: its own declarations, else the model's. On a cursor-paged operation
 * (`cursor`: its key's fields) the orderable fields must be keyset-capable and the fields that can
 * be part of a key take only date and exists filters, whose parameters cannot be cursor positions.
 */
export function operationQuery(
  declarations: QueryDeclarations,
  operation: { name: string; cursor: readonly { field: string }[] | null },
  parameters: { order: string; exists: string; paging: readonly string[] },
  context: FilterContext
): { query: Omit<QuerySpec, 'parameters'>; relations: PendingRelation[] } | null {
  const own = declarations.operations.get(operation.name)
  const filters = own?.filters ?? declarations.model.filters ?? []
  const order = own?.order ?? declarations.model.order ?? []
  const relations = own?.filters ? own.relations : declarations.model.relations
  if (filters.length === 0 && order.length === 0) return null
  const source =
    operation.name === 'collection' ? '@filter' : `@filter (operation "${operation.name}")`
  const reserved = [parameters.order, parameters.exists, ...parameters.paging]
  for (const filter of filters) {
    if (reserved.includes(filter.field) && filter.kind !== 'exists') {
      context.report({
        source,
        option: filter.kind,
        message: `field "${filter.field}" has the name of the "${filter.field}" query parameter; rename the parameter in platform.collection, or do not filter this field`,
      })
    }
  }
  if (operation.cursor) {
    const orderSource =
      operation.name === 'collection' ? '@order' : `@order (operation "${operation.name}")`
    for (const entry of order) {
      if (entry.field.includes('.')) {
        context.report({
          source: orderSource,
          option: 'fields',
          message: `field "${entry.field}" cannot order the cursor-paged operation "${operation.name}": a client order becomes its keyset order, and Prisma's cursor cannot start past a related item's field; order it by its own fields (docs/filters.md, relations)`,
        })
        continue
      }
      const field = context.fields.get(entry.field)
      if (!field?.isRequired || !KEYSET_TYPES.has(field.type)) {
        context.report({
          source: orderSource,
          option: 'fields',
          message: `field "${entry.field}" cannot order the cursor-paged operation "${operation.name}": a client order becomes its keyset order, whose fields must be required String, Int, BigInt, Float, Decimal or DateTime fields`,
        })
      }
    }
    const keyFields = new Set([
      ...operation.cursor.map((key) => key.field),
      ...order.map((entry) => entry.field),
      ...(context.keyFields ?? [context.idField]).map((field) => field.name),
    ])
    for (const filter of filters) {
      if (filter.kind === 'date' || filter.kind === 'exists') continue
      const field =
        filter.kind === 'search' && filter.relation ? filter.relation.foreignKey : filter.field
      if (keyFields.has(filter.field) || keyFields.has(field)) {
        context.report({
          source,
          option: filter.kind,
          message: `field "${filter.field}" can be part of the cursor key of "${operation.name}", whose positions are "${filter.field}[lt]=…"/"${filter.field}[gt]=…": a ${filter.kind} filter there would make one parameter mean two things; use a date filter, or drop the field from @order`,
        })
      }
    }
  }
  const { likeEscape } = dialectOf(context.provider)
  const key = context.keyFields ?? [context.idField]
  return {
    query: {
      filters,
      order,
      id: orderField(context.idField),
      ...(key.length > 1 ? { key: key.map(orderField) } : {}),
      likeEscape,
    },
    relations,
  }
}

/** Warns for each orderable field no index, unique constraint or primary key starts with. */
export function checkOrderIndexes(
  order: readonly OrderFieldSpec[],
  context: FilterContext,
  source: string
): void {
  const indexes = (context.datamodel.indexes ?? []).filter(
    (index) => index.model === context.model.name
  )
  for (const { field } of order) {
    // A field through a relation is ordered through a join, by the related model's index.
    if (field.includes('.')) continue
    const model = context.model.fields.find((candidate) => candidate.name === field)
    const indexed =
      model?.isId ||
      model?.isUnique ||
      indexes.some((index) => index.fields[0]?.name === field) ||
      context.model.uniqueFields.some((set) => set[0] === field) ||
      context.model.primaryKey?.fields[0] === field
    if (!indexed) {
      context.report({
        severity: 'warning',
        source,
        option: 'fields',
        message: `no index starts with "${field}": ordering by it sorts every filtered row; add @@index([${field}]) (docs/filters.md, indexes)`,
      })
    }
  }
}
