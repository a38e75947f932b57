/**
 * @module
 * The route wiring of a resource module (`createBookApp`): each route hands its operation, the
 * resource's data access and the app's options to the runtime. No query is written here: every
 * read goes through the data-access layer.
 */

import type { CodeBlockWriter } from 'ts-morph'
import type { OperationModel, ResourceModel } from '../config/schema/model.js'
import type { EmitContext } from './context.js'
import { resourceNames } from './names.js'
import { itemQueryTypeName, queryTypeName } from './query-type.js'
import { relationKey, type SubCollection, subCollectionPath } from './sub-collections.js'

/**
 * The context type of a collection route, which gives `hc` the query the operation reads, and the
 * `Prefer` header where clients may ask for totals (docs/paging.md#client-totals).
 */
function queryContext(resource: ResourceModel, operation: OperationModel, path: string) {
  const query = queryTypeName(resource.name, operation.name)
  const totals = operation.paging.clientTotals ?? []
  const header = totals.length
    ? `, { prefer?: ${totals.map((total) => `'count=${total}'`).join(' | ')} }`
    : ''
  return `Context<Env, ${JSON.stringify(path)}, QueryInput<${query}${header}>>`
}

/**
 * The Hono sub-app: collection operations first, so `/books/recent` is not read as an item id;
 * other methods on its paths are a 405 with `Allow` (`allowReadsOnly`, from the app's GET routes).
 */
export function writeCreateApp(
  resource: ResourceModel,
  subCollections: readonly SubCollection[],
  client: EmitContext['client']
) {
  const names = resourceNames(resource)
  const route = (writer: CodeBlockWriter, path: string, call: string, operation?: OperationModel) =>
    writer
      .write('.get(')
      .quote(path)
      .write(`, (${operation ? `c: ${queryContext(resource, operation, path)}` : 'c'}) => ${call})`)
      .newLine()
  const main = resource.operations[0]
  const subs = main ? subCollections : []
  return (writer: CodeBlockWriter) => {
    // A Prisma 8 client is read by the runtime's Prisma 8 back end.
    const source = client === 'prisma7' ? 'prisma' : 'prisma8BackEnd(prisma)'
    writer.writeLine(
      `const rows = createDataAccess<${names.row}>(${source}, ${names.model}, options)`
    )
    // A link a rule hides is hidden from its other side too (docs/security.md).
    writer.writeLine(
      'const served = { ...options, access: hideInverseLinks(options.access, inverseLinks) }'
    )
    // Each collection route is prepared once, here: its requests share what it worked out.
    writer.write('const collections = {').indent(() => {
      // collectionRoute takes an offset-paged operation's provider by its name.
      for (const operation of resource.operations)
        writer.writeLine(
          `${JSON.stringify(operation.name)}: collectionRoute(${names.operations}.${operation.name}, rows, served),`
        )
    })
    writer.writeLine('}')
    writer.writeLine(`const item = itemRoute(${names.resource}, rows, served)`)
    // The change feed (docs/syncing.md) reads the log with the Prisma client, a page of the main
    // collection's size at most, and its members on the same database, the primary: a replica
    // may not hold yet what the log tells, and the member would be told as a tombstone.
    const changes = resource.changes && client === 'prisma7' && main !== undefined
    if (changes)
      writer.writeLine(
        `const changes = changesRoute(${names.resource}, createDataAccess<${names.row}>(prisma, ${names.model}, { ...options, replicas: undefined }), prisma, ${main.paging.itemsPerPage}, served)`
      )
    if (subs.length > 0) {
      writer.write('const subCollections = {').indent(() => {
        for (const sub of subs)
          writer.writeLine(
            `${JSON.stringify(relationKey(sub))}: subCollectionRoute(rows, ${names.relations}.${relationKey(sub)}, ${names.operations}.${main?.name}, served),`
          )
      })
      writer.writeLine('}')
    }
    writer.write('return allowReadsOnly(new Hono()').indent(() => {
      for (const operation of resource.operations) {
        const call = `collections[${JSON.stringify(operation.name)}](c)`
        // The collection links to its feed (docs/syncing.md#finding-the-feed).
        const linked =
          changes && operation.path === resource.collectionPath
            ? `${call}.then((answer) => linkChanges(c, answer, ${JSON.stringify(resource.collectionPath)}))`
            : call
        route(writer, operation.path, linked, operation)
      }
      // Before the item: `/notes/changes` is the feed, not the item `changes`.
      if (changes) route(writer, `${resource.collectionPath}/changes`, 'changes(c)')
      const itemPath = `${resource.collectionPath}/:id`
      // An item with a property filter reads its query: hc is given its type.
      const itemContext = resource.properties
        ? `c: Context<Env, ${JSON.stringify(itemPath)}, QueryInput<${itemQueryTypeName(resource.name)}>>`
        : 'c'
      writer.write('.get(').quote(itemPath).write(`, (${itemContext}) => item(c))`).newLine()
      for (const sub of subs)
        route(
          writer,
          subCollectionPath(sub),
          `subCollections[${JSON.stringify(relationKey(sub))}](c)`,
          main
        )
      writer
        .write('.get(')
        .quote(`/contexts/${resource.name}`)
        .write(`, (c) => serveContext(c, ${names.resource})))`)
    })
  }
}
