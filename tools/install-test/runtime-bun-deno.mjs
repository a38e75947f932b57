// docs/runtime-bun-deno.md followed in the project of docs/getting-started.md, after that page:
// its blocks written and run (libsql in place of better-sqlite3, the Bun and Deno server entry,
// the runtimes from the npm registry), then the server started with each runtime's `start-`
// command and checked over HTTP with getting-started's checks and against Node.js's answers.

import path from 'node:path'
import { root } from './commands.mjs'
import { commands, walkthroughBlocks } from './doc-blocks.mjs'
import { checkServer } from './getting-started-checks.mjs'
import { checkSameAnswers } from './node-answers.mjs'
import { freePort, startServerOn } from './server.mjs'
import { phase } from './timings.mjs'
import { followBlocks } from './walkthrough.mjs'

const doc = path.join(root, 'docs/runtime-bun-deno.md')
const blocks = walkthroughBlocks(
  doc,
  ['install', 'typecheck', 'start-bun', 'start-deno'],
  ['src/prisma.ts', 'src/server.ts']
)

/**
 * Follows the page in `project`, the project getting-started.md made (built, seeded), whose
 * Node.js server answered `nodeAnswers`.
 */
export async function walkBunDeno(project, tarballs, nodeAnswers) {
  const starts = await followBlocks(blocks, project, { tarballs, label: 'Bun, Deno: ' })
  for (const start of starts) {
    const runtime = start.name === 'start-bun' ? 'Bun' : 'Deno'
    phase(`Bun, Deno: step ${start.name}`)
    const port = await freePort()
    // Both runtimes take the port from PORT (startServerOn sets it).
    const [command] = commands(start.body)
    const base = `http://localhost:${port}/api`
    const server = await startServerOn(command, project, port, base)
    try {
      phase(`Bun, Deno: HTTP checks on ${runtime}`)
      await checkServer(base)
      await checkSameAnswers(runtime, base, nodeAnswers)
    } finally {
      server.stop()
    }
  }
}
