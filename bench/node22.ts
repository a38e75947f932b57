/**
 * The Node 22 binary the benchmarks' Prisma 8 servers run on (Prisma 8's floor): the one
 * example-prisma8/scripts/node22.mjs runs commands with, installed there on first use. Its own
 * path, not the script's: a server started from it keeps its IPC channel with the benchmark.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const SCRIPT = fileURLToPath(new URL('../example-prisma8/scripts/node22.mjs', import.meta.url))

/** The path of the Node 22 binary. */
export function node22(): string {
  const output = execFileSync(process.execPath, [SCRIPT, 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
  })
  // The last line: a first use prints npm's install above it.
  return output.trim().split('\n').at(-1) ?? ''
}
