import { type SourceFile, VariableDeclarationKind } from 'ts-morph'
import type { HydraModel, ResourceModel } from '../config/schema/model.js'
import type { EmitContext } from './context.js'
import { INVERSE_LINKS_MODULE } from './inverse-links.js'
import { hasProviders, resourceNames } from './names.js'
import { itemQueryTypeName, queryTypeName } from './query-type.js'
import { runtimeType, runtimeValue } from './runtime-imports.js'

const DEFAULT_TITLE = 'Hydra API'

type Entry = { resource: ResourceModel; names: ReturnType<typeof resourceNames> }

/** The runtime's app parts, the client, and what the index takes from each resource module. */
function addIndexImports(file: SourceFile, resources: readonly Entry[], context: EmitContext) {
  file.addImportDeclarations([
    { moduleSpecifier: 'hono', namedImports: ['Env'], isTypeOnly: true },
    {
      moduleSpecifier: context.runtimeModule,
      namedImports: [
        runtimeType('ApiAppOptions'),
        runtimeType('ApiDescription'),
        runtimeType('ApiDocumentationOptions'),
        runtimeType('CallerApp'),
        runtimeType('CallerMember'),
        runtimeValue('apiBase'),
        runtimeType('AuthenticationSettings'),
        runtimeType('CallerRules'),
        runtimeType('WithInverseLinks'),
        runtimeValue('callerRules'),
        runtimeValue('completeApi'),
        runtimeValue('discoveryRoutes'),
        runtimeValue('documentResource'),
        runtimeType('DocumentedType'),
        runtimeValue('errorRoutes'),
        runtimeValue('hideInverseLinks'),
      ],
    },
    context.client === 'prisma7'
      ? { moduleSpecifier: context.clientModule, namedImports: ['PrismaClient'], isTypeOnly: true }
      : {
          moduleSpecifier: context.runtimeModule,
          namedImports: [{ name: 'Prisma8BackEndClient', alias: 'PrismaClient' }],
          isTypeOnly: true,
        },
    {
      moduleSpecifier: `./${INVERSE_LINKS_MODULE}${context.importExtension}`,
      namedImports: ['inverseLinks'],
    },
    ...resources.map(({ resource, names }) => ({
      moduleSpecifier: `${names.module}${context.importExtension}`,
      namedImports: [
        names.createApp,
        names.operations,
        ...(hasProviders(resource, context.client)
          ? [{ name: names.providers, isTypeOnly: true }]
          : []),
        { name: names.access, isTypeOnly: true },
        { name: names.member, isTypeOnly: true },
        names.resource,
      ],
    })),
  ])
}

/** Re-exports each resource module's public names. */
function addIndexExports(file: SourceFile, resources: readonly Entry[], context: EmitContext) {
  file.addExportDeclarations(
    resources.map(({ resource, names }) => ({
      moduleSpecifier: `${names.module}${context.importExtension}`,
      namedExports: [
        { name: names.member, isTypeOnly: true },
        { name: names.hideable, isTypeOnly: true },
        { name: names.row, isTypeOnly: true },
        ...(hasProviders(resource, context.client)
          ? [{ name: names.providers, isTypeOnly: true }]
          : []),
        { name: names.appOptions, isTypeOnly: true },
        { name: names.access, isTypeOnly: true },
        ...resource.operations.map((operation) => ({
          name: queryTypeName(resource.name, operation.name),
          isTypeOnly: true,
        })),
        // Items with a property filter: their query and their shaped members (docs/member-shape.md).
        ...(resource.properties
          ? [
              { name: itemQueryTypeName(resource.name), isTypeOnly: true },
              { name: `${resource.name}ShapedMember`, isTypeOnly: true },
            ]
          : []),
        names.createApp,
        names.operations,
        names.resource,
        names.select,
      ],
    }))
  )
}

