/**
 * @module
 * One resource's module: data (its member type, resource, model source, operations, relations,
 * row and options types) and the route wiring. Queries are the runtime's data-access layer's.
 */
import type { FilterSpec, QuerySpec } from '@prisma-hydra/runtime/defaults'
import { type SourceFile, VariableDeclarationKind } from 'ts-morph'
import type { HydraModel, ResourceModel } from '../config/schema/model.js'
import type { ParameterNames } from '../config/schema/options.js'
import { compiledModel, compiles } from './compiled-model.js'
import { COMPILED_MODELS_MODULE } from './compiled-models.js'
import type { EmitContext } from './context.js'
import { writeCreateApp } from './create-app.js'
import { INVERSE_LINKS_MODULE } from './inverse-links.js'
import { keyLiteral, keySelect } from './item-key.js'
import { writeMemberTypes } from './member-type.js'
import { type MemberWriterCode, memberWriter } from './member-writer.js'
import { hasProviders, resourceNames } from './names.js'
import { defaultParameters, parametersLiteral, querySpecs, writeOperations } from './operations.js'
import {
  itemQueryEntries,
  itemQueryTypeName,
  queryEntries,
  queryType,
  queryTypeName,
} from './query-type.js'
import { writeResourceSpec } from './resource-spec.js'
import { rowType, rowTypeUses } from './row-type.js'
import { runtimeType, runtimeValue } from './runtime-imports.js'
import { type SubCollection, writeRelations } from './sub-collections.js'

export { hasProviders, resourceNames } from './names.js'
export { type SubCollection, subCollectionPath, subCollectionsOf } from './sub-collections.js'

function addImports(
  file: SourceFile,
  resource: ResourceModel,
  context: EmitContext,
  subs: boolean,
  member: MemberWriterCode
) {
  const providers = hasProviders(resource, context.client)
  const prisma7 = context.client === 'prisma7'
  file.addImportDeclarations([
    {
      moduleSpecifier: 'hono',
      namedImports: [
        { name: 'Context', isTypeOnly: true },
        { name: 'Env', isTypeOnly: true },
        'Hono',
      ],
    },
    {
      moduleSpecifier: `./${INVERSE_LINKS_MODULE}${context.importExtension}`,
      namedImports: ['inverseLinks'],
    },
    ...(compiles(resource, context.compiledModels)
      ? [
          {
            moduleSpecifier: `./${COMPILED_MODELS_MODULE}${context.importExtension}`,
            namedImports: ['compiledModels', ...(context.storedEnums ? ['compiledEnums'] : [])],
          },
        ]
      : []),
    {
      moduleSpecifier: context.runtimeModule,
      namedImports: [
        runtimeValue('allowReadsOnly'),
        runtimeValue('hideInverseLinks'),
        runtimeValue('createDataAccess'),
        ...(prisma7 ? [] : [runtimeValue('prisma8BackEnd'), runtimeType('Prisma8BackEndClient')]),
        ...(!prisma7 && rowTypeUses(resource, 'Decimal') ? [runtimeType('Decimal')] : []),
        ...(!prisma7 && rowTypeUses(resource, 'JsonValue') ? [runtimeType('JsonValue')] : []),
        ...(prisma7 ? [] : [runtimeType('ScopeWhere')]),
        runtimeValue('defineOperations'),
        runtimeValue('defineResource'),
        runtimeValue('itemRoute'),
        ...(resource.changes && prisma7
          ? [runtimeValue('changesRoute'), runtimeValue('linkChanges')]
          : []),
        ...member.uses.map(runtimeValue),
        runtimeType('Hideable'),
        runtimeType('KeySpec'),
        runtimeType('MemberOf'),
        runtimeType('ModelSource'),
        ...(providers ? [runtimeType('OperationProviders')] : []),
        runtimeType('QueryInput'),
        ...(resource.operations.some((operation) => operation.query)
          ? [runtimeType('QuerySpec')]
          : []),
        ...(subs ? [runtimeType('RelationSource')] : []),
        runtimeType('ResourceAccess'),
        ...(resource.properties ? [runtimeType('ShapedMemberOf')] : []),
        runtimeType(providers ? 'ResourceAppOptionsWith' : 'ResourceAppOptions'),
        runtimeValue('collectionRoute'),
        runtimeValue('serveContext'),
        ...(subs ? [runtimeValue('subCollectionRoute')] : []),
      ],
    },
    // Prisma's null sentinel is a value: imported as one where a Json field takes exists. On
    // Prisma 8 the routes import no client module: they type what they read themselves.
    ...(prisma7
      ? [
          jsonExists(resource)
            ? {
                moduleSpecifier: context.clientModule,
                namedImports: ['Prisma', { name: 'PrismaClient', isTypeOnly: true }],
              }
            : {
                moduleSpecifier: context.clientModule,
                namedImports: ['Prisma', 'PrismaClient'],
                isTypeOnly: true,
              },
        ]
      : []),
  ])
}

