import { type ScalarType, scalarType } from '@prisma-hydra/runtime/defaults'
import {
  type CodeBlockWriter,
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type PropertySignatureStructure,
  type SourceFile,
  StructureKind,
  VariableDeclarationKind,
} from 'ts-morph'
import type {
  CursorKeyModel,
  FieldModel,
  HydraModel,
  LinkModel,
  OperationModel,
  ResourceModel,
} from '../config/model.js'
import { camelCase, pascalCase } from '../config/naming.js'
import type { ParameterNames } from '../config/options.js'
import { keepsRowEstimates } from '../config/totals.js'
import { backRelation } from './back-relation.js'
import type { EmitContext } from './context.js'
import { qualifiedTable, templateText } from './count-sql.js'
import { type RuntimeType, runtimeType, runtimeValue } from './runtime-imports.js'

/** Names of the declarations a resource module exports, shared with the index writer. */
export function resourceNames(resource: ResourceModel) {
  const base = camelCase(resource.fileName)
  return {
    member: `${resource.name}Member`,
    resource: `${base}Resource`,
    operations: `${base}Operations`,
    createApp: `create${pascalCase(base)}App`,
    rows: `${base}Rows`,
    row: `${resource.name}Row`,
    providers: `${resource.name}Providers`,
    appOptions: `${resource.name}AppOptions`,
    select: `${base}Select`,
    module: `./${resource.fileName}`,
  }
}

type Primitive = 'string' | 'number' | 'boolean'
const PRIMITIVES: ReadonlySet<string> = new Set<Primitive>(['string', 'number', 'boolean'])
const isPrimitive = (name: ScalarType['tsType']): name is Primitive => PRIMITIVES.has(name)

/**
 * The runtime's types that the member type names for its fields' values (`JsonValue`). Every
 * type of the scalar type table that is not a primitive must be one the generated entry exports:
 * the type checker refuses `names.add` otherwise.
 */
function runtimeTypes(resource: ResourceModel): RuntimeType[] {
  const names = new Set<RuntimeType>()
  for (const field of resource.fields) {
    const name = field.kind === 'scalar' ? scalarType(field.type)?.tsType : undefined
    if (name && !isPrimitive(name)) names.add(name)
  }
  return [...names].sort()
}

/** The TypeScript type of a field's value in the JSON output. */
export function outputType(field: FieldModel): string {
  const base =
    field.kind === 'enum'
      ? (field.enumValues ?? []).map((value) => JSON.stringify(value)).join(' | ') || 'string'
      : (scalarType(field.type)?.tsType ?? 'unknown')
  const item = field.isList ? (base.includes('|') ? `Array<${base}>` : `${base}[]`) : base
  return field.isRequired ? item : `${item} | null`
}

function writeMemberInterface(resource: ResourceModel): InterfaceDeclarationStructure {
  const properties: OptionalKind<PropertySignatureStructure>[] = [
    { name: "'@id'", type: 'string' },
    { name: "'@type'", type: JSON.stringify(resource.name) },
    ...resource.fields.map((field) => ({ name: field.name, type: outputType(field) })),
    ...resource.links.map((link) => ({
      name: link.name,
      type: link.kind === 'one' && !link.required ? 'string | null' : 'string',
      docs: [
        link.kind === 'one'
          ? `The IRI of the related ${link.target}.`
          : `The IRI of the collection of the related ${link.target} items.`,
      ],
    })),
  ]
  return {
    kind: StructureKind.Interface,
    name: resourceNames(resource).member,
    isExported: true,
    docs: [`A ${resource.name} as it appears in \`hydra:member\` and at its own IRI.`],
    properties,
  }
}

