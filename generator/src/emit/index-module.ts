import { type SourceFile, VariableDeclarationKind } from 'ts-morph'
import type { HydraModel } from '../config/model.js'
import type { EmitContext } from './context.js'
import { hasProviders, resourceNames } from './names.js'
import { queryTypeName } from './query-type.js'
import { runtimeType, runtimeValue } from './runtime-imports.js'

const DEFAULT_TITLE = 'Hydra API'

/** The API's own documents, which answer other methods with a 405. */
const API_PATHS = [
  '/',
  '/contexts/Entrypoint',
  '/docs.jsonld',
  '/openapi.json',
  '/docs',
  '/contexts/Error',
]

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
      namedImports: [
        runtimeType('ApiDescription'),
        runtimeValue('documentResource'),
        runtimeType('DocumentedType'),
        runtimeType('HydraAppSettings'),
        runtimeValue('hydraErrorHandlers'),
        runtimeValue('hydraHeaders'),
        runtimeValue('serveApiReference'),
        runtimeValue('serveApiReferenceAsset'),
        runtimeValue('serveDocumentation'),
        runtimeValue('serveOpenApi'),
        runtimeValue('serveEntrypoint'),
        runtimeValue('serveEntrypointContext'),
        runtimeValue('serveErrorContext'),
        runtimeValue('serveUnmatched'),
        runtimeValue('methodNotAllowed'),
        runtimeValue('publicOrigin'),
        runtimeValue('serveErrorDocument'),
      ],
    },
    { moduleSpecifier: context.clientModule, namedImports: ['PrismaClient'], isTypeOnly: true },
    ...resources.map(({ resource, names }) => ({
      moduleSpecifier: `${names.module}${context.importExtension}`,
      namedImports: [
        names.createApp,
        names.operations,
        ...(hasProviders(resource) ? [{ name: names.providers, isTypeOnly: true }] : []),
        { name: names.access, isTypeOnly: true },
        names.resource,
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
        { name: names.access, isTypeOnly: true },
        ...resource.operations.map((operation) => ({
          name: queryTypeName(resource.name, operation.name),
          isTypeOnly: true,
        })),
        names.createApp,
        names.operations,
        names.resource,
        names.select,
      ],
    }))
  )
  const anyProviders = model.resources.some(hasProviders)
  file.addInterface({
    name: 'HydraAppOptions',
    isExported: true,
    docs: [
      'Options of `createHydraApp`: the client, and HydraAppSettings (batch size, time budgets, public\n' +
        'origin, proxies, CORS, streaming).',
    ],
    extends: ['HydraAppSettings'],
    properties: [
      { name: 'prisma', type: 'PrismaClient', docs: ['The client every route reads through.'] },
      {
        name: 'replicas',
        hasQuestionToken: true,
        type: 'readonly PrismaClient[] | undefined',
        docs: [
          'Clients of read replicas of the database: reads go to them, one replica per request\n' +
            '(docs/deployment.md#read-replicas). Left out: every read through `prisma`.',
        ],
      },
      ...(anyProviders
        ? [
            {
              name: 'providers',
              hasQuestionToken: true,
              type: 'HydraProviders | undefined',
              docs: [
                'Custom data providers replacing the Prisma query of generated operations, by model:\n' +
                  '`{ book: { recent: (request) => paginateArray(rows, request) } }`.',
              ],
            },
          ]
        : []),
      {
        name: 'access',
        hasQuestionToken: true,
        type: 'HydraAccess | undefined',
        docs: [
          'Who may read what, by model (docs/security.md): `{ Loan: { scope: (c) => ({ borrower: c.get("jwtPayload").sub }) } }`.',
        ],
      },
      {
        name: 'documentation',
        hasQuestionToken: true,
        type: 'HydraDocumentationOptions | undefined',
        docs: [
          'The title of the API documentation, and custom collections to list beside the generated ones.',
        ],
      },
    ],
  })
  file.addTypeAlias({
    name: 'HydraAccess',
    isExported: true,
    docs: ['The access rules of each resource, by model name (docs/security.md).'],
    type: `{ ${resources.map(({ resource, names }) => `${resource.name}?: ${names.access} | undefined`).join('; ')} }`,
  })
  file.addInterface({
    name: 'HydraDocumentationOptions',
    isExported: true,
    properties: [
      {
        name: 'title',
        hasQuestionToken: true,
        type: 'string | undefined',
        docs: [
          `Default: ${JSON.stringify(model.title ?? DEFAULT_TITLE)}${model.title ? ' (platform.title)' : ''}.`,
        ],
      },
      { name: 'description', hasQuestionToken: true, type: 'string | undefined' },
      {
        name: 'types',
        hasQuestionToken: true,
        type: 'readonly DocumentedType[] | undefined',
        docs: [
          'Types of custom collections (hydraCollection routes) served beside the generated ones.',
        ],
      },
    ],
  })
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [
      'The generated types and their collections, as the entrypoint and the API documentation list them.',
    ],
    declarations: [
      {
        name: 'hydraTypes',
        type: 'readonly DocumentedType[]',
        initializer: `[${resources.map(({ names }) => `documentResource(${names.resource}, ${names.operations})`).join(', ')}]`,
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
        name: 'options',
        type: 'HydraAppOptions',
      },
    ],
    statements: (writer) => {
      writer.writeLine(
        `const { prisma, ${anyProviders ? 'providers, ' : ''}documentation, cors } = options`
      )
      writer.write('const api: ApiDescription = ').inlineBlock(() => {
        writer
          .write('title: documentation?.title ?? ')
          .quote(model.title ?? DEFAULT_TITLE)
          .write(',')
          .newLine()
        if (model.description)
          writer
            .write('description: documentation?.description ?? ')
            .quote(model.description)
            .write(',')
            .newLine()
        else writer.writeLine('description: documentation?.description,')
        writer.writeLine('types: [...hydraTypes, ...(documentation?.types ?? [])],')
        // The OpenAPI document declares the 401 and 403 of guarded routes.
        writer.writeLine('access: options.access,')
        writer.writeLine('authentication: options.authentication,')
      })
      writer.newLine()
      writer.writeLine(`const errors = hydraErrorHandlers({ hydraPrefix: ${model.hydraPrefix} })`)
      // One middleware refuses overlong targets and hosts that are malformed or not allowed (the
      // origin of links); the routes negotiate and write their Link themselves, and CORS adds one.
      writer.writeLine('const base = new Hono()')
      writer.writeLine('base.use(publicOrigin(options))')
      writer.writeLine(
        `if (cors !== undefined) base.use(hydraHeaders({ cors, hydraPrefix: ${model.hydraPrefix} }))`
      )
      writer.write('const app = base').indent(() => {
        writer.writeLine(".get('/', (c) => serveEntrypoint(c, api))")
        writer.writeLine(".get('/contexts/Entrypoint', (c) => serveEntrypointContext(c, api))")
        writer.writeLine(".get('/docs.jsonld', (c) => serveDocumentation(c, api))")
        writer.writeLine(".get('/openapi.json', (c) => serveOpenApi(c, api))")
        writer.writeLine(".get('/docs', (c) => serveApiReference(c, api))")
        writer.writeLine(".get('/docs/:asset', (c) => serveApiReferenceAsset(c))")
        for (const { resource, names } of resources)
          writer.writeLine(
            hasProviders(resource)
              ? `.route('/', ${names.createApp}(prisma, { ...options, providers: providers?.${resource.delegate} }))`
              : `.route('/', ${names.createApp}(prisma, options))`
          )
        writer.writeLine(".get('/contexts/Error', (c) => serveErrorContext(c))")
        writer.writeLine(
          `.get('/errors/:status', (c) => serveErrorDocument(c, { hydraPrefix: ${model.hydraPrefix} }))`
        )
        for (const path of API_PATHS) writer.writeLine(`.all('${path}', methodNotAllowed)`)
        writer.writeLine(".all('/errors/:status', methodNotAllowed)")
        writer.writeLine(".all('/docs/:asset', methodNotAllowed)")
      })
      writer.newLine()
      // Last, and out of the chain (clients' route types): the entrypoint at `<mount>/`, and the
      // mount path for the not-found handler of the app the API is mounted in. Every request now
      // matches two routes, which Hono composes (CONTRIBUTING.md, what the benchmarks taught).
      writer.writeLine("app.all('/*', serveUnmatched(api))")
      writer.writeLine('app.onError(errors.onError)')
      writer.writeLine('app.notFound(errors.notFound)')
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
