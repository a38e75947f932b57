import type { DMMF } from '@prisma/generator-helper'
import { entrypointKey, HYDRA_TERMS } from '@prisma-hydra/runtime/defaults'
import { type Annotation, type AnnotationValue, parseAnnotations } from '../annotations/parse.js'
import { closest, didYouMean, type Problem } from '../problems.js'
import type { GlobalConfig } from './global.js'
import { readOption, show } from './global.js'
import type {
  CursorKeyModel,
  FieldModel,
  HydraModel,
  OperationModel,
  OrderEntry,
  ResolvedPaging,
  ResourceModel,
} from './model.js'
import { collectionPathFor, delegateName, kebabCase } from './naming.js'
import {
  allWrittenOptionNames,
  builtInPaging,
  canonicalOptionName,
  type PagingOptionName,
  type PagingOptions,
  pagingOptionNames,
  pagingOptionSpecs,
} from './options.js'
import { resolveTotals } from './totals.js'

const MODEL_ANNOTATIONS = ['pagination', 'resource', 'operation'] as const
const FIELD_ANNOTATIONS = ['hidden', 'property'] as const
// An absolute IRI with an authority (`https://…`) or a URN: never a compact IRI such as
// `schema:Book`, which a context would read as a prefix and a suffix.
const IRI = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/|urn:)[^\s<>"{}|\\^`]+$/
const IRI_ALLOWED = 'an absolute IRI such as "https://schema.org/Book" (or a urn:)'
/** Names the API documentation and the entrypoint use for themselves. */
const RESERVED_MODELS = ['Entrypoint', 'Error']
const RESERVED_PATHS = /^\/(docs\.jsonld|contexts|errors)(\/|$)/
const CURSOR_TYPES = new Set(['String', 'Int', 'BigInt', 'Float', 'Decimal', 'DateTime'])
const ORDERABLE = new Set(['String', 'Int', 'BigInt', 'Float', 'Decimal', 'Boolean', 'DateTime'])
const OPERATION_NAME = /^[A-Za-z][A-Za-z0-9]*$/
const OPERATION_KEYS = ['name', 'path', 'order', 'hydraPrefix']
const PATH = /^(\/[A-Za-z0-9._~-]+)+$/

type Report = (
  problem: Omit<Problem, 'severity' | 'location'> & { severity?: Problem['severity'] }
) => void

/**
 * Turns the DMMF and the global config into the model the emitter needs, checking every
 * annotation against the Prisma model. Pure; returns every problem found.
 */
export function resolveHydraModel(
  datamodel: DMMF.Datamodel,
  global: GlobalConfig,
  provider: string
): { model: HydraModel; problems: Problem[] } {
  const problems: Problem[] = []
  const resources: ResourceModel[] = []
  for (const model of datamodel.models) {
    const report: Report = (problem) =>
      problems.push({ severity: 'error', location: `Model "${model.name}"`, ...problem })
    const resource = resolveResource(model, datamodel, global, provider, report, problems)
    if (resource) resources.push(resource)
  }
  checkPaths(resources, problems)
  checkEntrypointKeys(resources, problems)
  const model: HydraModel = {
    resources,
    parameters: global.parameters,
    provider,
    hydraPrefix: global.hydraPrefix ?? true,
  }
  if (global.title) model.title = global.title
  if (global.description) model.description = global.description
  return { model, problems }
}

function resolveResource(
  model: DMMF.Model,
  datamodel: DMMF.Datamodel,
  global: GlobalConfig,
  provider: string,
  report: Report,
  problems: Problem[]
): ResourceModel | undefined {
  const annotations = readAnnotations(model.documentation, MODEL_ANNOTATIONS, report)
  const fieldResults = model.fields.map((field) => {
    const fieldReport: Report = (problem) =>
      problems.push({
        severity: 'error',
        location: `Model "${model.name}", field "${field.name}"`,
        ...problem,
      })
    const fieldAnnotations = readAnnotations(field.documentation, FIELD_ANNOTATIONS, fieldReport)
    for (const annotation of fieldAnnotations) {
      if (annotation.name === 'hidden' && annotation.args.length > 0) {
        fieldReport({ source: '@hidden', message: 'takes no options; write /// @hidden' })
      }
      if (annotation.name === 'hidden' && field.kind === 'object') {
        fieldReport({
          severity: 'warning',
          source: '@hidden',
          message: 'relation fields are never shown, so @hidden is not needed here',
        })
      }
    }
    const property = fieldAnnotations.filter((annotation) => annotation.name === 'property')
    if (property.length > 1) {
      fieldReport({
        source: '@property',
        message: 'is given more than once; merge the options into one @property(...)',
      })
    }
    const propertyArgs = readExtraArgs(property[0], ['iri'], fieldReport)
    const iri = readIri(propertyArgs.get('iri'), '@property', fieldReport)
    return {
      field,
      iri,
      hidden: fieldAnnotations.some((annotation) => annotation.name === 'hidden'),
    }
  })

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

  const idField = model.fields.find((field) => field.isId)
  if (!idField || model.primaryKey) {
    report({
      source: '@pagination',
      message:
        'needs a single-field primary key (@id) to build item IRIs; composite @@id keys are not supported',
    })
    return undefined
  }

  const resourceOptions = readPagingOptions(pagination[0] as Annotation, report, [])
  const resourceArgs = readExtraArgs(
    resourceAnnotations[0],
    ['path', 'order', 'iri', 'hydraPrefix'],
    report
  )
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

  const operations: OperationModel[] = []
  const keyContext: KeyContext = {
    model,
    datamodel,
    fields: fieldModels,
    idField: idField.name,
    report,
  }
  const collectionPaging = resolvePaging(
    global.defaults,
    resourceOptions,
    {},
    '@pagination',
    report
  )
  operations.push({
    name: 'collection',
    path: collectionPath,
    ...orderAndCursor(collectionPaging, resourceOrder, '@pagination', keyContext),
    paging: collectionPaging,
    hydraPrefix: resourcePrefix,
    totals: resolveTotals(
      { defaults: global.defaults, resource: resourceOptions, operation: {} },
      '@pagination',
      provider,
      report
    ),
  })

  const names = new Set(['collection'])
  for (const annotation of operationAnnotations) {
    const args = readExtraArgs(annotation, OPERATION_KEYS, report, true)
    const name = args.get('name')
    const source = typeof name === 'string' ? `@operation(name: "${name}")` : annotation.text
    if (typeof name !== 'string' || !OPERATION_NAME.test(name)) {
      report({
        source,
        option: 'name',
        message: `is required and must be an identifier (letters and digits, starting with a letter), got ${show(name)}`,
      })
      continue
    }
    if (names.has(name)) {
      report({
        source,
        option: 'name',
        message: `"${name}" is already used by another operation of this model`,
      })
      continue
    }
    names.add(name)
    const path = args.get('path')
    if (path === undefined) {
      report({
        source,
        option: 'path',
        message: 'is required: the operation needs its own path, e.g. path: "/books/recent"',
      })
    }
    const operationPath = readPath(path, annotation, report)
    const order = readOrder(args.get('order'), source, fieldModels, report)
    const options = readPagingOptions(annotation, report, OPERATION_KEYS, source)
    const hydraPrefix = readPrefix(args.get('hydraPrefix'), source, report) ?? resourcePrefix
    if (!operationPath) continue
    const paging = resolvePaging(global.defaults, resourceOptions, options, source, report)
    const cursorSource = options.viaCursor ? source : '@pagination'
    // An operation's own order conflicts with a cursor; the resource's order is simply not inherited.
    const ownOrder = paging.viaCursor ? order : (order ?? resourceOrder)
    operations.push({
      name,
      path: operationPath,
      ...orderAndCursor(paging, ownOrder, cursorSource, keyContext),
      paging,
      hydraPrefix,
      totals: resolveTotals(
        { defaults: global.defaults, resource: resourceOptions, operation: options },
        source,
        provider,
        report
      ),
    })
  }

  const hidden = new Set(
    fieldResults.filter((result) => result.hidden).map((result) => result.field.name)
  )
  for (const { field, iri } of fieldResults) {
    const fieldModel = fieldModels.get(field.name)
    if (iri && fieldModel) fieldModel.iri = iri
  }
  const fields = [...fieldModels.values()].filter((field) => !hidden.has(field.name))
  checkHydraNames(model.name, fields, operations, report)
  // Cursor fields and the fields of each order: unpaged batches start past the last row's key.
  const cursorFields = operations
    .flatMap((operation) => [...(operation.cursor ?? []), ...(operation.orderKey ?? [])])
    .map((key) => key.field)
  return {
    name: model.name,
    ...(resourceIri ? { iri: resourceIri } : {}),
    hydraPrefix: resourcePrefix,
    delegate: delegateName(model.name),
    table: { name: model.dbName ?? model.name, schema: model.schema ?? null },
    fileName: kebabCase(model.name),
    collectionPath,
    idField: fieldModels.get(idField.name) as FieldModel,
    fields,
    selected: [...new Set([idField.name, ...fields.map((field) => field.name), ...cursorFields])],
    operations,
  }
}

/** Parses a comment's annotations, reporting syntax errors and near-miss names (`@paginaton`). */
function readAnnotations(
  documentation: string | undefined,
  known: readonly string[],
  report: Report
): Annotation[] {
  const { annotations, problems } = parseAnnotations(documentation)
  const allOurs = [...MODEL_ANNOTATIONS, ...FIELD_ANNOTATIONS] as readonly string[]
  // Other generators' annotations (`@zod.string.min(5)`) may use another syntax: only ours are read.
  for (const problem of problems) {
    const name = problem.annotation.slice(1)
    if (allOurs.includes(name))
      report({ source: problem.annotation, message: `cannot be read: ${problem.message}` })
  }
  const ours: Annotation[] = []
  for (const annotation of annotations) {
    if (known.includes(annotation.name)) {
      ours.push(annotation)
    } else if (allOurs.includes(annotation.name)) {
      report({
        source: `@${annotation.name}`,
        message: `is not allowed here; allowed: ${known.map((name) => `@${name}`).join(', ')}`,
      })
    } else {
      const suggestion = closest(annotation.name, allOurs)
      if (suggestion) {
        report({
          source: `@${annotation.name}`,
          message: `unknown annotation. Did you mean "@${suggestion}"?`,
        })
      }
    }
  }
  return ours
}

/** Reads the paging options of an annotation; keys listed in `other` belong to the annotation itself. */
function readPagingOptions(
  annotation: Annotation,
  report: Report,
  other: readonly string[],
  source = `@${annotation.name}`
): PagingOptions {
  const options: PagingOptions = {}
  const writtenAs = new Map<PagingOptionName, string>()
  for (const { key, value } of annotation.args) {
    if (other.includes(key)) continue
    const name = canonicalOptionName(key)
    if (!name) {
      const allowed = [...other, ...pagingOptionNames]
      const hint = didYouMean(key, [...other, ...allWrittenOptionNames()])
      report({
        source,
        option: key,
        message: `unknown option.${hint} Allowed: ${allowed.join(', ')}`,
      })
      continue
    }
    const previous = writtenAs.get(name)
    if (previous) {
      report({
        source,
        option: key,
        message: `sets the same option as "${previous}"; keep one of them`,
      })
      continue
    }
    writtenAs.set(name, key)
    const parsed = readOption(name, value)
    if (!parsed.ok) {
      report({
        source,
        option: key,
        message: `must be ${pagingOptionSpecs[name].allowed}, got ${show(value)}`,
      })
      continue
    }
    Object.assign(options, { [name]: parsed.value })
    if (name === 'fetchJoinCollection' || name === 'useOutputWalkers') {
      report({
        severity: 'warning',
        source,
        option: key,
        message:
          'has no effect with Prisma: the count query counts rows of the model itself, so joined collections never inflate it',
      })
    }
  }
  return options
}

function readExtraArgs(
  annotation: Annotation | undefined,
  keys: readonly string[],
  report: Report,
  allowPaging = false
): Map<string, AnnotationValue> {
  const values = new Map<string, AnnotationValue>()
  if (!annotation) return values
  for (const { key, value } of annotation.args) {
    if (keys.includes(key)) values.set(key, value)
    else if (!allowPaging) {
      report({
        source: `@${annotation.name}`,
        option: key,
        message: `unknown option.${didYouMean(key, keys)} Allowed: ${keys.join(', ')}`,
      })
    }
  }
  return values
}

function readIri(
  value: AnnotationValue | undefined,
  source: string,
  report: Report
): string | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string' && IRI.test(value)) return value
  report({ source, option: 'iri', message: `must be ${IRI_ALLOWED}, got ${show(value)}` })
  return undefined
}