function writeResourceSpec(resource: ResourceModel, provider: string) {
  return (writer: CodeBlockWriter) => {
    writer.write('defineResource<').write(resourceNames(resource).member).write(', ')
    writer
      .quote(resource.idField.type)
      .write('>(')
      .inlineBlock(() => {
        writer.write('name: ').quote(resource.name).write(',').newLine()
        if (resource.iri) writer.write('iri: ').quote(resource.iri).write(',').newLine()
        writer.writeLine(`hydraPrefix: ${resource.hydraPrefix},`)
        writer.write('collectionPath: ').quote(resource.collectionPath).write(',').newLine()
        writer.write('provider: ').quote(provider).write(',').newLine()
        writer.write('id: { name: ').quote(resource.idField.name).write(', kind: ')
        writer.quote(resource.idField.type).write(' },').newLine()
        writer.write('fields: [').indent(() => {
          for (const field of resource.fields) {
            writer.write('{ name: ').quote(field.name).write(', type: ').quote(field.type)
            if (field.isList) writer.write(', list: true')
            if (!field.isRequired) writer.write(', required: false')
            if (field.iri) writer.write(', iri: ').quote(field.iri)
            if (field.scale !== undefined) writer.write(`, scale: ${field.scale}`)
            if (field.enumValues)
              writer.write(
                `, values: [${field.enumValues.map((value) => JSON.stringify(value)).join(', ')}]`
              )
            writer.write(' },').newLine()
          }
        })
        writer.write('],')
        if (resource.links.length > 0) writer.newLine().write('links: ').write(linkList(resource))
      })
    writer.write(')')
  }
}

/** The resource's links as the runtime's `LinkSpec[]` literal. */
function linkList(resource: ResourceModel): string {
  const entries = resource.links.flatMap((link) => {
    const target = link.targetResource
    if (!target) return []
    const parts = [
      `name: ${JSON.stringify(link.name)}`,
      `kind: '${link.kind}'`,
      `target: { name: ${JSON.stringify(link.target)}, ${target.iri ? `iri: ${JSON.stringify(target.iri)}, ` : ''}collectionPath: ${JSON.stringify(target.collectionPath)} }`,
    ]
    if (link.from) parts.push(`from: ${JSON.stringify(link.from)}`)
    if (link.kind === 'one' && !link.required) parts.push('required: false')
    if (link.iri) parts.push(`iri: ${JSON.stringify(link.iri)}`)
    return [`{ ${parts.join(', ')} }`]
  })
  return `[${entries.join(', ')}],`
}

function writePaging(operation: OperationModel, parameters: ParameterNames) {
  return (writer: CodeBlockWriter) => {
    const { paging } = operation
    writer.inlineBlock(() => {
      writer.writeLine(`enabled: ${paging.enabled},`)
      writer.writeLine(`clientEnabled: ${paging.clientEnabled},`)
      writer.writeLine(`itemsPerPage: ${paging.itemsPerPage},`)
      writer.writeLine(`clientItemsPerPage: ${paging.clientItemsPerPage},`)
      writer.writeLine(`maximumItemsPerPage: ${paging.maximumItemsPerPage},`)
      writer.writeLine(`partial: ${paging.partial},`)
      writer.writeLine(`clientPartial: ${paging.clientPartial},`)
      const names = Object.entries(parameters).map(
        ([key, value]) => `${key}: ${JSON.stringify(value)}`
      )
      writer.write(`parameters: { ${names.join(', ')} },`)
      if (operation.cursor) writer.newLine().write('cursor: ').write(keyList(operation.cursor))
    })
  }
}

/** A key (cursor or order) as the runtime's `CursorKey[]` literal. */
function keyList(keys: readonly CursorKeyModel[]): string {
  const entries = keys.map((key) => {
    const parts = [`field: '${key.field}'`, `direction: '${key.direction}'`, `type: '${key.type}'`]
    if (key.uuid) parts.push('uuid: true')
    return `{ ${parts.join(', ')} }`
  })
  return `[${entries.join(', ')}],`
}

function writeOperations(
  resource: ResourceModel,
  parameters: ParameterNames,
  filterParameters: HydraModel['filterParameters']
) {
  const names = resourceNames(resource)
  return (writer: CodeBlockWriter) => {
    writer.inlineBlock(() => {
      for (const operation of resource.operations) {
        writer.write(`${operation.name}: `).inlineBlock(() => {
          writer.writeLine(`resource: ${names.resource},`)
          writer.write('path: ').quote(operation.path).write(',').newLine()
          writer.write('paging: ')
          writePaging(operation, parameters)(writer)
          writer.write(',').newLine()
          writer.write(`hydraPrefix: ${operation.hydraPrefix},`)
          if (operation.orderKey)
            writer.newLine().write('orderKey: ').write(keyList(operation.orderKey))
          if (operation.query) {
            const query = { ...operation.query, parameters: filterParameters }
            writer.newLine().write(`query: ${JSON.stringify(query)},`)
          }
          if (operation.totals.mode !== 'exact')
            writer.newLine().write(`totals: '${operation.totals.mode}',`)
        })
        writer.write(',').newLine()
      }
    })
    writer.write(` satisfies Record<string, CollectionOperation<${names.member}, boolean>>`)
  }
}

