/**
 * The runtime's layers (CONTRIBUTING.md, layout): each folder of runtime/src imports only the
 * layers before it, so a value read, a page, a filter, a read, a document and a route each depend
 * on what is below them alone. `npm run cycles` checks it with `depcruise`.
 */
const layers = [
  ['leaves', '^runtime/src/((errors|terms|decimal|scalar-types)[.]ts$|values/|contract/)'],
  ['observe', '^runtime/src/observe/'],
  ['database', '^runtime/src/database/'],
  ['iri', '^runtime/src/iri/'],
  ['paging', '^runtime/src/paging/'],
  ['filters', '^runtime/src/filters/'],
  ['data', '^runtime/src/data/'],
  ['hydra', '^runtime/src/hydra/'],
  ['openapi', '^runtime/src/openapi/'],
  ['hono', '^runtime/src/hono/'],
  ['node', '^runtime/src/node/'],
  ['entries', '^runtime/src/(index|generated|defaults|node|redis)[.]ts$'],
]

/**
 * The layers below HTTP take the caller and the request as data: Hono is the routes' alone
 * (`hono/`, `node/` and the entries).
 */
const withoutHono = {
  name: 'below-http-without-hono',
  comment: 'the layers below HTTP never import hono: the routes hand them data',
  severity: 'error',
  from: {
    path: '^runtime/src/((errors|terms|decimal|scalar-types)[.]ts$|(values|contract|observe|database|iri|paging|filters|data|hydra|openapi)/)',
  },
  to: { path: '(^|/)node_modules/hono/' },
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    withoutHono,
    ...layers.slice(0, -1).map(([name, path], index) => ({
      name: `layer-${name}`,
      comment: `runtime/src layers point one way: ${name} imports only the layers before it`,
      severity: 'error',
      from: { path },
      to: {
        path: layers
          .slice(index + 1)
          .map(([, later]) => `(${later})`)
          .join('|'),
      },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]test[.]ts$' },
    tsPreCompilationDeps: true,
  },
}