function readPrefix(
  value: AnnotationValue | undefined,
  source: string,
  report: Report
): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value
  report({ source, option: 'hydraPrefix', message: `must be true or false, got ${show(value)}` })
  return undefined
}

/**
 * Names the API's own vocabulary takes: a field `hydra` (the prefix), models named like the API's
 * own types and, without the `hydra:` prefix, a collection's keys (`member`, `next`...), which are
 * then terms of the type's context: a shown field or the model cannot take one of those names.
 */
function checkHydraNames(
  name: string,
  fields: FieldModel[],
  operations: OperationModel[],
  report: Report
): void {
  const hydraField = fields.find((field) => field.name === 'hydra')
  if (hydraField) {
    report({
      source: '@pagination',
      message:
        'field "hydra" cannot be shown: "hydra" is the prefix of Hydra\'s vocabulary in the context; hide the field (@hidden) or rename it (@map keeps the column)',
    })
  }
  if (RESERVED_MODELS.includes(name)) {
    report({
      source: '@pagination',
      message: `the model's name "${name}" is the name of the API's ${name === 'Error' ? 'error type' : 'entrypoint'} (/contexts/${name}); rename the model (@@map keeps the table)`,
    })
  }
  const unprefixed = operations.find((operation) => !operation.hydraPrefix)
  if (!unprefixed) return
  const source =
    unprefixed.name === 'collection' ? '@resource' : `@operation(name: "${unprefixed.name}")`
  const reserved = [...HYDRA_TERMS]
  if (reserved.includes(name)) {
    report({
      source,
      option: 'hydraPrefix',
      message: `is false, but the model's name "${name}" is a Hydra term there; keep the prefix or rename the model`,
    })
  }
  for (const field of fields) {
    if (!reserved.includes(field.name)) continue
    report({
      source,
      option: 'hydraPrefix',
      message: `is false, but field "${field.name}" has the name of a Hydra term (${reserved.join(', ')}); keep the prefix, hide the field (@hidden) or rename it (@map keeps the column)`,
    })
  }
}