function orderBy(operation: OperationModel, reverse = false): string {
  const flip = (direction: string) => (direction === 'asc' ? 'desc' : 'asc')
  const entries = operation.order.map(
    (entry) => `{ ${entry.field}: '${reverse ? flip(entry.direction) : entry.direction}' }`
  )
  return `[${entries.join(', ')}]`
}

/**
 * `bookRows(prisma, orderBy, reverse, where, options)`: the resource's rows in one order, narrowed
 * by the request's filters (`where`), as a CollectionSource. Without filters the count is one
 * plain `SELECT COUNT(*)` of the model's table through `prisma.$queryRaw` (count-sql.ts says why);
 * with filters it is Prisma's `count({ where })`, the same condition the page is read with (a
 * filter's SQL is Prisma's to write: docs/paging.md#totals). Full paging reads the page and the
 * count in one transaction (one snapshot, its limits `options.timeouts`), unless `options.totals`
 * asks for an estimate (of the whole table only) or a cached count (one per set of filters).
 */
function writeSourceFactory(resource: ResourceModel, context: EmitContext) {
  const table = templateText(qualifiedTable(context.provider, resource.table))
  const row = resourceNames(resource).row
  // Unquoted and lower case: the same column name on every database.
  const total = 'total'
  const transaction = `{ isolationLevel: '${context.isolationLevel}', ...transactionOptions(options.timeouts) }`
  return (writer: CodeBlockWriter) => {
    writer.writeLine(
      `const find = ({ backward, where: position, ...window }: RowWindow<Prisma.${resource.name}WhereInput>) =>`
    )
    writer.indent(() => {
      writer.writeLine(`prisma.${resource.delegate}.findMany({`)
      writer.indent(() => {
        writer.writeLine('select,')
        writer.writeLine('orderBy: backward ? reverse : orderBy,')
        writer.writeLine(
          'where: where && position ? { AND: [where, position] } : (position ?? where ?? {}),'
        )
        writer.writeLine('...window,')
      })
      writer.writeLine('})')
    })
    writer.writeLine(
      `const countAll = () => prisma.$queryRaw<CountRow[]>\`SELECT COUNT(*) AS ${total} FROM ${table}\``
    )
    writer.writeLine(
      `const count = () => (where ? prisma.${resource.delegate}.count({ where }) : countAll().then(countOf))`
    )
    writer.writeLine('type Window = { skip: number; take: number }')
    writer.writeLine(`const exact = (window: Window): Promise<[${row}[], number]> =>`)
    writer.indent(() => {
      writer.writeLine('where')
      writer.indent(() => {
        writer.writeLine(
          `? prisma.$transaction([find(window), prisma.${resource.delegate}.count({ where })], ${transaction})`
        )
        writer.writeLine(
          `: prisma.$transaction([find(window), countAll()], ${transaction}).then(([rows, counted]) => [rows, countOf(counted)])`
        )
      })
    })
    writer.writeLine('const totals = options.totals')
    if (keepsRowEstimates(context.provider)) {
      // The table's planner estimate; to_regclass is given the quoted name as a parameter.
      writer.writeLine('const estimate = () =>')
      writer.indent(() => {
        writer.writeLine(
          `prisma.$queryRaw<{ estimate: number | null }[]>\`SELECT reltuples::float8 AS "estimate" FROM pg_class WHERE oid = to_regclass(\${${JSON.stringify(qualifiedTable(context.provider, resource.table))}})\``
        )
        writer.indent(() => {
          writer.writeLine(
            '.then(([row]) => ((row?.estimate ?? -1) < 0 ? undefined : (row?.estimate ?? undefined)))'
          )
        })
      })
    }
    writer.write('return ').inlineBlock(() => {
      writer.writeLine('findMany: find,')
      writer.writeLine('count,')
      writer.writeLine('findManyAndCount: (window: Window) =>')
      writer.indent(() => {
        writer.writeLine("totals?.mode === 'cached'")
        writer.indent(() => {
          writer.writeLine(
            '? pageAndLooseTotal({ page: (take: number) => find({ ...window, take }), total: () => totals.cache.get(countKey(where), count), exact: count }, window)'
          )
          if (keepsRowEstimates(context.provider)) {
            // The estimate is of the whole table: a filtered collection is counted.
            writer.writeLine(": totals?.mode === 'estimated' && !where")
            writer.writeLine(
              '  ? pageAndLooseTotal({ page: (take: number) => find({ ...window, take }), total: () => estimatedTotal(estimate, count), exact: count }, window)'
            )
            writer.writeLine('  : exact(window),')
          } else {
            writer.writeLine(': exact(window),')
          }
        })
      })
    })
  }
}

