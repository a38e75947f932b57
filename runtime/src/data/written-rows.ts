/**
 * @module
 * The cache tags a Prisma write purges (docs/caching.md#what-a-write-purges): for an update
 * whose `data` names every field it changes, none a link's or the key's, the field tags of those
 * fields and `Book.*` (the answers whose selection reads them); for a `create` or a `delete` of a
 * row its answer holds every field of, the value tags of its values and `Book:any` (the pages
 * whose conditions it meets: data/value-tags.ts); for any other write, the model tag of every
 * model it changes (`Book`: the answers whose selection reads it). With them, the IRIs of
 * the rows it changed where the write names them (`/books/3`, its key before and after), and,
 * where it does not, the rows tag of their model (`Book:rows`: every answer showing one of its
 * rows). The IRIs
 * are the served resources' (`resources`, the generated `hydraResources`), written from the API's
 * root as the answers' tags are (hono/response/cache-tags.ts).
 */
import { anyFieldTag, fieldTag, rowsTag } from '../contract/cache-tags.js'
import { type KeySpec, keyFields } from '../contract/keys.js'
import { rowValueTags } from './value-tags.js'
import {
  type ModelFields,
  nestedModels,
  ownForeignKeys,
  type RelationTargets,
  type ResourceLinks,
} from './written-models.js'

/** What the purge reads of a served resource: its model, its key and its items' IRIs. */
export interface RowIris {
  /** The model name (`Book`). */
  name: string
  /** The key naming its items. */
  id: KeySpec
  /** The item IRI of a row holding the key's fields, under `base`. */
  iriOf(row: object, base: string): string
  /**
   * Its links (the generated resource's): their foreign keys tell an update that moves a row
   * between parents from one that changes only its own fields (docs/caching.md#what-a-write-purges).
   */
  links?: ResourceLinks['links']
  /**
   * The fields its pages may be tagged by the values of (Resource's); absent, its inserts and
   * deletes purge its model tag, as the answers linking to its rows carry (data/held-links.ts).
   */
  valueFields?: ReadonlySet<string> | undefined
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

/** The `data` of an update's arguments, if any. */
const dataOf = ({ args }: WriteCall) => (isFields(args) ? args.data : undefined)

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
 * What a committed write of `call.model` purges: an update naming its rows and every field it
 * changes (`updatedFields`), setting no key, by those fields' tags and `Book.*`; any other write,
 * each model it changes by its model tag. Its own rows by their IRIs when `resources` serves the
 * model and the write names them, else by the model's rows tag; the rows its nested writes and
 * cascades change, by their models' rows tags.
 */
export function writeTags(
  targets: RelationTargets,
  resources: ReadonlyMap<string, RowIris>,
  call: WriteCall,
  fields?: ModelFields | undefined
): WriteTags {
  const owned = ownForeignKeys(resources, targets)
  const nested = nestedModels(targets, call.model, call.operation, call.args, owned)
  const models = new Set([call.model, ...nested])
  const resource = resources.get(call.model)
  const keys = CREATES.has(call.operation) ? [] : resource && writtenKeys(resource, call)
  const updated =
    resource && keys && keys.length > 0 && !setsKey(resource.id, dataOf(call))
      ? updatedFields(fields, call)
      : undefined
  // An update naming every field it changes, none a link, moves its rows in or out of no page
  // that reads none of them: the pages reading them, and those showing its rows, are purged. One
  // setting the key is not: pages keyed by it (`/authors/1/books`) hold no IRI of the row, and an
  // `onUpdate: Cascade` changes other models' foreign keys unnamed. An insert or a delete of a row
  // whose values its answer holds enters or leaves the pages narrowed to its values alone, and
  // those no equality narrows (data/value-tags.ts).
  const values = updated ? undefined : rowTags(call, fields, nested, resource?.valueFields)
  const tags = new Set(updated ? [] : values ? [...nested, ...values] : models)
  for (const name of updated ?? []) tags.add(fieldTag(call.model, name))
  if (updated) tags.add(anyFieldTag(call.model))
  for (const model of nested) tags.add(rowsTag(model))
  if (!keys) tags.add(rowsTag(call.model))
  else if (resource) for (const key of keys) tags.add(resource.iriOf(key, ''))
  return { tags, models }
}

/**
 * What a `create` or a `delete` of one row purges of its own model's pages, its value tags and
 * `Book:any`, read from the row it answered; undefined for any other write, a model whose fields
 * the client's data model does not describe or whose tagged fields its resource does not name, a create with nested writes (they may change the
 * rows of other models by means the row does not show), or a row lacking a field.
 */
function rowTags(
  call: WriteCall,
  fields: ModelFields | undefined,
  nested: ReadonlySet<string>,
  tagged: ReadonlySet<string> | undefined
): string[] | undefined {
  if (!fields || !tagged || nested.has(call.model)) return undefined
  if (call.operation === 'delete' || (call.operation === 'create' && nested.size === 0))
    return rowValueTags(call.model, call.result, fields.scalars, tagged)
  return undefined
}

/** The updates whose `data` names the fields they change (a unique row's, or rows answered). */
const UPDATES: ReadonlySet<string> = new Set(['update', 'updateManyAndReturn'])

/**
 * The fields an update changes, as its `data` names them, with the model's `@updatedAt` fields
 * (Prisma sets them on every update); undefined when it may change others or move its rows: a
 * relation or a foreign key in its data (a nested write, `connect`), an upsert (which may insert),
 * a model whose fields the client's data model does not hold, or a `data` of another shape.
 */
function updatedFields(
  fields: ModelFields | undefined,
  { operation, args }: WriteCall
): Set<string> | undefined {
  if (!fields || !UPDATES.has(operation) || !isFields(args) || !isFields(args.data)) return
  const updated = new Set<string>()
  for (const [name, value] of Object.entries(args.data)) {
    if (value === undefined) continue
    if (!fields.scalars.has(name) || fields.foreignKeys.has(name)) return undefined
    updated.add(name)
  }
  for (const name of fields.updatedAt) updated.add(name)
  return updated
}
