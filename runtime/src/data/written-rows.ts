/**
 * @module
 * The cache tags a Prisma write purges (docs/caching.md#what-a-write-purges): the model tag of
 * every model it changes (`Book`: the answers whose selection reads it), the IRIs of the rows it
 * changed where the write names them (`/books/3`, its key before and after), and, where it does
 * not, the rows tag of their model (`Book:rows`: every answer showing one of its rows). The IRIs
 * are the served resources' (`resources`, the generated `hydraResources`), written from the API's
 * root as the answers' tags are (hono/response/cache-tags.ts).
 */
import { rowsTag } from '../contract/cache-tags.js'
import { type KeySpec, keyFields } from '../contract/keys.js'
import { nestedModels, type RelationTargets } from './written-models.js'

/** What the purge reads of a served resource: its model, its key and its items' IRIs. */
export interface RowIris {
  /** The model name (`Book`). */
  name: string
  /** The key naming its items. */
  id: KeySpec
  /** The item IRI of a row holding the key's fields, under `base`. */
  iriOf(row: object, base: string): string
}

/** One write as the extension sees it: its model, operation, arguments and answer. */
export interface WriteCall {
  model: string
  operation: string
  args: unknown
  result: unknown
}

/** What a committed write leads to: the tags to purge and the models whose counts to drop. */
export interface WriteTags {
  tags: Set<string>
  models: Set<string>
}

type Fields = Record<string, unknown>

/** The writes that only create rows: no answer shows a row before it exists. */
const CREATES: ReadonlySet<string> = new Set(['create', 'createMany', 'createManyAndReturn'])

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether `value` can be a key's value as written in an IRI: never a filter (`{ in: [...] }`). */
const isKeyValue = (value: unknown) =>
  value !== undefined &&
  value !== null &&
  (typeof value !== 'object' || value instanceof Date || value instanceof Uint8Array)

/**
 * The key's fields as `value` holds them (a row, or a unique `where`: `{ id: 3 }`, a composite
 * key's `{ orderId_productId: { ... } }`), or undefined when it holds not every one of them.
 */
function keyOf(key: KeySpec, value: unknown): Fields | undefined {
  if (!isFields(value)) return undefined
  const compound = key.kind === 'Composite' ? value[key.name] : undefined
  const source = isFields(compound) ? compound : value
  const row: Fields = {}
  for (const { name } of keyFields(key)) {
    if (!isKeyValue(source[name])) return undefined
    row[name] = source[name]
  }
  return row
}

/** Whether a write's data sets a field of the key (the row's IRI changes with it). */
const setsKey = (key: KeySpec, data: unknown) =>
  isFields(data) && keyFields(key).some(({ name }) => data[name] !== undefined)

/**
 * The keys of the rows a write of `resource` changed, before and after it; undefined when they are
 * unknown (a `where` of many rows, a key the answer does not hold).
 */
function writtenKeys(
  resource: RowIris,
  { operation, args, result }: WriteCall
): Fields[] | undefined {
  const { id } = resource
  const { where, data, update } = isFields(args) ? args : {}
  switch (operation) {
    case 'update':
    case 'upsert':
    case 'delete': {
      const before = keyOf(id, where)
      const after = keyOf(id, result)
      if (setsKey(id, operation === 'upsert' ? update : data) && (!before || !after))
        return undefined
      const keys = [before, after].filter((key) => key !== undefined)
      return keys.length > 0 ? keys : undefined
    }
    case 'updateManyAndReturn': {
      if (setsKey(id, data) || !Array.isArray(result)) return undefined
      const keys = result.map((row) => keyOf(id, row))
      return keys.every((key) => key !== undefined) ? keys : undefined
    }
    default:
      // updateMany and deleteMany answer a count: their rows are not known without reading them.
      return undefined
  }
}

/**
 * What a committed write of `call.model` purges: each model it changes by its model tag; its own
 * rows by their IRIs when `resources` serves the model and the write names them, else by the
 * model's rows tag; the rows its nested writes and cascades change, by their models' rows tags.
 */
export function writeTags(
  targets: RelationTargets,
  resources: ReadonlyMap<string, RowIris>,
  call: WriteCall
): WriteTags {
  const nested = nestedModels(targets, call.model, call.operation, call.args)
  const models = new Set([call.model, ...nested])
  const tags = new Set(models)
  for (const model of nested) tags.add(rowsTag(model))
  const resource = resources.get(call.model)
  const keys = CREATES.has(call.operation) ? [] : resource && writtenKeys(resource, call)
  if (!keys) tags.add(rowsTag(call.model))
  else if (resource) for (const key of keys) tags.add(resource.iriOf(key, ''))
  return { tags, models }
}