/** A to-many link whose sub-collection (`/authors/:id/books`) lists this resource's items. */
export interface SubCollection {
  parent: ResourceModel
  link: LinkModel
}

/** The sub-collections that list `resource`: every to-many link to it, self-relations included. */
export function subCollectionsOf(resource: ResourceModel, model: HydraModel): SubCollection[] {
  return model.resources.flatMap((parent) =>
    parent.links
      .filter((link) => link.kind === 'many' && link.target === resource.name && link.condition)
      .map((link) => ({ parent, link }))
  )
}

export const subCollectionPath = ({ parent, link }: SubCollection) =>
  `${parent.collectionPath}/:id/${link.name}`

/** The Prisma condition selecting the rows of one parent (`id`) of a sub-collection. */
function subCollectionWhere({ parent, link }: SubCollection): string {
  const condition = link.condition
  if (!condition) return '{}'
  const key = parent.idField.name
  if (condition.kind === 'column') return `{ ${condition.field}: id }`
  return `{ ${condition.field}: { ${condition.kind}: { ${key}: id } } }`
}

/**
 * The routes of the sub-collections listing this resource: its collection operation's settings
 * (paging, filters, orders, totals), over the rows related to the parent the path names.
 */
function writeSubCollections(
  resource: ResourceModel,
  subCollections: readonly SubCollection[],
  provider: string
) {
  const names = resourceNames(resource)
  const operation = resource.operations[0] as OperationModel
  const input = `Prisma.${resource.name}OrderByWithRelationInput[]`
  const totals =
    operation.totals.mode === 'cached'
      ? `{ mode: 'cached', cache: counts.${operation.name} }`
      : `{ mode: '${operation.totals.mode}' }`
  return (writer: CodeBlockWriter) => {
    for (const sub of subCollections) {
      const { parent } = sub
      writer.write('.get(').quote(subCollectionPath(sub)).write(', (c) =>').newLine()
      writer.indent(() => {
        writer.writeLine('serveSubCollection(')
        writer.indent(() => {
          writer.writeLine('c,')
          const back = backRelation(resource, sub.parent.name, sub.link)
          writer.writeLine(
            `{ name: ${JSON.stringify(parent.name)}, id: '${parent.idField.type}', provider: '${provider}', find: (id) => prisma.${parent.delegate}.findUnique({ where: { ${parent.idField.name}: id }, select: { ${parent.idField.name}: true } })${back ? `, relation: ${JSON.stringify(back)}` : ''} },`
          )
          writer.writeLine(`${names.operations}.${operation.name},`)
          const where = subCollectionWhere(sub)
          writer.writeLine(
            `(id) => (selection: RowSelection) => ${names.rows}(prisma, (selection.orderBy ?? ${orderBy(operation)}) as ${input}, (selection.reverse ?? ${orderBy(operation, true)}) as ${input}, selection.where ? { AND: [${where}, selection.where as Prisma.${resource.name}WhereInput] } : ${where}, { totals: ${totals}, timeouts: options.timeouts }),`
          )
          writer.writeLine('{ batchSize: options.batchSize, timeouts: options.timeouts }')
        })
        writer.write(')')
      })
      writer.newLine().write(')').newLine()
    }
  }
}