/** A module-level constant with its doc comment. */
function addConstant(
  file: SourceFile,
  name: string,
  docs: string,
  initializer: string,
  isExported: boolean
) {
  file.addVariableStatement({
    isExported,
    declarationKind: VariableDeclarationKind.Const,
    docs: [docs],
    declarations: [{ name, initializer }],
  })
}

/** The distinct query specs (`query`, `query2`...), each after the first written as a variant of it. */
function addQuerySpecs(
  file: SourceFile,
  resource: ResourceModel,
  specs: ReadonlyMap<string, string>,
  client: EmitContext['client']
) {
  const [first] = specs.keys()
  for (const [text, name] of specs) {
    const spec = JSON.parse(text) as QuerySpec
    const written = first === undefined || text === first ? text : sharedSpec(first, spec)
    // The client's own null sentinel, which Prisma 7 compares Json fields with (the compiled
    // engine, Prisma 8's, writes its own test).
    const literal =
      client === 'prisma7' && spec.filters.some(isJsonExists)
        ? `${written.slice(0, -1)}, "jsonNull": Prisma.AnyNull }`
        : written
    addConstant(
      file,
      name,
      `What clients may filter and order ${resource.name} by (docs/filters.md).`,
      `${literal} satisfies QuerySpec`,
      false
    )
  }
}

/** `select` and the model source: the columns read and where they are read from. */
function addSource(
  file: SourceFile,
  resource: ResourceModel,
  context: EmitContext,
  resources: readonly ResourceModel[]
) {
  const names = resourceNames(resource)
  const constant = (name: string, docs: string, initializer: string) =>
    addConstant(file, name, docs, initializer, true)
  const through = resource.links.flatMap((link) =>
    Array.isArray(link.from)
      ? [
          `${link.from[0]}: { select: ${link.from[1] ? `{ ${link.from[1]}: true }` : keySelect(link.targetResource?.key ?? resource.key)} }`,
        ]
      : []
  )
  const columns = [...resource.selected.map((name) => `${name}: true`), ...through]
  constant(
    names.select,
    'The columns read: the shown fields, the primary key, and the fields of cursor and order keys.',
    `{ ${columns.join(', ')} } as const`
  )
  const table = `{ name: ${JSON.stringify(resource.table.name)}, schema: ${JSON.stringify(resource.table.schema)} }`
  const compiled = compiledModel(resource, context, resources)
  constant(
    names.model,
    `Where ${resource.name} rows live and which columns are read: what the data-access layer reads${compiled ? ' (`compiled`: the SQL of its compiled reads, docs/performance.md)' : ''}.`,
    `{ delegate: ${JSON.stringify(resource.delegate)}, provider: ${JSON.stringify(context.provider)}, table: ${table}, key: ${keyLiteral(resource)}, select: ${names.select}${compiled ? `, compiled: ${compiled}` : ''}${resource.engine ? `, engine: '${resource.engine}'` : ''}${context.client === 'prisma7' && jsonExists(resource) ? ', jsonNull: Prisma.AnyNull' : ''} } satisfies ModelSource<KeySpec>`
  )
}

