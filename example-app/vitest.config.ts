import { defaultServerConditions } from 'vite'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import {
  ISOLATED_SUFFIX,
  SERVERS,
  serverUrl,
  TEST_DATABASE_VARIABLE,
} from './test/support/databases.js'
import { FileOrder } from './test/support/file-order.js'
import { DatabaseSummary } from './test/support/summary.js'

/**
 * End-to-end files that never touch the suite's database, run once (in the `sqlite` project):
 * the generator's failures (no database), custom handlers over arrays and iterables (no
 * database), the per-server checks that pick their servers themselves, and runtime-bun-deno.md's
 * entry on SQLite files of its own (one it cannot open, one it serves and stops).
 */
const DATABASE_FREE = [
  'test/generate.e2e.test.ts',
  'test/generate-output.e2e.test.ts',
  'test/client-options.e2e.test.ts',
  'test/decimal-scale.e2e.test.ts',
  'test/handlers.e2e.test.ts',
  'test/descriptors.e2e.test.ts',
  'test/databases.e2e.test.ts',
  'test/workers-cache.e2e.test.ts',
  'test/bun-deno-entry.e2e.test.ts',
]

/** End-to-end files of what only PostgreSQL stores (scalar lists, uuid and Bytes keys): the `postgresql` project only. */
const POSTGRESQL_ONLY = [
  'test/scalar-lists.e2e.test.ts',
  'test/native-ids.e2e.test.ts',
  'test/replicas.e2e.test.ts',
  'test/compiled-postgres-statements.e2e.test.ts',
  'test/pg-one-query-at-a-time.e2e.test.ts',
]

/**
 * End-to-end files not run on MariaDB: the runtimes smoke test (Bun and Deno are documented on
 * SQLite and PostgreSQL, docs/runtime-bun-deno.md), and the client page in Chromium (its walks
 * over every database are walker.e2e's to check; the page's use of them needs two).
 */
const NOT_MYSQL = ['test/runtimes.e2e.test.ts', 'test/client-page.e2e.test.ts']

/**
 * End-to-end files of clients installed from the registry whose every expectation is read from
 * the API over HTTP, run once (in the `sqlite` project): what they prove is the clients' use of
 * the API, which the database under it does not change. The API's answers on each database are
 * the other files' to check, and the behaviour snapshot's (CONTRIBUTING.md): the example's
 * answers to its 220 recorded requests, walks of paged collections to their end among them, are
 * the same bytes on the three.
 * API Platform's admin walks every page of every collection in Chromium, three minutes a
 * database; alcaeus walks them as RDF, API Platform's parser and client generator (`next build`
 * among them) and jsonld read them, 40 to 50 s a database together. The MCP clients (the SDK's
 * two, the Inspector's command line) walk the example and the 125-model fixture by its tools,
 * each result held to the same caller's HTTP answer, 30 to 60 s a database; the tools' rules are
 * hunted on every database (mcp-hunters.e2e.test.ts), and their answers held to HTTP's on every
 * database by mcp-tools.e2e.test.ts.
 */
const CLIENT_ONLY = [
  'test/admin.e2e.test.ts',
  'test/alcaeus.e2e.test.ts',
  'test/hydra-clients.e2e.test.ts',
  'test/mcp-inspector.e2e.test.ts',
  'test/mcp-revisions.e2e.test.ts',
  'test/mcp-platform.e2e.test.ts',
]

/**
 * End-to-end files that change what their process holds for good, run each in a process of its
 * own: a global OpenTelemetry provider, registered at the start or in the middle of the file and
 * left registered (the runtime takes its tracer once per process), and the process's time zone.
 */
const OWN_PROCESS = [
  'test/tracing.e2e.test.ts',
  'test/tracing-registered-later.e2e.test.ts',
  'test/mcp-tracing.e2e.test.ts',
  'test/compiled-statements.e2e.test.ts',
  'test/compiled-postgres-statements.e2e.test.ts',
]

/**
 * A database's project, as two: its files one after the other in a worker process that stays
 * (Vitest's `isolate: false`: the modules the files share are loaded once a worker, not once a
 * file, about 1.2 s of CPU a file), and the OWN_PROCESS files of `include`, each in a new one.
 */
function projectsOf(
  name: string,
  include: string[],
  exclude: string[],
  config: Omit<TestProjectInlineConfiguration, 'test' | 'extends'> & {
    test?: TestProjectInlineConfiguration['test']
  } = {}
): TestProjectInlineConfiguration[] {
  const own = OWN_PROCESS.filter((file) => !exclude.includes(file))
  return [
    {
      ...config,
      extends: true,
      test: { ...config.test, name, include, exclude: [...exclude, ...own], isolate: false },
    },
    {
      ...config,
      extends: true,
      test: { ...config.test, name: `${name}${ISOLATED_SUFFIX}`, include: own, isolate: true },
    },
  ]
}

const projects: TestProjectInlineConfiguration[] = projectsOf(
  'sqlite',
  ['test/**/*.test.ts'],
  POSTGRESQL_ONLY
)

// Every other end-to-end file runs again on each configured server: the provider's condition
// (`postgresql`, `mysql`) makes `#generated/*` and `#fixtures/*` (package.json "imports") the code
// generated for it, and the harness gives each file a database of its own there.
for (const key of ['postgresql', 'mariadb'] as const) {
  if (!serverUrl(key)) continue
  const { project } = SERVERS[key]
  projects.push(
    ...projectsOf(
      project,
      ['test/**/*.e2e.test.ts'],
      key === 'postgresql'
        ? [...DATABASE_FREE, ...CLIENT_ONLY]
        : [...DATABASE_FREE, ...CLIENT_ONLY, ...POSTGRESQL_ONLY, ...NOT_MYSQL],
      {
        // Vite's `module` condition is not Node's: it picks builds Node cannot load
        // (`@opentelemetry/api`'s ESM build imports files without their extension).
        ssr: {
          resolve: {
            conditions: [project, ...defaultServerConditions.filter((name) => name !== 'module')],
          },
        },
        test: {
          env: { [TEST_DATABASE_VARIABLE]: project },
          globalSetup: [`test/support/check-${key}.ts`],
        },
      }
    )
  )
}

export default defineConfig({
  test: {
    testTimeout: 60000,
    hookTimeout: 120000,
    // Three files at a time: much of an end-to-end file's time is spent waiting on a database
    // server's disk (a database created and its tables made for every file), a child process or
    // Chromium, and Vitest's default on a 2-core machine is one file at a time (cores - 1). Every
    // file has databases, ports and folders of its own.
    maxWorkers: 3,
    // The longest files first, then each project's together (test/support/file-order.ts).
    sequence: { sequencer: FileOrder },
    projects,
    reporters: ['default', new DatabaseSummary()],
  },
})