function readPath(
  value: AnnotationValue | undefined,
  annotation: Annotation | undefined,
  report: Report
): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !PATH.test(value)) {
    report({
      source: annotation ? `@${annotation.name}` : '@resource',
      option: 'path',
      message: `must be a path such as "/books" or "/books/recent" (segments of letters, digits and - _ . ~, no trailing slash), got ${show(value)}`,
    })
    return undefined
  }
  return value
}

function readOrder(
  value: AnnotationValue | undefined,
  source: string,
  fields: Map<string, FieldModel>,
  report: Report
): OrderEntry[] | undefined {
  if (value === undefined) return undefined
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    Object.keys(value).length === 0
  ) {
    report({
      source,
      option: 'order',
      message: `must be an object of fields and directions, e.g. { publishedAt: "desc" }, got ${show(value)}`,
    })
    return undefined
  }
  const order: OrderEntry[] = []
  for (const [field, direction] of Object.entries(value)) {
    const checked = checkOrderable(field, fields, source, 'order', report)
    if (typeof direction !== 'string' || !/^(asc|desc)$/i.test(direction)) {
      report({
        source,
        option: 'order',
        message: `direction of "${field}" must be "asc" or "desc", got ${show(direction)}`,
      })
      continue
    }
    if (checked)
      order.push({ field, direction: direction.toLowerCase() as OrderEntry['direction'] })
  }
  return order
}

