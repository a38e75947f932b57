import { type SourceFile, VariableDeclarationKind } from 'ts-morph'
import type { HydraModel } from '../config/model.js'
import type { EmitContext } from './context.js'
import { resourceNames } from './resource-module.js'

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
    ...resources.map(({ names }) => ({
      moduleSpecifier: `${names.module}${context.importExtension}`,
      namedImports: [names.createApp],
    })),
  ])
  file.addExportDeclarations(
    resources.map(({ names }) => ({
      moduleSpecifier: `${names.module}${context.importExtension}`,
      namedExports: [
        { name: names.member, isTypeOnly: true },
        names.createApp,
        names.operations,
        names.resource,
      ],
    }))
  )
  file.addInterface({
    name: 'HydraAppOptions',
    isExported: true,
    properties: [
      { name: 'prisma', type: 'PrismaClient', docs: ['The client every route reads through.'] },
    ],
  })
  file.addFunction({
    name: 'createHydraApp',
    isExported: true,
    docs: [
      'A Hono app serving every annotated model as a JSON-LD/Hydra resource, with problem+json errors.\n' +
        'Mount it anywhere: `app.route("/api", createHydraApp({ prisma }))`; links follow the mount path.',
    ],
    parameters: [{ name: '{ prisma }', type: 'HydraAppOptions' }],
    statements: (writer) => {
      writer.write('const app = new Hono()').indent(() => {
        for (const { names } of resources)
          writer.writeLine(`.route('/', ${names.createApp}(prisma))`)
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
