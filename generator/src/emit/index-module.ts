import { type SourceFile, VariableDeclarationKind } from 'ts-morph'
import type { HydraModel } from '../config/model.js'
import type { EmitContext } from './context.js'
import { hasProviders, resourceNames } from './resource-module.js'

/** Fills `index.ts`: `createHydraApp({ prisma })` mounting every resource, and re-exports. */
export function emitIndexModule(file: SourceFile, model: HydraModel, context: EmitContext): void {
  const resources = model.resources.map((resource) => ({
    resource,
    names: resourceNames(resource),
  }))
  file.addImportDeclarations([
    { moduleSpecifier: 'hono', namedImports: ['Hono'] },
    {
      moduleSpecifier: context.runtimeModule,
      namedImports: ['hydraErrorHandler', 'hydraNotFound', 'serveErrorContext'],
    },
    { moduleSpecifier: context.clientModule, namedImports: ['PrismaClient'], isTypeOnly: true },
    ...resources.map(({ resource, names }) => ({
      moduleSpecifier: `${names.module}${context.importExtension}`,
      namedImports: [
        names.createApp,
        ...(hasProviders(resource) ? [{ name: names.providers, isTypeOnly: true }] : []),
      ],
    })),
  ])
  file.addExportDeclarations(
    resources.map(({ resource, names }) => ({
      moduleSpecifier: `${names.module}${context.importExtension}`,
      namedExports: [
        { name: names.member, isTypeOnly: true },
        { name: names.row, isTypeOnly: true },
        ...(hasProviders(resource) ? [{ name: names.providers, isTypeOnly: true }] : []),
        { name: names.appOptions, isTypeOnly: true },
        names.createApp,
        names.operations,
        names.resource,
        names.select,
      ],
    }))
  )
  const anyProviders = model.resources.some(hasProviders)
  const providersOption = {
    name: 'providers',
    hasQuestionToken: true,
    type: 'HydraProviders | undefined',
    docs: [
      'Custom data providers replacing the Prisma query of generated operations, by model:\n' +
        '`{ book: { recent: (request) => paginateArray(rows, request) } }`.',
    ],
  }
  file.addInterface({
    name: 'HydraAppOptions',
    isExported: true,
    properties: [
      { name: 'prisma', type: 'PrismaClient', docs: ['The client every route reads through.'] },
      ...(anyProviders ? [providersOption] : []),
      {
        name: 'batchSize',
        hasQuestionToken: true,
        type: 'number | undefined',
        docs: ['Rows per query when a collection is served unpaged (default 500).'],
      },
    ],
  })
  if (anyProviders)
    file.addInterface({
      name: 'HydraProviders',
      isExported: true,
      docs: ['Custom data providers, by model (the Prisma client property name).'],
      properties: resources
        .filter(({ resource }) => hasProviders(resource))
        .map(({ resource, names }) => ({
          name: resource.delegate,
          hasQuestionToken: true,
          type: `${names.providers} | undefined`,
        })),
    })
  file.addFunction({
    name: 'createHydraApp',
    isExported: true,
    docs: [
      'A Hono app serving every annotated model as a JSON-LD/Hydra resource, with problem+json errors.\n' +
        'Mount it anywhere: `app.route("/api", createHydraApp({ prisma }))`; links follow the mount path.',
    ],
    parameters: [
      {
        name: anyProviders ? '{ prisma, providers, batchSize }' : '{ prisma, batchSize }',
        type: 'HydraAppOptions',
      },
    ],
    statements: (writer) => {
      writer.write('const app = new Hono()').indent(() => {
        for (const { resource, names } of resources)
          writer.writeLine(
            hasProviders(resource)
              ? `.route('/', ${names.createApp}(prisma, { providers: providers?.${resource.delegate}, batchSize }))`
              : `.route('/', ${names.createApp}(prisma, { batchSize }))`
          )
        writer.write(".get('/contexts/Error', (c) => serveErrorContext(c))")
      })
      writer.newLine()
      writer.writeLine('app.onError(hydraErrorHandler)')
      writer.writeLine('app.notFound(hydraNotFound)')
      writer.writeLine('return app')
    },
  })
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['Every served collection path, for start-up banners and documentation.'],
    declarations: [
      {
        name: 'collectionPaths',
        initializer: JSON.stringify(
          model.resources.flatMap((resource) =>
            resource.operations.map((operation) => operation.path)
          )
        ),
      },
    ],
  })
}