function checkOrderable(
  field: string,
  fields: Map<string, FieldModel>,
  source: string,
  option: string,
  report: Report
): boolean {
  const model = fields.get(field)
  if (!model) {
    report({
      source,
      option,
      message: `field "${field}" does not exist or is not a scalar field.${didYouMean(field, [...fields.keys()])} Fields: ${[...fields.keys()].join(', ')}`,
    })
    return false
  }
  if (model.isList || (model.kind === 'scalar' && !ORDERABLE.has(model.type))) {
    report({
      source,
      option,
      message: `field "${field}" (${model.type}${model.isList ? '[]' : ''}) cannot be ordered by; use a String, number, Boolean, DateTime or enum field`,
    })
    return false
  }
  return true
}

interface KeyContext {
  model: DMMF.Model
  datamodel: DMMF.Datamodel
  fields: Map<string, FieldModel>
  idField: string
  report: Report
}

/**
 * The order of an operation, and its cursor key when it is cursor-paged: the listed cursor fields,
 * then the primary key when they are not unique together, so no row is skipped or repeated.
 */
function orderAndCursor(
  paging: ResolvedPaging,
  order: OrderEntry[] | undefined,
  source: string,
  context: KeyContext
): { order: OrderEntry[]; cursor: CursorKeyModel[] | null; orderKey: CursorKeyModel[] | null } {
  const { fields, idField, report, model } = context
  if (!paging.viaCursor) {
    const full = withTieBreaker(order ?? [], idField)
    return { order: full, cursor: null, orderKey: keysetKey(full, fields) }
  }
  if (order) {
    report({
      source,
      option: 'order',
      message:
        'cannot be combined with viaCursor: a cursor-paged collection is ordered by its cursor fields',
    })
  }
  const listed: OrderEntry[] = []
  for (const entry of paging.viaCursor) {
    if (!checkOrderable(entry.field, fields, source, 'viaCursor', report)) continue
    const field = fields.get(entry.field) as FieldModel
    if (!CURSOR_TYPES.has(field.type)) {
      report({
        source,
        option: 'viaCursor',
        message: `field "${entry.field}" (${field.type}) cannot be a cursor field: Prisma cannot compare it with lt/gt; use a String, Int, BigInt, Float, Decimal or DateTime field`,
      })
      continue
    }
    if (!field.isRequired) {
      report({
        source,
        option: 'viaCursor',
        message: `field "${entry.field}" is optional; cursor fields must be required, as a null has no place in the key order`,
      })
      continue
    }
    if (listed.some((previous) => previous.field === entry.field)) {
      report({
        source,
        option: 'viaCursor',
        message: `field "${entry.field}" is listed more than once`,
      })
      continue
    }
    listed.push({ field: entry.field, direction: entry.direction === 'DESC' ? 'desc' : 'asc' })
  }
  const names = listed.map((entry) => entry.field)
  const last = listed[listed.length - 1]
  const key =
    isUnique(model, names) || !last
      ? listed
      : [...listed, { field: idField, direction: last.direction }]
  checkIndex(
    context,
    key.map((entry) => entry.field),
    source
  )
  const cursor = key.map((entry) => {
    const field = fields.get(entry.field) as FieldModel
    return {
      field: entry.field,
      direction: entry.direction,
      type: field.type,
      uuid: field.uuid,
    }
  })
  return { order: key, cursor, orderKey: null }
}