/** The shared query specs, the operations and the relations. */
function addData(
  file: SourceFile,
  resource: ResourceModel,
  filterParameters: HydraModel['filterParameters'],
  parameters: ParameterNames,
  subCollections: readonly SubCollection[],
  client: EmitContext['client']
) {
  const names = resourceNames(resource)
  const constant = (name: string, docs: string, initializer: string) =>
    addConstant(file, name, docs, initializer, false)
  if (!defaultParameters(parameters))
    constant(
      'parameters',
      'The names of the paging parameters (docs/annotations.md#global-settings-and-parameter-names).',
      parametersLiteral(parameters)
    )
  const specs = querySpecs(resource, filterParameters)
  addQuerySpecs(file, resource, specs, client)
  // Without a doc comment, as the resource: the call shows what a comment would restate.
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: names.operations,
        initializer: writeOperations(resource, filterParameters, specs, parameters),
      },
    ],
  })
  if (subCollections.length > 0)
    file.addVariableStatement({
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [
        `The sub-collections listing ${resource.name} items: their parent and the condition on its key.`,
      ],
      declarations: [
        { name: names.relations, initializer: writeRelations(resource, subCollections) },
      ],
    })
}

/**
 * The member type, the query types, the row type, the providers and access types and the app's
 * options.
 */
function addTypes(
  file: SourceFile,
  resource: ResourceModel,
  parameters: ParameterNames,
  filterParameters: HydraModel['filterParameters'],
  client: EmitContext['client']
) {
  const names = resourceNames(resource)
  const prisma7 = client === 'prisma7'
  // Prisma 8 has no generated where type: a scope is the runtime's (docs/security.md's syntax).
  const where = prisma7 ? `Prisma.${resource.name}WhereInput` : 'ScopeWhere'
  file.addTypeAliases(writeMemberTypes(resource))
  let first: { name: string; entries: readonly string[] } | undefined
  for (const operation of resource.operations) {
    const name = queryTypeName(resource.name, operation.name)
    const entries = queryEntries(operation, parameters, filterParameters)
    file.addTypeAlias({
      isExported: true,
      name,
      docs: [`The query parameters of ${operation.path}, as Hono's RPC client sends them.`],
      type: queryType(entries, first),
    })
    first ??= { name, entries }
  }
  if (resource.properties)
    file.addTypeAlias({
      isExported: true,
      name: itemQueryTypeName(resource.name),
      docs: [
        `The query parameters of a ${resource.name} item (its property filter), as Hono's RPC client sends them.`,
      ],
      type: queryType(itemQueryEntries(resource.properties)),
    })
  file.addTypeAlias({
    isExported: true,
    name: names.row,
    docs: [
      `${resource.name} rows as the generated queries read them, and as a custom data provider returns them.`,
    ],
    type: prisma7
      ? `Prisma.${resource.name}GetPayload<{ select: typeof ${names.select} }>`
      : rowType(resource),
  })
  const offsetOperations = resource.operations.filter((operation) => !operation.cursor)
  const offsetNames = offsetOperations.map((operation) => JSON.stringify(operation.name))
  const providers = hasProviders(resource, client)
  if (providers)
    file.addTypeAlias({
      isExported: true,
      name: names.providers,
      docs: [
        `Custom data providers for ${resource.name}'s offset-paged operations: each replaces that operation's Prisma query; the route, the parameter checks and the rendering stay generated.`,
      ],
      type: `OperationProviders<${names.row}, Prisma.${resource.name}WhereInput, Prisma.${resource.name}OrderByWithRelationInput, ${offsetNames.join(' | ')}>`,
    })
  const operationNames = resource.operations.map((operation) => JSON.stringify(operation.name))
  file.addTypeAlias({
    isExported: true,
    name: names.access,
    docs: [
      `Who may read ${resource.name} (docs/security.md): its row scope (a Prisma where), guards and hidden fields, for the resource and per operation (\`item\`: its items); \`E\` is the app's Hono Env, whose \`Variables\` (\`jwtPayload\`) the rules read.`,
    ],
    typeParameters: [{ name: 'E', constraint: 'Env', default: 'Env' }],
    type: `ResourceAccess<${where}, ${operationNames.join(' | ') || 'never'}, ${names.hideable}, E, ${shownWhereFields(resource, names.hideable)}>`,
  })
  file.addTypeAlias({
    isExported: true,
    name: names.appOptions,
    docs: [
      `Options of the ${resource.name} routes (ResourceAppOptions: batch size, time budgets, streaming${providers ? '; `providers`' : ''}).`,
    ],
    type: providers ? `ResourceAppOptionsWith<${names.providers}>` : 'ResourceAppOptions',
  })
}

