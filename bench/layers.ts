/**
 * Where a response's CPU time goes, by layer: the self time of V8's CPU profiler samples, each
 * given to the layer of its script and function. bench/profile.ts sums a server process's profile
 * with these layers; bench/code-paths.ts counts a response's functions and calls by them.
 */

/** A layer's test of a sample: its script's URL and its function's name. */
type LayerTest = (url: string, name: string) => boolean

const runtime = (folders: string) => new RegExp(`runtime/(dist|src)/(${folders})/`)

/**
 * The layers, first match wins. JSON.stringify, the ETag's hash and the UTF-8 encoding of the body
 * are native: they are sampled under their own names (no script), and counted with the layer that
 * calls them for.
 */
export const LAYERS: Array<[string, LayerTest]> = [
  ['garbage collection', (_, name) => name === '(garbage collector)'],
  ['generated code', (url) => url.includes('/bench/.generated/hydra')],
  ['Prisma client (query layer)', (url) => /@prisma\/client|\.generated[^/]*\/prisma\//.test(url)],
  ['driver adapter', (url) => url.includes('@prisma/adapter-')],
  [
    'driver (better-sqlite3 / pg / mariadb)',
    (url, name) =>
      /better-sqlite3|\/pg\/|pg-protocol|node_modules\/mariadb\//.test(url) ||
      (url === '' && /^(all|get|iterate|run|prepare|Statement|bind|columns)$/.test(name)),
  ],
  // Prisma 8's runtime (after the driver: its copies of node-postgres lie below its packages).
  ['Prisma 8 runtime (@prisma/orm-*)', (url) => url.includes('@prisma/orm-')],
  // The compiled engine runs its kept statements itself (compiled/sqlite.ts): the driver's native
  // work is sampled as that file's own time.
  [
    'compiled statements on better-sqlite3 (the driver included)',
    (url) => runtime('data').test(url) && url.includes('compiled-sqlite'),
  ],
  ['caller view and access rules', (url) => /caller-view|\/hono\/access\//.test(url)],
  [
    'data access (data/, paging/, filters/)',
    (url) => runtime('data|paging|filters|database').test(url) || url.includes('client-runtime'),
  ],
  [
    'validator (ETag: SHA-256 of the body, preconditions)',
    (url, name) =>
      url.includes('http-cache') ||
      url === 'node:internal/crypto/hash' ||
      (url === '' && /^(digest|update|Hash)$/.test(name)),
  ],
  [
    'links and hydra:search (iri/, links, search)',
    (url) => /runtime\/(dist|src)\/iri\/|hydra\/(links|search)/.test(url),
  ],
  [
    'serialization (members, document, JSON.stringify, UTF-8)',
    (url, name) =>
      runtime('hydra|values').test(url) ||
      url.includes('json-ld') ||
      url.includes('collection-response') ||
      (url === '' && /^(stringify|encode|encodeInto|encodeUtf8String)$/.test(name)),
  ],
  [
    'observation (spans, Server-Timing)',
    (url) => url.includes('@opentelemetry') || runtime('observe').test(url),
  ],
  ['runtime: routes, request, headers', (url) => /runtime\/(dist|src)\//.test(url)],
  ['Hono', (url) => /node_modules\/(hono|@hono)\//.test(url)],
  ['the benchmark itself', (url) => url.includes('/bench/')],
  ['Node.js and undici (Request, Response, streams)', (url) => url.startsWith('node:')],
  ['native and other', () => true],
]

/** The layer of a function of the script at `url`: the first whose test it passes. */
export function layerOf(url: string, name: string): string {
  return (LAYERS.find(([, test]) => test(url, name)) as [string, LayerTest])[0]
}

/** The layer of each node of a CPU profile, by its id (none for idle time and V8's own). */
export function nodeLayers(
  nodes: ReadonlyArray<{ id: number; callFrame: { functionName: string; url: string } }>
): Map<number, string> {
  const layers = new Map<number, string>()
  for (const node of nodes) {
    const { url, functionName } = node.callFrame
    if (functionName === '(idle)' || functionName === '(program)') continue
    layers.set(node.id, layerOf(url, functionName))
  }
  return layers
}