/**
 * The order as a keyset key, for reading unpaged responses in batches (D5): only when every field
 * is required and comparable with lt/gt. Otherwise (an enum, a Boolean, an optional field) null, and
 * batches go by offset.
 */
function keysetKey(order: OrderEntry[], fields: Map<string, FieldModel>): CursorKeyModel[] | null {
  const key: CursorKeyModel[] = []
  for (const entry of order) {
    const field = fields.get(entry.field)
    if (!field?.isRequired || field.isList || !CURSOR_TYPES.has(field.type)) return null
    key.push({ field: entry.field, direction: entry.direction, type: field.type, uuid: field.uuid })
  }
  return key
}

/** Whether the fields are unique together: one of them is, or they hold a unique set or the key. */
function isUnique(model: DMMF.Model, names: string[]): boolean {
  const covers = (set: readonly string[]) =>
    set.length > 0 && set.every((name) => names.includes(name))
  return (
    model.fields.some((field) => names.includes(field.name) && (field.isId || field.isUnique)) ||
    model.uniqueFields.some(covers) ||
    covers(model.primaryKey?.fields ?? [])
  )
}

/** Warns when no index starts with the key's fields: each page would then scan instead of seek. */
function checkIndex(context: KeyContext, key: string[], source: string): void {
  const { datamodel, model, report } = context
  if (key.length === 0) return
  const indexes = (datamodel.indexes ?? []).filter((index) => index.model === model.name)
  const supported = indexes.some((index) =>
    key.every((name, position) => index.fields[position]?.name === name)
  )
  if (!supported) {
    report({
      severity: 'warning',
      source,
      option: 'viaCursor',
      message: `no index starts with the cursor key (${key.join(', ')}): add @@index([${key.join(', ')}]) to the model so each page seeks to its position instead of scanning to it`,
    })
  }
}

function withTieBreaker(order: OrderEntry[], idField: string): OrderEntry[] {
  return order.some((entry) => entry.field === idField)
    ? order
    : [...order, { field: idField, direction: 'asc' }]
}

