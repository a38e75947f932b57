/**
 * Reads the filter and order parameters of a request (docs/filters.md) into typed conditions.
 * Parameters the operation declares are strict: a malformed one is a 400 naming it. Parameters it
 * does not declare are left alone, as API Platform leaves them.
 */

import { type OrderEntry, withTieBreaker } from '../contract/order.js'
import {
  DATE_OPERATORS,
  type DateOperator,
  type FilterSpec,
  type QuerySpec,
  RANGE_OPERATORS,
  type RangeOperator,
  type RelatedKeyField,
} from '../contract/query.js'
import { badRequest } from '../errors.js'
import type { QueryMap, QueryValue } from '../iri/query-string.js'
import { parseCursorValue } from '../paging/cursor.js'
import { CURSOR_OPERATORS } from '../paging/cursor-links.js'
import { ID_ORDER, idOrderFields, keyOf } from './id-order.js'
import { fail, readBoolean, readValue } from './read-value.js'
import { readRelated } from './related-item.js'
import { type CollectionQuery, FILTER_LIMITS, type FilterCondition } from './spec.js'

export interface ReadQueryOptions {
  /** The path the app is mounted at: related items' IRIs are written under it. */
  base?: string | undefined
  /**
   * Fields whose `[lt]`, `[gt]`, `[lte]` and `[gte]` are cursor positions (cursor-paged
   * operations): those operators are the cursor's to read, not a filter's.
   */
  cursorFields?: ReadonlySet<string> | undefined
  /** The schema's datasource provider: values are checked against what its database stores. */
  database?: string | undefined
  /** The spec's: `none` refuses `%` and `_` in LIKE patterns, unless `literalSearch`. */
  likeEscape?: QuerySpec['likeEscape'] | undefined
  /**
   * The reader of the rows matches `%` and `_` literally on every database (the data-access layer:
   * its compiled reads write `LIKE … ESCAPE`), so they are not refused here.
   */
  literalSearch?: boolean | undefined
}

const INTEGER_KEY = /^(?:0|[1-9][0-9]*)$/

/** Reads the conditions and the client order of a request; throws a 400 HydraError on bad input. */
export function readCollectionQuery(
  query: QueryMap,
  spec: QuerySpec,
  options: ReadQueryOptions = {}
): CollectionQuery {
  const filters: FilterCondition[] = []
  const byField = new Map<string, FilterSpec[]>()
  const exists: FilterSpec[] = []
  for (const filter of spec.filters) {
    if (filter.kind === 'exists') {
      exists.push(filter)
      continue
    }
    const list = byField.get(filter.field) ?? []
    list.push(filter)
    byField.set(filter.field, list)
  }
  for (const [field, specs] of byField) {
    const given = query.get(field)
    if (given === undefined) continue
    const read = readField(field, given, specs, { likeEscape: spec.likeEscape, ...options })
    filters.push(...read.map((condition) => through(condition, specs[0])))
  }
  if (exists.length > 0) {
    const read = readExists(query, spec.parameters.exists, exists)
    filters.push(
      ...read.map((condition) =>
        through(
          condition,
          exists.find((filter) => filter.field === condition.field)
        )
      )
    )
  }
  return { filters, order: readOrder(query, spec) }
}

/** A condition on a related item's field (`author.name`) says which relation it goes through. */
function through(condition: FilterCondition, spec: FilterSpec | undefined): FilterCondition {
  return spec?.through ? { ...condition, through: spec.through } : condition
}

/** A parameter's text: a string (not an array), within the length bound. */
function text(parameter: string, value: QueryValue, usage: string): string {
  if (typeof value !== 'string') throw badRequest(`The "${parameter}" parameter ${usage}.`)
  if (value.length > FILTER_LIMITS.valueLength) {
    throw badRequest(
      `The "${parameter}" parameter is too long: at most ${FILTER_LIMITS.valueLength} characters.`
    )
  }
  return value
}