/** `HydraAppOptions`: the runtime's options of a generated API, with this schema's types. */
function addAppOptions(file: SourceFile, anyProviders: boolean) {
  file.addTypeAlias({
    name: 'HydraAppOptions',
    isExported: true,
    docs: [
      'Options of `createHydraApp` (ApiAppOptions): the client and its replicas, custom data providers\n' +
        "and access rules by model (`A`, rules of the app's Hono Env `E`), the documentation, and\n" +
        'HydraAppSettings (batch size, time budgets, public origin, proxies, CORS, streaming).',
    ],
    typeParameters: [
      { name: 'A', default: '{}' },
      { name: 'E', constraint: 'Env', default: 'Env' },
    ],
    type: `ApiAppOptions<PrismaClient, ${anyProviders ? 'HydraProviders' : 'never'}, A & HydraAccess<E>>`,
  })
}

/** The access rules, documentation options, documented types and providers of the whole API. */
function addApiTypes(
  file: SourceFile,
  model: HydraModel,
  resources: readonly Entry[],
  client: EmitContext['client']
) {
  file.addTypeAlias({
    name: 'HydraAccess',
    isExported: true,
    docs: [
      "The access rules of each resource, by model name (docs/security.md); `E` is the app's Hono Env,\n" +
        'whose `Variables` the rules read: `{ ... } satisfies HydraAccess<{ Variables: { jwtPayload?: Claims } }>`.',
    ],
    typeParameters: [{ name: 'E', constraint: 'Env', default: 'Env' }],
    type: `{ ${resources.map(({ resource, names }) => `${resource.name}?: ${names.access}<E> | undefined`).join('; ')} }`,
  })
  file.addTypeAlias({
    name: 'HydraMembers',
    isExported: true,
    docs: [
      'The members of each resource, by model name, as a caller of an app with the access rules `A`\n' +
        '(`typeof access`) receives them: the fields their `hidden` rules may hide optional, in them and in\n' +
        'the items they embed (docs/security.md).',
    ],
    typeParameters: [{ name: 'A' }],
    type: `{ ${resources.map(({ resource, names }) => `${resource.name}: CallerMember<${names.member}, WithInverseLinks<A, typeof inverseLinks>>`).join('; ')} }`,
  })
  file.addTypeAlias({
    name: 'HydraDocumentationOptions',
    isExported: true,
    docs: [
      `The API documentation's title (default ${JSON.stringify(model.title ?? DEFAULT_TITLE)}${model.title ? ', platform.title' : ''}), description and custom collections' types.`,
    ],
    type: 'ApiDocumentationOptions',
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
  const providers = resources.filter(({ resource }) => hasProviders(resource, client))
  if (providers.length > 0)
    file.addTypeAlias({
      name: 'HydraProviders',
      isExported: true,
      docs: ['Custom data providers, by model (the Prisma client property name).'],
      type: `{ ${providers.map(({ resource, names }) => `${resource.delegate}?: ${names.providers} | undefined`).join('; ')} }`,
    })
}

/** `createHydraApp`: the runtime's app parts with every resource's sub-app between them. */
function addCreateHydraApp(
  file: SourceFile,
  model: HydraModel,
  resources: readonly Entry[],
  client: EmitContext['client']
) {
  const anyProviders = resources.some(({ resource }) => hasProviders(resource, client))
  file.addFunction({
    name: 'createHydraApp',
    isExported: true,
    docs: [
      'A Hono app serving every annotated model as a JSON-LD/Hydra resource, with problem+json errors.\n' +
        'Mount it anywhere: `app.route("/api", createHydraApp({ prisma }))`; links follow the mount path.\n' +
        '`A` is the type of the access rules given (`access`), `E` the Hono Env they read: for `hc`,\n' +
        'the app types as optional the fields the rules may hide, and every route its 401 and 403.',
    ],
    typeParameters: [
      { name: 'A', constraint: 'HydraAccess<E>', default: '{}' },
      { name: 'E', constraint: 'Env', default: 'Env' },
    ],
    parameters: [{ name: 'options', type: 'HydraAppOptions<A, E>' }],
    statements: (writer) => {
      // A link a rule hides is hidden from its other side too: every route reads these rules.
      writer.writeLine('const access = hideInverseLinks(options.access, inverseLinks)')
      writer.writeLine('const served = { ...options, access }')
      writer.writeLine(
        `const { prisma, ${anyProviders ? 'providers, ' : ''}documentation } = options`
      )
      writer.write('const api: ApiDescription = ').inlineBlock(() => {
        writer.write('title: documentation?.title ?? ').quote(model.title ?? DEFAULT_TITLE)
        writer.write(',').newLine()
        if (model.description)
          writer
            .write('description: documentation?.description ?? ')
            .quote(model.description)
            .write(',')
            .newLine()
        else writer.writeLine('description: documentation?.description,')
        writer.writeLine('types: [...hydraTypes, ...(documentation?.types ?? [])],')
        // The OpenAPI document declares the 401 and 403 of guarded routes.
        writer.writeLine('access,')
        writer.writeLine('authentication: options.authentication,')
      })
      writer.newLine()
      writer.write(`const app = apiBase(served, ${model.hydraPrefix})`).indent(() => {
        writer.writeLine(".route('/', discoveryRoutes(api))")
        for (const { resource, names } of resources)
          writer.writeLine(
            hasProviders(resource, client)
              ? `.route('/', ${names.createApp}(prisma, { ...served, providers: providers?.${resource.delegate} }))`
              : `.route('/', ${names.createApp}(prisma, served))`
          )
        writer.writeLine(`.route('/', errorRoutes(${model.hydraPrefix}))`)
      })
      // Last: 405s for other methods, the unmatched requests and the error handlers. Its type
      // makes optional for `hc` the fields the app's rules may hide.
      writer.writeLine(
        `return completeApi(app, api, ${model.hydraPrefix}, served) as CallerApp<typeof app, WithInverseLinks<A, typeof inverseLinks>>`
      )
    },
  })
}

/** `collectionPaths`: every served collection path. */
function addCollectionPaths(file: SourceFile, model: HydraModel) {
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

/** `hydraResources`: every served resource, whose IRIs a write purges (docs/caching.md). */
function addHydraResources(file: SourceFile, resources: readonly Entry[]) {
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [
      "Every served resource: give it to hydraInvalidation's `resources`, so that a write purges the\n" +
        'answers showing its rows by their IRIs and leaves the items of other rows cached.',
    ],
    declarations: [
      {
        name: 'hydraResources',
        initializer: `[${resources.map(({ names }) => names.resource).join(', ')}] as const`,
      },
    ],
  })
}

/** `hydraRules`: what the access rules say for a caller, for the app's own routes. */
function addHydraRules(file: SourceFile, resources: readonly Entry[]) {
  const keys = resources.map(
    ({ resource }) => `${resource.name}: ${JSON.stringify(resource.idField.name)}`
  )
  file.addFunction({
    name: 'hydraRules',
    isExported: true,
    docs: [
      "What the access rules say for a caller, for the app's own routes (its writes among them): each\n" +
        "model's guard answer, its scope as a where and its hidden fields, read as the generated routes\n" +
        "read them (docs/security.md), typed by the models' Prisma types and the app's Env. Give it the\n" +
        '`access` and `authentication` given createHydraApp.',
    ],
    typeParameters: [{ name: 'E', constraint: 'Env', default: 'Env' }],
    parameters: [
      {
        name: 'options',
        type: '{ access?: HydraAccess<E> | undefined; authentication?: AuthenticationSettings | undefined }',
      },
    ],
    returnType: 'CallerRules<HydraAccess<E>>',
    statements: `return callerRules(hideInverseLinks(options.access, inverseLinks), options.authentication ?? {}, { ${keys.join(', ')} })`,
  })
}

/** Fills `index.ts`: `createHydraApp({ prisma })` mounting every resource, and re-exports. */
export function emitIndexModule(file: SourceFile, model: HydraModel, context: EmitContext): void {
  const resources = model.resources.map((resource) => ({
    resource,
    names: resourceNames(resource),
  }))
  const anyProviders = model.resources.some((resource) => hasProviders(resource, context.client))
  addIndexImports(file, resources, context)
  addIndexExports(file, resources, context)
  addAppOptions(file, anyProviders)
  addApiTypes(file, model, resources, context.client)
  addCreateHydraApp(file, model, resources, context.client)
  addHydraRules(file, resources)
  addCollectionPaths(file, model)
  addHydraResources(file, resources)
}