/** The Hono sub-app: collection operations first, so `/books/recent` is not read as an item id. */
function writeCreateApp(
  resource: ResourceModel,
  subCollections: readonly SubCollection[],
  provider: string
) {
  const names = resourceNames(resource)
  const cached = resource.operations.filter((operation) => operation.totals.mode === 'cached')
  return (writer: CodeBlockWriter) => {
    // Cached counts outlive a request (a filtered operation builds its source per request).
    if (cached.length > 0) {
      writer.write('const counts = ').inlineBlock(() => {
        for (const operation of cached)
          if (operation.totals.mode === 'cached')
            writer.writeLine(
              `${operation.name}: new CountCache({ seconds: ${operation.totals.seconds} }),`
            )
      })
      writer.newLine()
    }
    writer.write('const sources = ').inlineBlock(() => {
      for (const operation of resource.operations) {
        const totals =
          operation.totals.mode === 'cached'
            ? `{ mode: 'cached', cache: counts.${operation.name} }`
            : `{ mode: '${operation.totals.mode}' }`
        const rows = (order: string, reverse: string, where: string) =>
          `${names.rows}(prisma, ${order}, ${reverse}, ${where || 'undefined'}, { totals: ${totals}, timeouts: options.timeouts })`
        if (!operation.query) {
          writer.writeLine(
            `${operation.name}: ${rows(orderBy(operation), orderBy(operation, true), '')},`
          )
          continue
        }
        // The selection's where and orderBy are built by the runtime from the operation's own
        // fields (checked at generation time), so they are this model's Prisma inputs.
        const input = `Prisma.${resource.name}OrderByWithRelationInput[]`
        writer.writeLine(`${operation.name}: (selection: RowSelection) =>`)
        writer.indent(() => {
          writer.writeLine(
            `${rows(
              `(selection.orderBy ?? ${orderBy(operation)}) as ${input}`,
              `(selection.reverse ?? ${orderBy(operation, true)}) as ${input}`,
              `selection.where as Prisma.${resource.name}WhereInput | undefined`
            )},`
          )
        })
      }
    })
    writer.newLine()
    writer.write('return new Hono()').indent(() => {
      for (const operation of resource.operations) {
        writer.write('.get(').quote(operation.path).write(', (c) =>').newLine()
        const options = operation.cursor
          ? '{ batchSize: options.batchSize, timeouts: options.timeouts }'
          : `{ provider: options.providers?.${operation.name}, batchSize: options.batchSize, timeouts: options.timeouts }`
        writer.indent(() => {
          writer.write(
            `serveCollection(c, ${names.operations}.${operation.name}, sources.${operation.name}, ${options})`
          )
        })
        writer.newLine().write(')').newLine()
      }
      writer.write('.get(').quote(`${resource.collectionPath}/:id`).write(', (c) =>').newLine()
      writer.indent(() => {
        writer.write(
          `serveItem(c, ${names.resource}, (id) => prisma.${resource.delegate}.findUnique({ where: { ${resource.idField.name === 'id' ? 'id' : `${resource.idField.name}: id`} }, select }), { timeouts: options.timeouts })`
        )
      })
      writer.newLine().write(')').newLine()
      writeSubCollections(resource, subCollections, provider)(writer)
      writer
        .write('.get(')
        .quote(`/contexts/${resource.name}`)
        .write(`, (c) => serveContext(c, ${names.resource}))`)
      // Other methods on the same paths: 405 with Allow (GET and HEAD are answered above).
      const paths = [
        ...resource.operations.map((operation) => operation.path),
        `${resource.collectionPath}/:id`,
        ...subCollections.map(subCollectionPath),
        `/contexts/${resource.name}`,
      ]
      for (const path of paths)
        writer.newLine().write('.all(').quote(path).write(', methodNotAllowed)')
    })
  }
}

/** Whether the resource has offset-paged operations, whose Prisma query a provider may replace. */
export function hasProviders(resource: ResourceModel): boolean {
  return resource.operations.some((operation) => !operation.cursor)
}

