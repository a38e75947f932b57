/**
 * What a served model declares of itself, before any of its operations is read: its item key,
 * its `@pagination` options, what `@resource` names (path, IRI, order, prefix, cache headers),
 * its fields, and its relations served as links. Other resources read it: a relation's target
 * path and key, a related filter's target fields.
 */
import type { DMMF } from '@prisma/generator-helper'
import type { Annotation } from '../../annotations/parse.js'
import type { Report } from '../../problems.js'
import { type CacheHeaders, readCacheHeaders } from '../paging/cache-headers.js'
import type { GlobalConfig } from '../paging/global.js'
import { readOrder } from '../paging/order.js'
import {
  readExtraArgs,
  readIri,
  readPagingOptions,
  readPath,
  readPrefix,
} from '../schema/annotation-args.js'
import { type FieldAnnotations, toFieldModel } from '../schema/fields.js'
import { resolveItemKey } from '../schema/item-key.js'
import type { FieldModel, ItemKeyModel, LinkModel, OrderEntry } from '../schema/model.js'
import { collectionPathFor } from '../schema/naming.js'
import type { PagingOptions } from '../schema/options.js'
import { readLinks } from './relations.js'

export interface ServedModel {
  /** The `@operation(...)` annotations, in the schema's order. */
  readonly operations: readonly Annotation[]
  /** The scalar and enum fields, in the model's order. */
  readonly scalarFields: readonly DMMF.Field[]
  /** Every scalar and enum field, by name (hidden ones too). */
  readonly fields: ReadonlyMap<string, FieldModel>
  readonly key: ItemKeyModel
  /** The key's first field: the whole key when it is not composite. */
  readonly idField: FieldModel
  /** The paging options of `@pagination(...)`. */
  readonly options: PagingOptions
  readonly iri: string | undefined
  readonly hydraPrefix: boolean
  /** `cacheHeaders` of `@resource(...)`, else the global one (null: none). */
  readonly cacheHeaders: CacheHeaders | null | undefined
  readonly collectionPath: string
  /** The order of `@resource(order: ...)`. */
  readonly order: readonly OrderEntry[] | undefined
  readonly hidden: ReadonlySet<string>
  /** Foreign keys of the links, with their relation: not fields of the API (but the item key's). */
  readonly foreignKeys: ReadonlyMap<string, string>
  /** The fields shown: neither hidden nor a link's foreign key. */
  readonly shown: readonly FieldModel[]
  /** Relations to served models, as links (their targets not yet filled in). */
  readonly links: readonly LinkModel[]
  /** Whether `@changes` opts the model into the change log (docs/syncing.md). */
  readonly changes: boolean
}

/** The names every served model's links and relation filters may point at. */
interface Scope {
  datamodel: DMMF.Datamodel
  global: GlobalConfig
  servedNames: ReadonlySet<string>
}

/**
 * The served model of `model`, or undefined when it is not exposed (no `@pagination`) or cannot
 * be (no field names its items: config/schema/item-key.ts).
 */
