/**
 * The command line of `prisma-hydra` when a person runs it (Prisma runs it without arguments, as
 * its generator): `init`, its `--runtime`, and `--help`.
 */

import { parseArgs } from 'node:util'
import { docLink } from './doc-links.js'
import { RUNTIMES, type Runtime } from './runtimes.js'

export type Command =
  | { kind: 'init'; runtime: Runtime }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string }

export const USAGE = `Usage: prisma-hydra init [--runtime ${RUNTIMES.join('|')}]

Adds prisma-hydra to the project in the current folder, the way the getting-started page does by
hand: the "prisma-hydra" generator beside Prisma's "prisma-client", a server entry in src/, the
package.json scripts, and a first served model when the schema has no model. In a folder without
a Prisma schema it writes the whole Prisma project of that page, on SQLite. It never overwrites a
file: when one it would create exists, it writes nothing.

  --runtime node      src/server.ts on Node.js (the default)
  --runtime bun       src/server.ts for Bun
  --runtime deno      src/server.ts for Deno
  --runtime workers   src/worker.ts and wrangler.jsonc for Cloudflare Workers on D1

Without arguments, prisma-hydra is the generator that \`prisma generate\` runs. On Prisma 8, which
runs no generators, \`prisma-hydra generate --contract ... --schema ... --output ...\` generates from
the contract \`prisma contract emit\` wrote (prisma-hydra generate --help).

Getting started: ${docLink('getting-started.md', '3. The quick path: npx prisma-hydra init')}
Bun and Deno:    ${docLink('runtime-bun-deno.md')}
Workers:         ${docLink('runtime-workers.md')}
`

/** Reads the arguments after `prisma-hydra`. */
export function parseCommand(args: string[]): Command {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(args)
  } catch (error) {
    return { kind: 'usage-error', message: (error as Error).message }
  }
  const { values, positionals } = parsed
  if (values.help) return { kind: 'help' }
  const [command, ...extra] = positionals
  if (command !== 'init')
    return {
      kind: 'usage-error',
      message: command === undefined ? 'no command' : `unknown command "${command}"`,
    }
  if (extra.length > 0) return { kind: 'usage-error', message: `unexpected argument "${extra[0]}"` }
  const runtime = values.runtime ?? 'node'
  if (!(RUNTIMES as readonly string[]).includes(runtime))
    return {
      kind: 'usage-error',
      message: `--runtime is "${runtime}"; it takes ${RUNTIMES.join(', ')}`,
    }
  return { kind: 'init', runtime: runtime as Runtime }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { runtime: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
}