/** Fills one resource's module: member type, resource, operations and the Hono sub-app. */
export function emitResourceModule(
  file: SourceFile,
  resource: ResourceModel,
  parameters: ParameterNames,
  filterParameters: HydraModel['filterParameters'],
  context: EmitContext,
  subCollections: readonly SubCollection[] = []
): void {
  const names = resourceNames(resource)
  file.addImportDeclarations([
    {
      moduleSpecifier: 'hono',
      namedImports: [
        ...(hasProviders(resource) ? [{ name: 'Context', isTypeOnly: true }] : []),
        'Hono',
      ],
    },
    {
      moduleSpecifier: context.runtimeModule,
      namedImports: [
        runtimeType('CollectionOperation'),
        ...(hasProviders(resource) ? [runtimeType('CollectionProvider')] : []),
        runtimeType('DatabaseTimeouts'),
        runtimeValue('defineResource'),
        runtimeValue('methodNotAllowed'),
        ...(resource.operations.some((operation) => operation.query) || subCollections.length > 0
          ? [runtimeType('RowSelection')]
          : []),
        runtimeType('RowWindow'),
        runtimeType('CountRow'),
        ...(resource.operations.some((operation) => operation.totals.mode === 'cached')
          ? [runtimeValue('CountCache')]
          : []),
        runtimeValue('countKey'),
        runtimeValue('countOf'),
        ...(keepsRowEstimates(context.provider) ? [runtimeValue('estimatedTotal')] : []),
        runtimeValue('pageAndLooseTotal'),
        runtimeType('SourceOptions'),
        ...runtimeTypes(resource).map(runtimeType),
        runtimeValue('serveCollection'),
        runtimeValue('serveContext'),
        runtimeValue('serveItem'),
        ...(subCollections.length > 0 ? [runtimeValue('serveSubCollection')] : []),
        runtimeValue('transactionOptions'),
      ],
    },
    {
      moduleSpecifier: context.clientModule,
      namedImports: ['Prisma', 'PrismaClient'],
      isTypeOnly: true,
    },
  ])
  file.addInterface(writeMemberInterface(resource))
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [`Metadata of the ${resource.name} resource: its paths and the fields it shows.`],
    declarations: [
      { name: names.resource, initializer: writeResourceSpec(resource, context.provider) },
    ],
  })
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: [
      'The columns read: the shown fields, the primary key, and the fields of cursor and order keys.',
    ],
    declarations: [
      {
        name: 'select',
        initializer: (writer) => {
          const through = resource.links.flatMap((link) =>
            Array.isArray(link.from)
              ? [`${link.from[0]}: { select: { ${link.from[1]}: true } }`]
              : []
          )
          writer.write(
            `{ ${[...resource.selected.map((name) => `${name}: true`), ...through].join(', ')} } as const`
          )
        },
      },
    ],
  })
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [`The collection operations of ${resource.name} with their resolved paging settings.`],
    declarations: [
      {
        name: names.operations,
        initializer: writeOperations(resource, parameters, filterParameters),
      },
    ],
  })
  file.addFunction({
    name: names.rows,
    docs: [
      `${resource.name} rows in the given order, those \`where\` selects, read through the Prisma client.`,
    ],
    parameters: [
      { name: 'prisma', type: 'PrismaClient' },
      { name: 'orderBy', type: `Prisma.${resource.name}OrderByWithRelationInput[]` },
      { name: 'reverse', type: `Prisma.${resource.name}OrderByWithRelationInput[]` },
      {
        name: 'where',
        type: `Prisma.${resource.name}WhereInput | undefined`,
        initializer: 'undefined',
      },
      { name: 'options', type: 'SourceOptions', initializer: '{}' },
    ],
    statements: writeSourceFactory(resource, context),
  })
  file.addExportDeclaration({ namedExports: [{ name: 'select', alias: names.select }] })
  file.addTypeAlias({
    isExported: true,
    name: names.row,
    docs: [
      `A ${resource.name} row as the generated queries read it, and as a custom data provider returns it.`,
    ],
    type: `Prisma.${resource.name}GetPayload<{ select: typeof select }>`,
  })
  const offsetOperations = resource.operations.filter((operation) => !operation.cursor)
  if (offsetOperations.length > 0)
    file.addInterface({
      isExported: true,
      name: names.providers,
      docs: [
        `Custom data providers for ${resource.name}'s offset-paged operations: each replaces that operation's Prisma query; the route, the parameter checks and the rendering stay generated.`,
      ],
      properties: offsetOperations.map((operation) => ({
        name: operation.name,
        hasQuestionToken: true,
        type: `CollectionProvider<${names.row}, Context, Prisma.${resource.name}WhereInput, Prisma.${resource.name}OrderByWithRelationInput> | undefined`,
      })),
    })
  file.addInterface({
    isExported: true,
    name: names.appOptions,
    properties: [
      ...(offsetOperations.length > 0
        ? [{ name: 'providers', hasQuestionToken: true, type: `${names.providers} | undefined` }]
        : []),
      {
        name: 'batchSize',
        hasQuestionToken: true,
        type: 'number | undefined',
        docs: ['Rows per query when a collection is served unpaged (default 500).'],
      },
      {
        name: 'timeouts',
        hasQuestionToken: true,
        type: 'DatabaseTimeouts | undefined',
        docs: ['Time budgets of the database work of a request (see createHydraApp).'],
      },
    ],
  })
  file.addFunction({
    isExported: true,
    name: names.createApp,
    docs: [`The ${resource.name} routes: its collections, its items and its JSON-LD context.`],
    parameters: [
      { name: 'prisma', type: 'PrismaClient' },
      { name: 'options', type: names.appOptions, initializer: '{}' },
    ],
    statements: writeCreateApp(resource, subCollections, context.provider),
  })
}
