// docs/runtime-workers.md followed in the project of docs/getting-started.md, after that page:
// its blocks written and run (the D1 adapter and wrangler from the npm registry, the schema and
// routes for workerd, the Worker entry, the D1 tables from Prisma's migration script and the seed
// SQL), then the Worker served by its `start-workers` step (`wrangler dev --local`) and checked
// over HTTP with getting-started's checks and against that server's answers.

import path from 'node:path'
import { root } from './commands.mjs'
import { commands, walkthroughBlocks } from './doc-blocks.mjs'
import { checkServer } from './getting-started-checks.mjs'
import { checkSameAnswers } from './node-answers.mjs'
import { freePort, startServerOn } from './server.mjs'
import { phase } from './timings.mjs'
import { followBlocks } from './walkthrough.mjs'

const doc = path.join(root, 'docs/runtime-workers.md')
const blocks = walkthroughBlocks(
  doc,
  ['install', 'generate', 'typecheck', 'create-tables', 'seed', 'start-workers'],
  ['scripts/workers-schema.mjs', 'src/worker.ts', 'wrangler.jsonc', 'seed.sql']
)

/** What the page says to set offline: wrangler's metrics would try to reach Cloudflare. */
const OFFLINE = { WRANGLER_SEND_METRICS: 'false' }

/**
 * Follows the page in `project`, the project getting-started.md made, whose Node.js server
 * answered `nodeAnswers`; the Worker's rows are the seed SQL's, the same as that server's.
 */
export async function walkWorkers(project, tarballs, nodeAnswers) {
  const [start] = await followBlocks(blocks, project, {
    tarballs,
    envFor: () => OFFLINE,
    label: 'Workers: ',
  })
  phase('Workers: step start-workers')
  // The page's port is 8787; the inspector's, 9229 by default, may be taken on a shared machine.
  const [port, inspector] = [await freePort(), await freePort()]
  const [command] = commands(start.body)
  const base = `http://localhost:${port}/api`
  const server = await startServerOn(
    command.replace('--port 8787', `--port ${port} --inspector-port ${inspector}`),
    project,
    port,
    base,
    OFFLINE
  )
  try {
    phase('Workers: HTTP checks')
    await checkServer(base)
    await checkSameAnswers('Workers', base, nodeAnswers)
  } finally {
    server.stop()
  }
}
