import {
  type CodeBlockWriter,
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type PropertySignatureStructure,
  type SourceFile,
  StructureKind,
  VariableDeclarationKind,
} from 'ts-morph'
import type { FieldModel, OperationModel, ResourceModel } from '../config/model.js'
import type { ParameterNames } from '../config/options.js'
import { camelCase, pascalCase } from '../config/naming.js'
import type { EmitContext } from './context.js'

/** Names of the declarations a resource module exports, shared with the index writer. */
export function resourceNames(resource: ResourceModel) {
  const base = camelCase(resource.fileName)
  return {
    member: `${resource.name}Member`,
    resource: `${base}Resource`,
    operations: `${base}Operations`,
    createApp: `create${pascalCase(base)}App`,
    module: `./${resource.fileName}`,
  }
}

const TS_TYPES: Record<string, string> = {
  String: 'string',
  Int: 'number',
  Float: 'number',
  BigInt: 'string',
  Decimal: 'string',
  DateTime: 'string',
  Bytes: 'string',
  Boolean: 'boolean',
  Json: 'JsonValue',
}

/** The TypeScript type of a field's value in the JSON output. */
export function outputType(field: FieldModel): string {
  const base =
    field.kind === 'enum'
      ? (field.enumValues ?? []).map((value) => JSON.stringify(value)).join(' | ') || 'string'
      : (TS_TYPES[field.type] ?? 'unknown')
  const item = field.isList ? (base.includes('|') ? `Array<${base}>` : `${base}[]`) : base
  return field.isRequired ? item : `${item} | null`
}

function writeMemberInterface(resource: ResourceModel): InterfaceDeclarationStructure {
  const properties: OptionalKind<PropertySignatureStructure>[] = [
    { name: "'@id'", type: 'string' },
    { name: "'@type'", type: JSON.stringify(resource.name) },
    ...resource.fields.map((field) => ({ name: field.name, type: outputType(field) })),
  ]
  return {
    kind: StructureKind.Interface,
    name: resourceNames(resource).member,
    isExported: true,
    docs: [`A ${resource.name} as it appears in \`hydra:member\` and at its own IRI.`],
    properties,
  }
}

function writeResourceSpec(resource: ResourceModel) {
  return (writer: CodeBlockWriter) => {
    writer.write('defineResource<').write(resourceNames(resource).member).write(', ')
    writer.quote(resource.idField.type).write('>(').inlineBlock(() => {
      writer.write('name: ').quote(resource.name).write(',').newLine()
      writer.write('collectionPath: ').quote(resource.collectionPath).write(',').newLine()
      writer.write('id: { name: ').quote(resource.idField.name).write(', kind: ')
      writer.quote(resource.idField.type).write(' },').newLine()
      writer.write('fields: [').indent(() => {
        for (const field of resource.fields) {
          writer.write('{ name: ').quote(field.name).write(', type: ').quote(field.type)
          if (field.isList) writer.write(', list: true')
          writer.write(' },').newLine()
        }
      })
      writer.write('],')
    })
    writer.write(')')
  }
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
      writer.write('parameters: ').write(JSON.stringify(parameters)).write(',')
    })
  }
}

function writeOperations(resource: ResourceModel, parameters: ParameterNames) {
  const names = resourceNames(resource)
  return (writer: CodeBlockWriter) => {
    writer.inlineBlock(() => {
      for (const operation of resource.operations) {
        writer.write(`${operation.name}: `).inlineBlock(() => {
          writer.writeLine(`resource: ${names.resource},`)
          writer.write('path: ').quote(operation.path).write(',').newLine()
          writer.write('paging: ')
          writePaging(operation, parameters)(writer)
          writer.write(',')
        })
        writer.write(',').newLine()
      }
    })
    writer.write(` satisfies Record<string, CollectionOperation<${names.member}>>`)
  }
}

function orderBy(operation: OperationModel): string {
  return `[${operation.order.map((entry) => `{ ${entry.field}: '${entry.direction}' }`).join(', ')}]`
}

/** The Hono sub-app: collection operations first, so `/books/recent` is not read as an item id. */
function writeCreateApp(resource: ResourceModel, context: EmitContext) {
  const names = resourceNames(resource)
  return (writer: CodeBlockWriter) => {
    writer.writeLine(`const rows = prisma.${resource.delegate}`)
    writer.write('return new Hono()').indent(() => {
      for (const operation of resource.operations) {
        const find = `rows.findMany({ select, orderBy: ${orderBy(operation)}, skip, take })`
        writer.write('.get(').quote(operation.path).write(', (c) =>').newLine()
        writer.indent(() => {
          writer.write(`serveCollection(c, ${names.operations}.${operation.name}, `).inlineBlock(() => {
            writer.writeLine(`findMany: ({ skip, take }) => ${find},`)
            writer.writeLine('count: () => rows.count(),')
            writer.writeLine('findManyAndCount: ({ skip, take }) =>')
            writer.indent(() => {
              writer.writeLine(
                `prisma.$transaction([${find}, rows.count()], { isolationLevel: '${context.isolationLevel}' }),`
              )
            })
          })
          writer.write(')')
        })
        writer.newLine().write(')').newLine()
      }
      writer.write('.get(').quote(`${resource.collectionPath}/:id`).write(', (c) =>').newLine()
      writer.indent(() => {
        writer.write(`serveItem(c, ${names.resource}, (id) => rows.findUnique({ where: { ${resource.idField.name}: id }, select }))`)
      })
      writer.newLine().write(')').newLine()
      writer.write('.get(').quote(`/contexts/${resource.name}`).write(`, (c) => serveContext(c, ${names.resource}))`)
    })
  }
}

/** Fills one resource's module: member type, resource, operations and the Hono sub-app. */
export function emitResourceModule(
  file: SourceFile,
  resource: ResourceModel,
  parameters: ParameterNames,
  context: EmitContext
): void {
  const names = resourceNames(resource)
  const usesJson = resource.fields.some((field) => field.type === 'Json')
  file.addImportDeclarations([
    { moduleSpecifier: 'hono', namedImports: ['Hono'] },
    {
      moduleSpecifier: context.runtimeModule,
      namedImports: [
        { name: 'CollectionOperation', isTypeOnly: true },
        'defineResource',
        ...(usesJson ? [{ name: 'JsonValue', isTypeOnly: true }] : []),
        'serveCollection',
        'serveContext',
        'serveItem',
      ],
    },
    { moduleSpecifier: context.clientModule, namedImports: ['PrismaClient'], isTypeOnly: true },
  ])
  file.addInterface(writeMemberInterface(resource))
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [`Metadata of the ${resource.name} resource: its paths and the fields it shows.`],
    declarations: [{ name: names.resource, initializer: writeResourceSpec(resource) }],
  })
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: ['The columns read: the shown fields and the primary key.'],
    declarations: [
      {
        name: 'select',
        initializer: (writer) => {
          const columns = new Set([resource.idField.name, ...resource.fields.map((field) => field.name)])
          writer.write(`{ ${[...columns].map((name) => `${name}: true`).join(', ')} } as const`)
        },
      },
    ],
  })
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [`The collection operations of ${resource.name} with their resolved paging settings.`],
    declarations: [{ name: names.operations, initializer: writeOperations(resource, parameters) }],
  })
  file.addFunction({
    isExported: true,
    name: names.createApp,
    docs: [`The ${resource.name} routes: its collections, its items and its JSON-LD context.`],
    parameters: [{ name: 'prisma', type: 'PrismaClient' }],
    statements: writeCreateApp(resource, context),
  })
}
