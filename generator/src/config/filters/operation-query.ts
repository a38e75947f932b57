/**
 * What each operation of a model accepts (docs/filters.md): its own `@filter` and `@order`, else
 * the model's, checked against its paging (a cursor's keyset, the paging parameters' names) and
 * the model's indexes.
 */
import type { OrderFieldSpec, PropertySpec, QuerySpec } from '@prisma-hydra/runtime/defaults'
import { dialectOf } from '@prisma-hydra/runtime/defaults'
import type { Annotation } from '../../annotations/parse.js'
import { didYouMean, type Report } from '../../problems.js'
import type { GlobalConfig } from '../paging/global.js'
import type { OperationModel } from '../schema/model.js'
import { checkCursorQuery } from './cursor-query.js'
import { type FilterContext, orderField } from './filter-fields.js'
import { type QueryDeclarations, readQueryDeclarations } from './filters.js'
import { checkParameterClashes, type TakenParameters } from './parameter-clashes.js'

/**
 * The operations, each with what its clients may filter and order by (`query`) when anything, and
 * the property filter of the model's items: the model's own (`@filter` without `operation:`).
 */
export function withQueries(
  annotations: readonly Annotation[],
  operations: readonly OperationModel[],
  context: FilterContext & { global: GlobalConfig }
): { operations: OperationModel[]; properties: PropertySpec | undefined } {
  const declarations = readQueryDeclarations(annotations, context)
  checkDeclaredOperations(
    declarations,
    operations.map((operation) => operation.name),
    context.report
  )
  for (const declaration of [declarations.model, ...declarations.operations.values()]) {
    const source = declaration.source.replace('@filter', '@order')
    checkOrderIndexes(declaration.order ?? [], context, source)
  }
  const parameters = { ...context.global.filterParameters, paging: context.global.parameters }
  // Operations that take the model's declarations would each report its problems again.
  const reported = new Set<string>()
  const report: Report = (problem) => {
    const key = JSON.stringify(problem)
    if (reported.has(key)) return
    reported.add(key)
    context.report(problem)
  }
  const queried = operations.map((operation) => {
    const query = operationQuery(declarations, operation, parameters, { ...context, report })
    return query ? { ...operation, query } : operation
  })
  return { operations: queried, properties: declarations.model.properties }
}

/** Operations named by `operation:` that the model does not have. */
function checkDeclaredOperations(
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
function operationQuery(
  declarations: QueryDeclarations,
  operation: { name: string; cursor: readonly { field: string }[] | null },
  parameters: TakenParameters,
  context: FilterContext
): Omit<QuerySpec, 'parameters'> | null {
  const own = declarations.operations.get(operation.name)
  const filters = own?.filters ?? declarations.model.filters ?? []
  const order = own?.order ?? declarations.model.order ?? []
  // An operation's own @filter replaces the model's, its property filter with it.
  const properties = own?.filters ? own.properties : declarations.model.properties
  if (filters.length === 0 && order.length === 0 && !properties) return null
  const source =
    operation.name === 'collection' ? '@filter' : `@filter (operation "${operation.name}")`
  const keyset = operation.cursor ? keysetFields(operation.cursor, order, context) : undefined
  checkParameterClashes(
    { filters, properties, cursor: keyset ? [...keyset] : [] },
    parameters,
    operation.name,
    { filters: source, properties: own?.filters ? source : '@filter' },
    context.report
  )
  if (operation.cursor && keyset) {
    const cursor = operation.cursor.map((key) => key.field)
    const mine = { filters: own?.filters !== undefined, order: own?.order !== undefined }
    const query = { operation: operation.name, cursor, filters, order, own: mine }
    checkCursorQuery(query, keyset, context)
  }
  const { likeEscape } = dialectOf(context.provider)
  const key = context.keyFields ?? [context.idField]
  return {
    filters: [...filters],
    order: [...order],
    id: orderField(context.idField),
    ...(key.length > 1 ? { key: key.map(orderField) } : {}),
    likeEscape,
    ...(properties ? { properties } : {}),
  }
}

/** The fields a cursor-paged operation's positions can name: its cursor's, its order's, the key's. */
function keysetFields(
  cursor: readonly { field: string }[],
  order: readonly OrderFieldSpec[],
  context: FilterContext
): Set<string> {
  return new Set([
    ...cursor.map((key) => key.field),
    ...order.map((entry) => entry.field),
    ...(context.keyFields ?? [context.idField]).map((field) => field.name),
  ])
}

/** Warns for each orderable field no index, unique constraint or primary key starts with. */
function checkOrderIndexes(
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
