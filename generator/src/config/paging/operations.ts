import type { CountPreference } from '@prisma-hydra/runtime/defaults'
import type { Annotation } from '../../annotations/parse.js'
import { show } from '../../problems.js'
import {
  readExtraArgs,
  readPagingOptions,
  readPath,
  readPrefix,
} from '../schema/annotation-args.js'
import type { OperationModel, OrderEntry, ResolvedPaging } from '../schema/model.js'
import type { PagingOptions } from '../schema/options.js'
import { type CacheHeaders, cacheControlText, readCacheHeaders } from './cache-headers.js'
import { resolveClientTotals } from './client-totals.js'
import { type KeyContext, orderAndCursor } from './cursor-key.js'
import type { GlobalConfig } from './global.js'
import { readOrder } from './order.js'
import { resolvePaging } from './paging-precedence.js'
import { resolveTotals } from './totals.js'

const OPERATION_NAME = /^[A-Za-z][A-Za-z0-9]*$/
const OPERATION_KEYS = ['name', 'path', 'order', 'hydraPrefix', 'cacheHeaders']

/** What a resource's operations inherit from it. */
export interface ResourceScope {
  global: GlobalConfig
  /** The paging options of `@pagination(...)`. */
  options: PagingOptions
  path: string
  /** The order of `@resource(order: ...)`. */
  order: readonly OrderEntry[] | undefined
  hydraPrefix: boolean
  /** `cacheHeaders` of `@resource(...)`, or the global one (null: none). */
  cacheHeaders: CacheHeaders | null | undefined
  keys: KeyContext
  /** The datasource provider: decides which `totals` it can serve. */
  provider: string
}

/** The resource's collection, then one operation per valid `@operation(...)`, in the schema's order. */
export function resolveOperations(
  annotations: readonly Annotation[],
  scope: ResourceScope
): OperationModel[] {
  const operations = [collectionOperation(scope)]
  const names = new Set(['collection'])
  for (const annotation of annotations) {
    const operation = namedOperation(annotation, scope, names)
    if (operation) operations.push(operation)
  }
  return operations
}

/** The resource's own collection, from `@pagination(...)` and `@resource(...)`. */
function collectionOperation(scope: ResourceScope): OperationModel {
  const { global, keys } = scope
  const levels = { defaults: global.defaults, resource: scope.options, operation: {} }
  const resolved = resolvePaging(global.defaults, scope.options, {}, '@pagination', keys.report)
  const context = { source: '@pagination', provider: scope.provider }
  const paging = withClientTotals(
    resolved,
    resolveClientTotals(levels, resolved, context, keys.report)
  )
  return {
    name: 'collection',
    path: scope.path,
    ...orderAndCursor(paging, scope.order, '@pagination', keys),
    paging,
    hydraPrefix: scope.hydraPrefix,
    cacheControl: cacheControlText(scope.cacheHeaders),
    ...engineOf(scope.options.engine ?? global.defaults.engine),
    totals: resolveTotals(levels, '@pagination', scope.provider, keys.report),
  }
}

/**
 * One `@operation(...)`, or undefined when its name is missing, invalid or taken (added to `names`
 * otherwise), or its path is unusable; each problem is reported.
 */
function namedOperation(
  annotation: Annotation,
  scope: ResourceScope,
  names: Set<string>
): OperationModel | undefined {
  const { global, keys } = scope
  const { fields, report } = keys
  const args = readExtraArgs(annotation, OPERATION_KEYS, report, true)
  const name = args.get('name')
  const source = typeof name === 'string' ? `@operation(name: "${name}")` : annotation.text
  if (typeof name !== 'string' || !OPERATION_NAME.test(name)) {
    report({
      source,
      option: 'name',
      message: `is required and must be an identifier (letters and digits, starting with a letter), got ${show(name)}`,
    })
    return undefined
  }
  if (names.has(name)) {
    report({
      source,
      option: 'name',
      message: `"${name}" is already used by another operation of this model`,
    })
    return undefined
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
  const order = readOrder(args.get('order'), source, fields, report)
  const options = readPagingOptions(annotation, report, OPERATION_KEYS, source)
  const hydraPrefix = readPrefix(args.get('hydraPrefix'), source, report) ?? scope.hydraPrefix
  const cache = readCacheHeaders(args.get('cacheHeaders'), source, report)
  if (!operationPath) return undefined
  const levels = { defaults: global.defaults, resource: scope.options, operation: options }
  const resolved = resolvePaging(global.defaults, scope.options, options, source, report)
  const context = { source, provider: scope.provider }
  const paging = withClientTotals(resolved, resolveClientTotals(levels, resolved, context, report))
  const cursorSource = options.viaCursor ? source : '@pagination'
  // An operation's own order conflicts with a cursor; the resource's order is simply not inherited.
  const ownOrder = paging.viaCursor ? order : (order ?? scope.order)
  return {
    name,
    path: operationPath,
    ...orderAndCursor(paging, ownOrder, cursorSource, keys),
    paging,
    hydraPrefix,
    cacheControl: cacheControlText(cache === undefined ? scope.cacheHeaders : cache),
    ...engineOf(options.engine ?? scope.options.engine ?? global.defaults.engine),
    totals: resolveTotals(levels, source, scope.provider, report),
  }
}

/** The paging settings with the totals clients may ask for, when they may ask for any. */
function withClientTotals(
  paging: ResolvedPaging,
  modes: readonly CountPreference[]
): ResolvedPaging {
  return modes.length === 0 ? paging : { ...paging, clientTotals: modes }
}

/** An operation's engine (operation > resource > global), when one of them names it. */
function engineOf(engine: PagingOptions['engine']): Pick<OperationModel, 'engine'> {
  return engine ? { engine } : {}
}