function readField(
  field: string,
  given: QueryValue,
  specs: readonly FilterSpec[],
  options: ReadQueryOptions
): FilterCondition[] {
  const listed = specs.find((spec) => spec.kind === 'search' || spec.kind === 'numeric')
  const single = listed ?? specs.find((spec) => spec.kind === 'boolean')
  const operators = operatorsOf(specs)
  const cursor = options.cursorFields?.has(field) ?? false
  const shapes = [
    ...(single ? [`${field}=…`] : []),
    ...(listed ? [`${field}[]=…`] : []),
    ...operators.map((operator) => `${field}[${operator}]=…`),
  ]
  const usage = `is given as ${shapes.join(', ')}`
  if (typeof given === 'string') {
    if (!single) throw badRequest(`The "${field}" parameter ${usage}.`)
    return [condition(single, field, field, [text(field, given, usage)], options)]
  }
  const keys = [...given.keys()]
  if (listed && keys.length > 0 && keys.every((key) => INTEGER_KEY.test(key))) {
    if (keys.length > FILTER_LIMITS.values) {
      throw badRequest(
        `The "${field}[]" parameter takes at most ${FILTER_LIMITS.values} values, ${keys.length} given.`
      )
    }
    const values = [...given.values()].map((value) => text(`${field}[]`, value, usage))
    return [condition(listed, field, `${field}[]`, values, options)]
  }
  const conditions: FilterCondition[] = []
  for (const [operator, value] of given) {
    if (cursor && CURSOR_OPERATORS.has(operator)) continue
    const parameter = `${field}[${operator}]`
    const spec = specs.find((candidate) => operatorsOf([candidate]).includes(operator))
    if (!spec) throw badRequest(`The "${parameter}" parameter is not known: "${field}" ${usage}.`)
    const raw = text(parameter, value, usage)
    if (spec.kind === 'range')
      conditions.push(readRange(spec, operator as RangeOperator, raw, options.database))
    else if (spec.kind === 'date') {
      const date = parseCursorValue(
        { field, direction: 'asc', type: 'DateTime' },
        raw,
        parameter,
        options.database
      )
      conditions.push({
        kind: 'date',
        field,
        operator: operator as DateOperator,
        value: date as Date,
        ...(spec.nulls ? { nulls: spec.nulls } : {}),
      })
    }
  }
  return conditions
}

function operatorsOf(specs: readonly FilterSpec[]): string[] {
  return specs.flatMap((spec) =>
    spec.kind === 'range' ? [...RANGE_OPERATORS] : spec.kind === 'date' ? [...DATE_OPERATORS] : []
  )
}

function readRange(
  spec: Extract<FilterSpec, { kind: 'range' }>,
  operator: RangeOperator,
  raw: string,
  database: string | undefined
): FilterCondition {
  const parameter = `${spec.field}[${operator}]`
  if (operator !== 'between') {
    return {
      kind: 'range',
      field: spec.field,
      operator,
      value: readValue(spec, raw, parameter, database),
    }
  }
  const parts = raw.split('..')
  if (parts.length !== 2) fail(parameter, 'two values as min..max', raw)
  const [low, high] = parts as [string, string]
  return {
    kind: 'range',
    field: spec.field,
    operator,
    value: [readValue(spec, low, parameter, database), readValue(spec, high, parameter, database)],
  }
}

function condition(
  spec: FilterSpec,
  field: string,
  parameter: string,
  raws: string[],
  options: ReadQueryOptions
): FilterCondition {
  switch (spec.kind) {
    case 'boolean':
      return { kind: 'boolean', field, value: readBoolean(parameter, raws[0] as string) }
    case 'numeric':
      return {
        kind: 'numeric',
        field,
        values: raws.map((raw) => readValue({ ...spec, field }, raw, parameter, options.database)),
      }
    case 'search': {
      const { relation } = spec
      if (relation) {
        const values = raws.map((raw) =>
          readRelated(relation, raw, parameter, options.base ?? '', options.database)
        )
        if (relation.key) return compositeCondition(field, relation.key, values)
        return relation.through
          ? {
              kind: 'search',
              field,
              strategy: spec.strategy,
              values,
              through: { relation: field, field: relation.through },
            }
          : {
              kind: 'search',
              field,
              strategy: spec.strategy,
              values,
              foreignKey: relation.foreignKey,
            }
      }
      if (spec.items !== undefined) {
        // The item key by IRI or id, read as a relation to the resource's own items.
        const own = { foreignKey: field, collectionPath: spec.items, id: spec }
        const values = raws.map((raw) =>
          readRelated(own, raw, parameter, options.base ?? '', options.database)
        )
        return { kind: 'search', field, strategy: spec.strategy, values }
      }
      // Every strategy but `exact` is a LIKE pattern, `iexact` included.
      if (options.likeEscape === 'none' && !options.literalSearch && spec.strategy !== 'exact') {
        const wild = raws.find((raw) => /[%_]/.test(raw))
        if (wild !== undefined)
          throw badRequest(
            `The "${parameter}" parameter cannot hold % or _: this API matches search values literally and cannot read these two in this search; "${wild}" given.`
          )
      }
      return {
        kind: 'search',
        field,
        strategy: spec.strategy,
        // Text too: a value its column cannot store (a NUL on PostgreSQL) is a 400, not a 500.
        values: raws.map((raw) => readValue({ ...spec, field }, raw, parameter, options.database)),
      }
    }
    default:
      throw new TypeError(`A ${spec.kind} filter takes no single value.`)
  }
}

