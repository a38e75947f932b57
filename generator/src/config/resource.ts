import type { DMMF } from '@prisma/generator-helper'
import type { Annotation } from '../annotations/parse.js'
import type { Problem, Report } from '../problems.js'
import {
  MODEL_ANNOTATIONS,
  readAnnotations,
  readExtraArgs,
  readIri,
  readPagingOptions,
  readPath,
  readPrefix,
} from './annotation-args.js'
import { checkHydraNames } from './api-names.js'
import { cacheControlText, readCacheHeaders } from './cache-headers.js'
import { readFieldAnnotations, toFieldModel } from './fields.js'
import {
  checkDeclaredOperations,
  checkOrderIndexes,
  type FilterContext,
  operationQuery,
  type PendingRelation,
  readQueryDeclarations,
} from './filters.js'
import type { GlobalConfig } from './global.js'
import { resolveItemKey } from './item-key.js'
import type { FieldModel, OperationModel, ResourceModel } from './model.js'
import { collectionPathFor, delegateName, kebabCase } from './naming.js'
import { resolveOperations } from './operations.js'
import { readOrder } from './order.js'
import type { PendingRelated } from './related-filters.js'
import { readLinks } from './relations.js'

/**
 * One Prisma model as a resource, or undefined when it is not exposed (no `@pagination`) or
 * cannot be (no field names its items: config/item-key.ts). Problems of the model go to `report`, those of its
 * fields to `problems`.
 */
