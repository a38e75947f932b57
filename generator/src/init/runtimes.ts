/**
 * What each runtime `prisma-hydra init --runtime` offers needs: the package.json scripts, the
 * packages, and the commands that take the project to its first served request, as
 * docs/getting-started.md, docs/runtime-bun-deno.md and docs/runtime-workers.md run them.
 */

export const RUNTIMES = ['node', 'bun', 'deno', 'workers'] as const
export type Runtime = (typeof RUNTIMES)[number]

/** What the scripts depend on. */
export interface ScriptInputs {
  /** `src/<name>.ts` as Node.js runs it once compiled (`dist/<name>.js`). */
  compiled: (name: string) => string
  /** Whether the project has a `.env` (Prisma's `prisma init` writes one), which Node.js reads. */
  envFile: boolean
  /** Whether init writes the first model's rows (`src/seed.ts`, or `seed.sql` for D1). */
  seed: boolean
  /** The Worker's schema (`prisma/workers.prisma`). */
  workersSchema: string
}

/** The package.json scripts of `runtime`, in the order they are added. */
export function runtimeScripts(runtime: Runtime, inputs: ScriptInputs): Record<string, string> {
  const node = inputs.envFile ? 'node --env-file=.env' : 'node'
  const deno = 'deno run --allow-all --sloppy-imports'
  const scripts: Record<Runtime, Array<[string, string]>> = {
    node: [
      ['build', 'tsc'],
      ['typecheck', 'tsc --noEmit'],
      ['start', `${node} ${inputs.compiled('server')}`],
      ['seed', `${node} ${inputs.compiled('seed')}`],
    ],
    bun: [
      ['typecheck', 'tsc --noEmit'],
      ['start', 'bun src/server.ts'],
      ['seed', 'bun src/seed.ts'],
    ],
    deno: [
      ['typecheck', 'tsc --noEmit'],
      ['start', `${deno} src/server.ts`],
      ['seed', `${deno} src/seed.ts`],
    ],
    workers: [
      [
        'generate',
        `node scripts/workers-schema.mjs && prisma generate --schema ${inputs.workersSchema}`,
      ],
      ['typecheck', 'tsc --noEmit'],
      ['start', 'wrangler dev --local --port 8787'],
      ['seed', 'wrangler d1 execute DB --local --file seed.sql'],
    ],
  }
  return Object.fromEntries(
    scripts[runtime].filter(([name]) => name !== 'seed' || inputs.seed)
  ) as Record<string, string>
}

/** The packages a project on `runtime` imports or runs, besides the driver adapter. */
export function runtimePackages(runtime: Runtime): { dependencies: string[]; dev: string[] } {
  const dependencies = ['@prisma-hydra/runtime', '@prisma/client', 'hono']
  const dev = ['@prisma-hydra/generator', 'prisma', 'typescript', '@types/node']
  if (runtime === 'node') dependencies.push('@hono/node-server')
  // Both runtimes come from the npm registry (docs/runtime-bun-deno.md).
  if (runtime === 'bun' || runtime === 'deno') dev.push(runtime)
  // The last release that runs on Node.js 20 (docs/runtime-workers.md).
  if (runtime === 'workers') dev.push('wrangler@4.86.0')
  return { dependencies, dev }
}

/** The commands after the packages are installed, up to the first served request. */
export function nextCommands(
  runtime: Runtime,
  seed: boolean,
  workersSchema: string
): Array<[string, string]> {
  const seedCommand: Array<[string, string]> = seed ? [['npm run seed', 'a few rows']] : []
  if (runtime === 'workers') {
    return [
      ['npm run generate', "the Worker's schema, client and routes"],
      [
        `npx prisma migrate diff --from-empty --to-schema ${workersSchema} --script --output migrations/0001_init.sql`,
        "the tables' SQL",
      ],
      ['npx wrangler d1 migrations apply DB --local', 'the tables, in the local D1'],
      ...seedCommand,
      ['npm start', 'http://localhost:8787/api'],
    ]
  }
  return [
    ['npx prisma generate', 'the Prisma client and the routes'],
    ['npx prisma db push', 'the tables'],
    runtime === 'node' ? ['npm run build', 'tsc'] : ['npm run typecheck', 'tsc --noEmit'],
    ...seedCommand,
    ['npm start', 'http://localhost:3000/api'],
  ]
}
