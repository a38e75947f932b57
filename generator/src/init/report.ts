/**
 * What `prisma-hydra init` prints once it has written its files: what it created and added to,
 * what it left as it was, and the commands from there to the first served request.
 */

import type { Plan } from './plan.js'
import type { Runtime } from './runtimes.js'

const RUNTIME_NAMES: Record<Runtime, string> = {
  node: 'Node.js',
  bun: 'Bun',
  deno: 'Deno',
  workers: 'Cloudflare Workers',
}

/** The lines printed after `plan` was carried out for `runtime`. */
export function reportLines(plan: Plan, runtime: Runtime): string[] {
  // Long commands (an install naming tarballs) do not push every comment to the right.
  const commandWidth = Math.min(40, Math.max(...plan.next.map(([command]) => command.length)))
  return [
    `prisma-hydra init (${RUNTIME_NAMES[runtime]}):`,
    ...plan.create.map((file) => `  created ${file.path}`),
    ...plan.update.map((file) => `  added to ${file.path}: ${file.added.join(', ')}`),
    ...(plan.notes.length > 0 ? ['', ...plan.notes] : []),
    '',
    'Next:',
    ...plan.next.map(([command, what]) => `  ${command.padEnd(commandWidth)}  # ${what}`),
  ]
}