function resolvePaging(
  defaults: PagingOptions,
  resource: PagingOptions,
  operation: PagingOptions,
  source: string,
  report: Report
): ResolvedPaging {
  const pick = <K extends keyof typeof builtInPaging>(
    key: K
  ): { value: PagingOptions[K] | (typeof builtInPaging)[K]; from: string } => {
    if (operation[key] !== undefined) return { value: operation[key], from: source }
    if (resource[key] !== undefined) return { value: resource[key], from: '@pagination' }
    if (defaults[key] !== undefined) return { value: defaults[key], from: 'platform.defaults' }
    return { value: builtInPaging[key], from: 'the built-in default' }
  }
  const itemsPerPage = pick('itemsPerPage')
  const maximum = pick('maximumItemsPerPage')
  const clientItemsPerPage = pick('clientItemsPerPage')
  const resolved: ResolvedPaging = {
    enabled: pick('enabled').value as boolean,
    clientEnabled: pick('clientEnabled').value as boolean,
    itemsPerPage: itemsPerPage.value as number,
    clientItemsPerPage: clientItemsPerPage.value as boolean,
    maximumItemsPerPage: maximum.value as number | null,
    partial: pick('partial').value as boolean,
    clientPartial: pick('clientPartial').value as boolean,
    viaCursor: operation.viaCursor ?? resource.viaCursor ?? null,
  }
  const max = resolved.maximumItemsPerPage
  const maxExplicit = maximum.from !== 'the built-in default'
  if (max !== null && max < resolved.itemsPerPage && (resolved.clientItemsPerPage || maxExplicit)) {
    report({
      source,
      option: 'maximumItemsPerPage',
      message: `the maximum page size ${max} (from ${maximum.from}) is below the page size ${resolved.itemsPerPage} (from ${itemsPerPage.from}); raise maximumItemsPerPage to at least ${resolved.itemsPerPage}, or set it to null for no maximum`,
    })
  }
  if (max === null && resolved.clientItemsPerPage) {
    report({
      severity: 'warning',
      source,
      option: 'maximumItemsPerPage',
      message:
        'is null while clients may set the page size: a client can ask for every row at once',
    })
  }
  return resolved
}

function toFieldModel(field: DMMF.Field, datamodel: DMMF.Datamodel): FieldModel {
  const model: FieldModel = {
    name: field.name,
    type: field.type,
    kind: field.kind === 'enum' ? 'enum' : 'scalar',
    isList: field.isList,
    isRequired: field.isRequired,
    uuid: field.nativeType?.[0] === 'Uuid',
  }
  if (field.kind === 'enum') {
    const values = datamodel.enums.find((candidate) => candidate.name === field.type)?.values ?? []
    model.enumValues = values.map((value) => value.name)
  }
  return model
}

function checkEntrypointKeys(resources: ResourceModel[], problems: Problem[]): void {
  const owners = new Map<string, string>()
  for (const resource of resources) {
    for (const operation of resource.operations) {
      const key = entrypointKey(resource.name, operation.name)
      const taken = owners.get(key)
      if (taken) {
        problems.push({
          severity: 'error',
          location: `Model "${resource.name}"`,
          source:
            operation.name === 'collection'
              ? '@pagination'
              : `@operation(name: "${operation.name}")`,
          option: 'name',
          message: `the entrypoint would list it as "${key}", which is already ${taken}; rename the operation`,
        })
      }
      owners.set(key, `${resource.name}.${operation.name}`)
    }
  }
}

function checkPaths(resources: ResourceModel[], problems: Problem[]): void {
  const owners = new Map<string, string>()
  for (const resource of resources) {
    for (const operation of resource.operations) {
      const problem = (message: string) =>
        problems.push({
          severity: 'error',
          location: `Model "${resource.name}"`,
          source:
            operation.name === 'collection' ? '@resource' : `@operation(name: "${operation.name}")`,
          option: 'path',
          message,
        })
      if (RESERVED_PATHS.test(operation.path)) {
        problem(
          `"${operation.path}" belongs to the API itself (/docs.jsonld, /contexts/..., /errors/...); choose another path`
        )
      }
      const taken = owners.get(operation.path)
      if (taken) {
        problem(
          `"${operation.path}" is already served by ${taken}; give each collection its own path`
        )
      }
      owners.set(operation.path, `${resource.name}.${operation.name}`)
    }
  }
}
