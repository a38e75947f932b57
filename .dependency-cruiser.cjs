/**
 * The runtime's layers (CONTRIBUTING.md, layout): each folder of runtime/src imports only the
 * layers before it, so a value read, a page, a filter, a read, a document and a route each depend
 * on what is below them alone. `npm run cycles` checks it with `depcruise`.
 */
const layers = [
  [
    'leaves',
    '^runtime/src/((errors|error-kinds|terms|decimal|scalar-types)[.]ts$|values/|contract/)',
  ],
  ['observe', '^runtime/src/observe/'],
  ['database', '^runtime/src/database/'],
  ['iri', '^runtime/src/iri/'],
  ['plan', '^runtime/src/plan/'],
  ['paging', '^runtime/src/paging/'],
  ['filters', '^runtime/src/filters/'],
  ['data', '^runtime/src/data/'],
  ['hydra', '^runtime/src/hydra/'],
  ['openapi', '^runtime/src/openapi/'],
  ['hono/access', '^runtime/src/hono/access/'],
  ['hono/request', '^runtime/src/hono/request/'],
  ['hono/response', '^runtime/src/hono/response/'],
  ['hono/routes', '^runtime/src/hono/routes/'],
  ['hono/app', '^runtime/src/hono/app/'],
  ['node', '^runtime/src/node/'],
  ['mcp', '^runtime/src/mcp/'],
  [
    'entries',
    '^runtime/src/(index|generated|defaults|node|redis|compression|client|admin|mcp)[.]ts$',
  ],
]

/**
 * The generator's steps (CONTRIBUTING.md, layout), in the same way: the annotations are parsed, the
 * schema's models, fields and options read, the paging settings, the served models and their
 * relations, their filters, each resource assembled (`config/resource.ts`, `config/resolve.ts`),
 * then emitted and written; `init/` (the `prisma-hydra init` command) reads annotations alone;
 * `prisma8/` reads a Prisma 8 contract and schema into the DMMF the steps read.
 */
const generatorLayers = [
  ['problems', '^generator/src/(problems|client-options|generator-blocks|command-output)[.]ts$'],
  ['annotations', '^generator/src/annotations/'],
  ['config/schema', '^generator/src/config/schema/'],
  ['config/paging', '^generator/src/config/paging/'],
  ['config/models', '^generator/src/config/models/'],
  ['config/filters', '^generator/src/config/filters/'],
  ['config', '^generator/src/config/[^/]+[.]ts$'],
  ['emit', '^generator/src/emit/'],
  ['init', '^generator/src/init/'],
  ['prisma8', '^generator/src/prisma8/'],
  ['entries', '^generator/src/(generate|write|index|bin|contract-command)[.]ts$'],
]

/** Each layer imports only the layers before it. */
function oneWay(package_, list) {
  return list.slice(0, -1).map(([name, path], index) => ({
    name: `layer-${package_}-${name}`,
    comment: `${package_} layers point one way: ${name} imports only the layers before it`,
    severity: 'error',
    from: { path },
    to: {
      path: list
        .slice(index + 1)
        .map(([, later]) => `(${later})`)
        .join('|'),
    },
  }))
}

/**
 * The layers below HTTP take the caller and the request as data: Hono is the routes' alone
 * (`hono/`, `node/` and the entries).
 */
const withoutHono = {
  name: 'below-http-without-hono',
  comment: 'the layers below HTTP never import hono: the routes hand them data',
  severity: 'error',
  from: {
    path: '^runtime/src/((errors|error-kinds|terms|decimal|scalar-types)[.]ts$|(values|contract|observe|database|iri|paging|plan|filters|data|hydra|openapi)/)',
  },
  to: { path: '(^|/)node_modules/hono/' },
}

/**
 * The client's side (`@prisma-hydra/runtime/client`, runtime/src/client/ and its entry) goes into
 * browser bundles: besides itself it imports only the types of the leaves (the problem document),
 * never a room of the server, Hono, Prisma or Node.
 */
const CLIENT = '^runtime/src/(client/|client[.]ts$)'
const clientAlone = [
  {
    name: 'client-without-server',
    comment:
      'the client imports only itself and the leaves: nothing of the server, Hono, Prisma or Node',
    severity: 'error',
    from: { path: CLIENT },
    to: { pathNot: `${CLIENT}|^runtime/src/(errors|error-kinds|terms)[.]ts$` },
  },
  {
    name: 'client-leaves-types-only',
    comment: 'the client imports the leaves for their types alone: errors.ts imports Hono',
    severity: 'error',
    from: { path: CLIENT },
    to: { pathNot: CLIENT, dependencyTypesNot: ['type-only'] },
  },
]

/**
 * The admin preset (`@prisma-hydra/runtime/admin`, runtime/src/admin/ and its entry) goes into
 * admin pages alone: it imports only itself, @api-platform/admin and react-admin, and no other
 * entry imports it, so that neither a server nor the client entry pulls react-admin in.
 */
const ADMIN = '^runtime/src/(admin/|admin[.]ts$)'
const adminAlone = [
  {
    name: 'admin-alone',
    comment: 'the admin preset imports only itself and the admin packages (no server, no client)',
    severity: 'error',
    from: { path: ADMIN },
    to: { pathNot: `${ADMIN}|(^|/)node_modules/(@api-platform/admin|react-admin)/` },
  },
  {
    name: 'nothing-imports-admin',
    comment: 'no other part of the runtime imports the admin preset or the admin packages',
    severity: 'error',
    from: { path: '^runtime/src/', pathNot: ADMIN },
    to: { path: `${ADMIN}|(^|/)node_modules/(@api-platform/admin|react-admin|ra-core)/` },
  },
]

/**
 * The MCP endpoint (`@prisma-hydra/runtime/mcp`, runtime/src/mcp/ and its entry) is the only part
 * of the runtime that imports the MCP SDK, an optional peer dependency, and no other entry imports
 * it: an app that does not turn MCP on loads nothing of the SDK, on any runtime.
 */
const MCP = '^runtime/src/(mcp/|mcp[.]ts$)'
const mcpAlone = [
  {
    name: 'nothing-imports-mcp',
    comment: 'no other part of the runtime imports the MCP endpoint or the MCP SDK',
    severity: 'error',
    from: { path: '^runtime/src/', pathNot: MCP },
    to: { path: `${MCP}|(^|/)node_modules/@modelcontextprotocol/` },
  },
]

/**
 * The back ends (runtime/src/data/, CONTRIBUTING.md): each a room of its own. The `compiled`
 * engine writes SQL from the plan and runs it on a `SqlRunner` a back end hands it: it imports
 * nothing of the Prisma 7 room, which connects it to a Prisma 7 client.
 */
const backEndsApart = [
  {
    name: 'compiled-without-prisma7',
    comment: 'the compiled engine imports nothing of the Prisma 7 back end (data/prisma7/)',
    severity: 'error',
    from: { path: '^runtime/src/data/compiled/' },
    to: { path: '^runtime/src/data/prisma7/' },
  },
]

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    withoutHono,
    ...clientAlone,
    ...adminAlone,
    ...mcpAlone,
    ...backEndsApart,
    ...oneWay('runtime', layers),
    ...oneWay('generator', generatorLayers),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]test[.]ts$' },
    tsPreCompilationDeps: true,
  },
}
