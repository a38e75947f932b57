/**
 * One served model as a resource, resolved against the catalog alone: its operations, what each
 * accepts, its links with their related resources and the fields its queries read.
 */

import { type Problem, reporter } from '../problems.js'
import { declaredEmbeds } from './filters/declared-embeds.js'
import type { FilterContext } from './filters/filter-fields.js'
import { withQueries } from './filters/operation-query.js'
import type { Catalog, CatalogModel } from './models/catalog.js'
import { nativeTypeOf } from './models/compiled-models.js'
import { targetLinks } from './models/relations.js'
import { cacheControlText } from './paging/cache-headers.js'
import type { GlobalConfig } from './paging/global.js'
import { resolveOperations } from './paging/operations.js'
import { checkHydraNames } from './schema/api-names.js'
import type { FieldModel, OperationModel, ResourceModel } from './schema/model.js'
import { delegateName, kebabCase } from './schema/naming.js'

/**
 * The resource of one model of the catalog, or undefined when it is not served (no `@pagination`,
 * or no field names its items), with every problem of the model: those found reading it into
 * the catalog first.
 */
export function resolveResource(
  entry: CatalogModel,
  catalog: Catalog
): { resource: ResourceModel | undefined; problems: readonly Problem[] } {
  const { model, served } = entry
  if (!served) return { resource: undefined, problems: entry.problems }
  const problems: Problem[] = [...entry.problems]
  const report = reporter(problems, `Model "${model.name}"`)
  const { global, provider } = catalog
  const keyNames = served.key.fields.map((field) => field.name)
  const keys = { model, datamodel: catalog.datamodel, fields: served.fields, keyFields: keyNames }
  const operations = resolveOperations(served.operations, {
    global,
    options: served.options,
    path: served.collectionPath,
    order: served.order,
    hydraPrefix: served.hydraPrefix,
    cacheHeaders: served.cacheHeaders,
    keys: { ...keys, report },
    provider,
  })
  checkHydraNames(model.name, [...served.shown, ...served.links], operations, report)
  const context: FilterContext & { global: GlobalConfig } = {
    model,
    datamodel: catalog.datamodel,
    fields: served.fields,
    hidden: served.hidden,
    foreignKeys: served.foreignKeys,
    idField: served.idField,
    keyFields: served.key.fields,
    provider,
    served: catalog.served,
    global,
    report,
  }
  const { operations: queried, properties } = withQueries(entry.annotations, operations, context)
  const embedded = declaredEmbeds(entry, served, catalog, problems)
  const fileName = kebabCase(model.name)
  if (SHARED_MODULES.has(fileName))
    report({
      source: '@pagination',
      message: `its module would be ${fileName}.ts, a module every generated API has for itself: give the model another name`,
    })
  const resource = {
    name: model.name,
    ...(served.iri ? { iri: served.iri } : {}),
    hydraPrefix: served.hydraPrefix,
    cacheControl: cacheControlText(served.cacheHeaders),
    delegate: delegateName(model.name),
    table: { name: model.dbName ?? model.name, schema: model.schema ?? null },
    ...engine(served.options.engine ?? global.defaults.engine),
    columns: served.scalarFields
      .filter((field) => !field.isList)
      .map((field) => {
        const values = served.fields.get(field.name)?.enumValues
        const native = nativeTypeOf(field, provider)
        return {
          name: field.name,
          column: field.dbName ?? field.name,
          type: field.type,
          optional: !field.isRequired,
          ...(values ? { values } : {}),
          ...(native ? { native } : {}),
        }
      }),
    fileName,
    collectionPath: served.collectionPath,
    idField: served.idField,
    key: served.key,
    fields: [...served.shown],
    unshown: unshown(keyNames, served, queried),
    links: targetLinks(model.name, served, catalog.served, problems),
    selected: selected(keyNames, served, queried),
    operations: queried,
    ...(properties ? { properties } : {}),
    ...(embedded.length > 0 ? { embedded } : {}),
    ...(served.changes ? { changes: true as const } : {}),
  }
  return { resource, problems }
}

/** The modules a generated API has beside its resources' (generator/src/emit). */
const SHARED_MODULES = new Set(['index', 'inverse-links', 'compiled-models'])

/** The engine of the resource's items, when the resource or the global config names one. */
const engine = (name: 'prisma' | 'compiled' | undefined) => (name ? { engine: name } : {})

/**
 * The fields an offset-paged operation orders by that the resource neither shows nor keys by (a
 * link's foreign key, a `@hidden` field), in order of appearance.
 */
function unshown(
  keyNames: readonly string[],
  served: NonNullable<CatalogModel['served']>,
  operations: readonly OperationModel[]
): FieldModel[] {
  const described = new Set([...keyNames, ...served.shown.map((field) => field.name)])
  const names = operations
    .filter((operation) => !operation.cursor)
    .flatMap((operation) => operation.order.map((entry) => entry.field))
    .filter((name) => !described.has(name))
  return [...new Set(names)].flatMap((name) => served.fields.get(name) ?? [])
}

/**
 * Every field the queries read: the key, the shown fields, the links' foreign keys, the cursor
 * fields and the fields of each order (the operation's own and those clients may ask for):
 * unpaged batches and cursor links start past the last row's key.
 */
function selected(
  keyNames: readonly string[],
  served: NonNullable<CatalogModel['served']>,
  operations: readonly OperationModel[]
): string[] {
  const cursorFields = operations
    .flatMap((operation) => [
      ...(operation.cursor ?? []),
      ...(operation.orderKey ?? []),
      ...(operation.query?.order ?? []),
    ])
    .map((key) => key.field)
    // A field through a relation (`author.name`) is the related item's, not selected on the row.
    .filter((field) => !field.includes('.'))
  return [
    ...new Set([
      ...keyNames,
      ...served.shown.map((field) => field.name),
      ...served.links.flatMap((link) => (typeof link.from === 'string' ? [link.from] : [])),
      ...cursorFields,
    ]),
  ]
}