/**
 * A search by related items with a composite key: on the foreign keys holding it when this model
 * has them all, else through the relation.
 */
function compositeCondition(
  field: string,
  key: readonly RelatedKeyField[],
  values: unknown[]
): FilterCondition {
  const direct = key.every((part) => part.foreignKey !== undefined)
  const foreignKeys = Object.fromEntries(key.map((part) => [part.name, part.foreignKey as string]))
  return {
    kind: 'search',
    field,
    strategy: 'exact',
    values,
    composite: direct ? { foreignKeys } : {},
  }
}

function readExists(
  query: QueryMap,
  name: string,
  specs: readonly FilterSpec[]
): FilterCondition[] {
  const given = query.get(name)
  if (given === undefined) return []
  const fields = specs.map((spec) => spec.field)
  const usage = `is given as ${fields.map((field) => `${name}[${field}]=true|false`).join(', ')}`
  if (typeof given === 'string') throw badRequest(`The "${name}" parameter ${usage}.`)
  const conditions: FilterCondition[] = []
  for (const [field, value] of given) {
    const parameter = `${name}[${field}]`
    if (!fields.includes(field))
      throw badRequest(`The "${parameter}" parameter is not known: "${name}" ${usage}.`)
    const spec = specs.find((candidate) => candidate.field === field)
    const kind = spec?.kind === 'exists' && (spec.relation ? 'relation' : spec.json ? 'json' : '')
    conditions.push({
      kind: 'exists',
      field,
      value: readBoolean(parameter, text(parameter, value, usage)),
      ...(kind ? { [kind]: true } : {}),
    })
  }
  return conditions
}

function readOrder(query: QueryMap, spec: QuerySpec): OrderEntry[] {
  if (spec.order.length === 0) return []
  const name = spec.parameters.order
  const given = query.get(name)
  if (given === undefined) return []
  const keyFields = keyOf(spec).map((field) => field.field)
  const alias = idOrderFields(spec)?.map((field) => field.field)
  const fields = [
    ...new Set([
      ...spec.order.map((entry) => entry.field),
      ...keyFields,
      ...(alias ? [ID_ORDER] : []),
    ]),
  ]
  const usage = `is given as ${name}[field]=asc|desc, field one of ${fields.join(', ')}`
  if (typeof given === 'string') throw badRequest(`The "${name}" parameter ${usage}.`)
  if (given.size > FILTER_LIMITS.orderFields) {
    throw badRequest(
      `The "${name}" parameter takes at most ${FILTER_LIMITS.orderFields} fields, ${given.size} given.`
    )
  }
  const order: OrderEntry[] = []
  for (const [field, value] of given) {
    const parameter = `${name}[${field}]`
    if (!fields.includes(field))
      throw badRequest(`The "${parameter}" parameter is not known: "${name}" ${usage}.`)
    const direction = text(parameter, value, usage).toLowerCase()
    if (direction !== 'asc' && direction !== 'desc') fail(parameter, 'asc or desc', value as string)
    for (const by of alias && field === ID_ORDER ? alias : [field]) {
      const twice = order.find((entry) => entry.field === by)
      if (twice) {
        throw badRequest(
          `The "${parameter}" parameter orders by ${by}, which "${name}" orders by already.`
        )
      }
      order.push({ field: by, direction })
    }
  }
  return order.length === 0 ? order : withTieBreaker(order, keyFields)
}