export function readServedModel(
  entry: {
    model: DMMF.Model
    annotations: readonly Annotation[]
    fields: readonly FieldAnnotations[]
  },
  scope: Scope,
  report: Report
): ServedModel | undefined {
  const { model, annotations } = entry
  const named = (name: string) => annotations.filter((annotation) => annotation.name === name)
  const [pagination, ...morePagination] = named('pagination')
  const resourceAnnotations = named('resource')
  const operations = named('operation')
  if (!pagination) {
    // Any annotation of ours configures a served model: without @pagination it would be dropped.
    const [first] = annotations
    if (first) {
      report({
        source: first.text,
        message:
          'the model is not exposed: add /// @pagination(...) (or a bare /// @pagination) to serve it',
      })
    }
    return undefined
  }
  const changes = named('changes')
  for (const extra of [...morePagination, ...resourceAnnotations.slice(1), ...changes.slice(1)]) {
    report({
      source: `@${extra.name}`,
      message: `is given more than once; merge the options into one @${extra.name}(...)`,
    })
  }
  const scalarFields = model.fields.filter(
    (field) => field.kind === 'scalar' || field.kind === 'enum'
  )
  const iris = new Map(entry.fields.map(({ field, iri }) => [field.name, iri]))
  const fields = new Map<string, FieldModel>(
    scalarFields.map((field) => [
      field.name,
      toFieldModel(field, scope.datamodel, iris.get(field.name)),
    ])
  )
  const itemKey = resolveItemKey(model, report)
  if (!itemKey) return undefined
  const key = {
    fields: itemKey.fields.map((field) => fields.get(field.name) as FieldModel),
    name: itemKey.name,
  }
  const options = readPagingOptions(pagination, report, [])
  for (const { key } of changes[0]?.args ?? []) {
    report({ source: '@changes', option: key, message: 'unknown option: @changes takes none' })
  }
  if (changes.length > 0) reportUnloggedKeys(key.fields, report)
  return {
    changes: changes.length > 0,
    operations,
    scalarFields,
    fields,
    key,
    idField: key.fields[0] as FieldModel,
    options,
    ...readResource(model.name, resourceAnnotations[0], fields, scope.global, report),
    ...readShown(entry, scope, fields, key),
  }
}

/**
 * The key types whose logged values name the row's item (docs/syncing.md#the-feed): the log keeps
 * a key as its database writes it in JSON, which for dates, decimals and bytes is each database's
 * own text, not the item IRI's.
 */
const FEED_KEY_TYPES = new Set(['Int', 'BigInt', 'Float', 'String'])

/** A problem for each key field of a `@changes` model whose logged value names no item. */
function reportUnloggedKeys(keyFields: readonly FieldModel[], report: Report): void {
  for (const field of keyFields)
    if (field.kind !== 'enum' && !FEED_KEY_TYPES.has(field.type))
      report({
        source: '@changes',
        message: `the key field ${field.name} is a ${field.type}: the change feed names items by keys of Int, BigInt, Float, String or enum fields only`,
      })
}

/** What `@resource(...)` says: path, IRI, order, prefix and cache headers. */
function readResource(
  name: string,
  annotation: Annotation | undefined,
  fields: ReadonlyMap<string, FieldModel>,
  global: GlobalConfig,
  report: Report
) {
  const args = readExtraArgs(
    annotation,
    ['path', 'order', 'iri', 'hydraPrefix', 'cacheHeaders'],
    report
  )
  const cacheHeaders = readCacheHeaders(args.get('cacheHeaders'), '@resource', report)
  const iri = readIri(args.get('iri'), '@resource', report)
  const hydraPrefix =
    readPrefix(args.get('hydraPrefix'), '@resource', report) ?? global.hydraPrefix ?? true
  return {
    iri,
    hydraPrefix,
    cacheHeaders: cacheHeaders === undefined ? global.cacheHeaders : cacheHeaders,
    collectionPath: readPath(args.get('path'), annotation, report) ?? collectionPathFor(name),
    order: readOrder(args.get('order'), annotation?.text ?? '@resource', fields, report),
  }
}

/** Which fields are shown and which relations are links: one or the other for each relation. */
function readShown(
  entry: { model: DMMF.Model; fields: readonly FieldAnnotations[] },
  scope: Scope,
  fields: ReadonlyMap<string, FieldModel>,
  key: ItemKeyModel
) {
  const hidden = new Set(
    entry.fields.filter((field) => field.hidden).map(({ field }) => field.name)
  )
  const { links, foreignKeys: linked } = readLinks(
    entry.model,
    scope.datamodel,
    scope.servedNames,
    entry.fields
  )
  // A foreign key that is also the item key (a one-to-one on the id, the parts of a composite
  // key) stays: items are named by it.
  const keyNames = key.fields.map((field) => field.name)
  const foreignKeys = new Map([...linked].filter(([name]) => !keyNames.includes(name)))
  const shown = [...fields.values()].filter(
    (field) => !hidden.has(field.name) && !foreignKeys.has(field.name)
  )
  return { hidden, foreignKeys, shown, links }
}