/**
 * The fields a `shownWhere` rule may name (docs/security.md#fields-shown-on-some-rows): the
 * hideable ones but the links (their other side and sub-collections would tell them) and the
 * fields an operation's cursor or order is ordered by (in its links, and bounding its rows'
 * values), so that a rule naming one fails the app's type-check rather than every request.
 */
function shownWhereFields(resource: ResourceModel, hideable: string): string {
  const refused = new Set(resource.links.map((link) => link.name))
  for (const operation of resource.operations) {
    for (const key of operation.cursor ?? []) refused.add(key.field)
    for (const entry of operation.order) refused.add(entry.field)
  }
  if (refused.size === 0) return hideable
  return `Exclude<${hideable}, ${[...refused].map((name) => JSON.stringify(name)).join(' | ')}>`
}

/** Fills one resource's module: model source, resource, data, types and the Hono sub-app. */
export function emitResourceModule(
  file: SourceFile,
  resource: ResourceModel,
  parameters: ParameterNames,
  filterParameters: HydraModel['filterParameters'],
  context: EmitContext,
  subCollections: readonly SubCollection[] = [],
  resources: readonly ResourceModel[] = []
): void {
  const names = resourceNames(resource)
  const member = memberWriter(resource)
  addImports(file, resource, context, subCollections.length > 0, member)
  addSource(file, resource, context, resources)
  // `defineResource(bookModel, { name, collectionPath, fields, links })` needs no doc comment.
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: names.resource,
        // The change feed is served on Prisma 7's client (docs/syncing.md).
        initializer: writeResourceSpec(
          resource,
          resources,
          member.code,
          resource.changes === true && context.client === 'prisma7'
        ),
      },
    ],
  })
  addData(file, resource, filterParameters, parameters, subCollections, context.client)
  addTypes(file, resource, parameters, filterParameters, context.client)
  file.addFunction({
    isExported: true,
    name: names.createApp,
    docs: [`The ${resource.name} routes: its collections, its items and its JSON-LD context.`],
    parameters: [
      {
        name: 'prisma',
        type: context.client === 'prisma7' ? 'PrismaClient' : 'Prisma8BackEndClient',
      },
      { name: 'options', type: names.appOptions, initializer: '{}' },
    ],
    statements: writeCreateApp(resource, subCollections, context.client),
  })
}

/**
 * A spec after the module's first (`query`) as that one with the keys that differ
 * (`{ ...query, "order": [] }`): extra operations usually share its filters.
 */
function sharedSpec(first: string, spec: QuerySpec): string {
  const shared = JSON.parse(first) as QuerySpec
  const base = new Map(Object.entries(shared))
  const own = Object.entries(spec).filter(
    ([key, value]) => JSON.stringify(base.get(key)) !== JSON.stringify(value)
  )
  const keys = new Set([...base.keys(), ...Object.keys(spec)])
  // Written whole when nothing is shared, when the spread would carry a key the spec has not, or
  // the first's null sentinel (Json exists) to a spec that filters no Json field by exists.
  const carries = [...base.keys()].some((key) => !(key in spec))
  const sentinel = shared.filters.some(isJsonExists)
  if (own.length === keys.size || carries || sentinel) return JSON.stringify(spec)
  const entries = own.map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
  return `{ ...query${entries.map((entry) => `, ${entry}`).join('')} }`
}

const isJsonExists = (filter: FilterSpec) => filter.kind === 'exists' && filter.json === true

/** Whether an operation of the resource filters a Json field by exists. */
function jsonExists(resource: ResourceModel): boolean {
  return resource.operations.some((operation) => operation.query?.filters.some(isJsonExists))
}