export function resolveResource(
  model: DMMF.Model,
  datamodel: DMMF.Datamodel,
  global: GlobalConfig,
  provider: string,
  report: Report,
  problems: Problem[],
  queries: {
    provider: string
    relations: Array<PendingRelation & { location: string }>
    related: PendingRelated[]
  },
  served: ReadonlySet<string>
): ResourceModel | undefined {
  const annotations = readAnnotations(model.documentation, MODEL_ANNOTATIONS, report)
  const fieldResults = readFieldAnnotations(model, problems)

  const pagination = annotations.filter((annotation) => annotation.name === 'pagination')
  const resourceAnnotations = annotations.filter((annotation) => annotation.name === 'resource')
  const operationAnnotations = annotations.filter((annotation) => annotation.name === 'operation')
  if (pagination.length === 0) {
    if (resourceAnnotations.length + operationAnnotations.length > 0) {
      report({
        source: (resourceAnnotations[0] ?? operationAnnotations[0])?.text ?? '@resource',
        message:
          'the model is not exposed: add /// @pagination(...) (or a bare /// @pagination) to serve it',
      })
    }
    return undefined
  }
  for (const extra of [...pagination.slice(1), ...resourceAnnotations.slice(1)]) {
    report({
      source: `@${extra.name}`,
      message: `is given more than once; merge the options into one @${extra.name}(...)`,
    })
  }

  const scalarFields = model.fields.filter(
    (field) => field.kind === 'scalar' || field.kind === 'enum'
  )
  const fieldModels = new Map<string, FieldModel>(
    scalarFields.map((field) => [field.name, toFieldModel(field, datamodel)])
  )

  const itemKey = resolveItemKey(model, report)
  if (!itemKey) return undefined
  const keyNames = itemKey.fields.map((field) => field.name)
  const key = {
    fields: keyNames.map((name) => fieldModels.get(name) as FieldModel),
    name: itemKey.name,
  }
  const idField = key.fields[0] as FieldModel

  const resourceOptions = readPagingOptions(pagination[0] as Annotation, report, [])
  const resourceArgs = readExtraArgs(
    resourceAnnotations[0],
    ['path', 'order', 'iri', 'hydraPrefix', 'cacheHeaders'],
    report
  )
  const resourceCache = readCacheHeaders(resourceArgs.get('cacheHeaders'), '@resource', report)
  const resourceIri = readIri(resourceArgs.get('iri'), '@resource', report)
  const resourcePrefix =
    readPrefix(resourceArgs.get('hydraPrefix'), '@resource', report) ?? global.hydraPrefix ?? true
  const collectionPath =
    readPath(resourceArgs.get('path'), resourceAnnotations[0], report) ??
    collectionPathFor(model.name)
  const resourceOrder = readOrder(
    resourceArgs.get('order'),
    resourceAnnotations[0]?.text ?? '@resource',
    fieldModels,
    report
  )

  const resourceEngine = resourceOptions.engine ?? global.defaults.engine
  const operations = resolveOperations(operationAnnotations, {
    global,
    options: resourceOptions,
    path: collectionPath,
    order: resourceOrder,
    hydraPrefix: resourcePrefix,
    cacheHeaders: resourceCache === undefined ? global.cacheHeaders : resourceCache,
    keys: { model, datamodel, fields: fieldModels, keyFields: keyNames, report },
    provider,
  })

  const hidden = new Set(
    fieldResults.filter((result) => result.hidden).map((result) => result.field.name)
  )
  for (const { field, iri } of fieldResults) {
    const fieldModel = fieldModels.get(field.name)
    if (iri && fieldModel) fieldModel.iri = iri
  }
  // A relation is shown one way: as its link, or (turned off) its foreign key as a plain field.
  const { links, foreignKeys } = readLinks(model, datamodel, served, fieldResults)
  // A foreign key that is also the item key (a one-to-one on the id, the parts of a composite
  // key) stays: items are named by it.
  for (const name of keyNames) foreignKeys.delete(name)
  const fields = [...fieldModels.values()].filter(
    (field) => !hidden.has(field.name) && !foreignKeys.has(field.name)
  )
  checkHydraNames(model.name, [...fields, ...links], operations, report)
  resolveQueries(annotations, operations, {
    model,
    datamodel,
    fields: fieldModels,
    hidden,
    foreignKeys,
    idField,
    keyFields: key.fields,
    global,
    report,
    ...queries,
  })
  // Cursor fields and the fields of each order (the operation's own and those clients may ask
  // for): unpaged batches and cursor links start past the last row's key.
  const cursorFields = operations
    .flatMap((operation) => [
      ...(operation.cursor ?? []),
      ...(operation.orderKey ?? []),
      ...(operation.query?.order ?? []),
    ])
    .map((key) => key.field)
    // A field through a relation (`author.name`) is the related item's, not selected on the row.
    .filter((field) => !field.includes('.'))
  return {
    name: model.name,
    ...(resourceIri ? { iri: resourceIri } : {}),
    hydraPrefix: resourcePrefix,
    cacheControl: cacheControlText(
      resourceCache === undefined ? global.cacheHeaders : resourceCache
    ),
    delegate: delegateName(model.name),
    table: { name: model.dbName ?? model.name, schema: model.schema ?? null },
    ...(resourceEngine ? { engine: resourceEngine } : {}),
    columns: scalarFields
      .filter((field) => !field.isList)
      .map((field) => ({ name: field.name, column: field.dbName ?? field.name, type: field.type })),
    fileName: kebabCase(model.name),
    collectionPath,
    idField,
    key,
    fields,
    links,
    selected: [
      ...new Set([
        ...keyNames,
        ...fields.map((field) => field.name),
        ...links.flatMap((link) => (typeof link.from === 'string' ? [link.from] : [])),
        ...cursorFields,
      ]),
    ],
    operations,
  }
}

/** `@filter` and `@order` of the model, checked and set on each operation (docs/filters.md). */
function resolveQueries(
  annotations: readonly Annotation[],
  operations: OperationModel[],
  context: FilterContext & {
    global: GlobalConfig
    relations: Array<PendingRelation & { location: string }>
    related: PendingRelated[]
  }
): void {
  const declarations = readQueryDeclarations(annotations, context)
  for (const declaration of [declarations.model, ...declarations.operations.values()])
    context.related.push(...declaration.related)
  checkDeclaredOperations(
    declarations,
    operations.map((operation) => operation.name),
    context.report
  )
  for (const declaration of [declarations.model, ...declarations.operations.values()]) {
    const source = declaration.source.replace('@filter', '@order')
    checkOrderIndexes(declaration.order ?? [], context, source)
  }
  const parameters = {
    ...context.global.filterParameters,
    paging: Object.values(context.global.parameters),
  }
  for (const operation of operations) {
    const result = operationQuery(declarations, operation, parameters, context)
    if (!result) continue
    operation.query = result.query
    for (const relation of result.relations) {
      if (!context.relations.some((pending) => pending.spec === relation.spec))
        context.relations.push({ ...relation, location: `Model "${context.model.name}"` })
    }
  }
}
