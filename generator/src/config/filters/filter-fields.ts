/**
 * What `@filter` and `@order` accept on one scalar or enum field, whether the model's own or a
 * related model's (`author.name`): the filter kinds and search strategies that fit its type, and
 * whether it can be ordered by.
 */
import type { DMMF } from '@prisma/generator-helper'
import {
  DATE_NULLS,
  type DateNulls,
  dialectNames,
  dialectOf,
  type FilterSpec,
  type OrderFieldSpec,
  SEARCH_STRATEGIES,
  type SearchStrategy,
  type ValueType,
} from '@prisma-hydra/runtime/defaults'
import type { AnnotationValue } from '../../annotations/parse.js'
import { type Report, show } from '../../problems.js'
import type { ServedModel } from '../models/served-model.js'
import type { FieldModel } from '../schema/model.js'

export const FILTER_KINDS = ['search', 'range', 'date', 'boolean', 'numeric', 'exists'] as const
export type FilterKind = (typeof FILTER_KINDS)[number]
const NUMBER_TYPES = new Set(['Int', 'BigInt', 'Float', 'Decimal'])
const ORDERABLE = new Set(['String', 'Int', 'BigInt', 'Float', 'Decimal', 'Boolean', 'DateTime'])

/** The model whose annotations are read, and where their problems go. */
export interface FilterContext {
  model: DMMF.Model
  datamodel: DMMF.Datamodel
  /** The scalar and enum fields. */
  fields: ReadonlyMap<string, FieldModel>
  hidden: ReadonlySet<string>
  /** Foreign keys of relations served as links, with their relation: not fields of the API. */
  foreignKeys?: ReadonlyMap<string, string> | undefined
  idField: FieldModel
  /** Every field of the item key (one unless it is composite). */
  keyFields?: readonly FieldModel[] | undefined
  provider: string
  /** The served models: targets of relation filters and of filters through a relation. */
  served: ReadonlyMap<string, ServedModel>
  report: Report
}

/**
 * The filter of `kind` on a scalar or enum field (named `name`: the field's, or `author.name`
 * through a relation), or what is wrong (a message following the field's name).
 */
export function fieldFilter(
  kind: FilterKind,
  name: string,
  field: FieldModel,
  setting: AnnotationValue | undefined,
  provider: string
): FilterSpec | string {
  const type = `${field.type}${field.isList ? '[]' : ''}`
  const opaque = field.type === 'Json' || field.type === 'Bytes'
  if (field.isList || (opaque && kind !== 'exists'))
    return `(${type}) cannot be filtered${opaque ? ' but by exists' : ''}`
  const value: ValueType =
    field.kind === 'enum'
      ? { type: 'Enum', enumValues: field.enumValues ?? [] }
      : { type: field.type, ...(field.uuid ? { uuid: true } : {}) }
  switch (kind) {
    case 'search': {
      if (
        typeof setting !== 'string' ||
        !(SEARCH_STRATEGIES as readonly string[]).includes(setting)
      )
        return `needs a strategy, one of ${SEARCH_STRATEGIES.join(', ')}; got ${show(setting)}`
      const strategy = setting as SearchStrategy
      const text = field.type === 'String' && !field.uuid
      if (!text && strategy !== 'exact')
        return `(${field.uuid ? 'UUID' : type}) takes only the "exact" strategy, not "${strategy}"`
      if (strategy.startsWith('i') && dialectOf(provider).caseless === undefined)
        return `cannot use "${strategy}": case-insensitive matching is served on ${dialectNames(({ caseless }) => caseless !== undefined)}, not ${provider}; use "${strategy.slice(1)}" (see docs/filters.md, case sensitivity)`
      return { kind, field: name, strategy, ...value }
    }
    case 'range':
    case 'numeric':
      if (!NUMBER_TYPES.has(field.type))
        return `(${type}) is not a number: ${kind} filters take Int, BigInt, Float or Decimal fields`
      return { kind, field: name, ...value }
    case 'date': {
      if (field.type !== 'DateTime')
        return `(${type}) is not a DateTime: date filters take DateTime fields`
      if (setting === undefined || setting === null) return { kind, field: name }
      if (typeof setting !== 'string' || !(DATE_NULLS as readonly string[]).includes(setting))
        return `null handling must be one of ${DATE_NULLS.join(', ')} (or null for none), got ${show(setting)}`
      if (field.isRequired)
        return 'is required, so it is never null: give it no null handling (null)'
      return { kind, field: name, nulls: setting as DateNulls }
    }
    case 'boolean':
      if (field.type !== 'Boolean')
        return `(${type}) is not a Boolean: boolean filters take Boolean fields`
      return { kind, field: name }
    case 'exists':
      if (field.isRequired)
        return `is required, so it always exists: exists filters take optional fields`
      // A Json field is compared with the client's Prisma.AnyNull, which the module hands over.
      return field.type === 'Json' ? { kind, field: name, json: true } : { kind, field: name }
  }
}

/** Why a field cannot be ordered by, or undefined when it can. */
export function orderProblem(field: FieldModel): string | undefined {
  if (field.isList || (field.kind === 'scalar' && !ORDERABLE.has(field.type)))
    return `(${field.type}${field.isList ? '[]' : ''}) cannot be ordered by`
  return undefined
}

export function orderField(field: FieldModel): OrderFieldSpec {
  const nullable = field.isRequired ? {} : { nullable: true }
  return field.kind === 'enum'
    ? { field: field.name, type: 'Enum', enumValues: field.enumValues ?? [], ...nullable }
    : { field: field.name, type: field.type, ...(field.uuid ? { uuid: true } : {}), ...nullable }
}
